// SPDX-License-Identifier: Apache-2.0
// Reporter: how parsers and rules hand findings to the engine.
#pragma once

#include <string>
#include <vector>

#include "greslint/diagnostic.hpp"

namespace greslint {

/// Fluent access to the diagnostic just reported.
class DiagnosticBuilder {
 public:
  explicit DiagnosticBuilder(Diagnostic& d) : d_(d) {}
  DiagnosticBuilder& nodes(std::string folded) { d_.nodes = std::move(folded); return *this; }
  DiagnosticBuilder& slurm(std::string line) { d_.slurm_message = std::move(line); return *this; }
  DiagnosticBuilder& related(Span s, std::string msg) {
    if (s.valid()) d_.related.push_back({s, std::move(msg)});
    return *this;
  }
  DiagnosticBuilder& help(std::string h) { d_.help = std::move(h); return *this; }
  DiagnosticBuilder& effect(Effect e, Daemon who) { d_.effect = e; d_.daemon = who; return *this; }
  DiagnosticBuilder& severity(Severity s) { d_.severity = s; return *this; }
  DiagnosticBuilder& fix(Fix f) { d_.fix = std::move(f); return *this; }

 private:
  Diagnostic& d_;
};

/// Collects diagnostics; effect, daemon and severity start from the rule's defaults.
class Reporter {
 public:
  DiagnosticBuilder report(const RuleInfo& rule, Span span, std::string message) {
    Diagnostic d;
    d.rule = &rule;
    d.severity = rule.severity;
    d.effect = rule.effect;
    d.daemon = rule.daemon;
    d.span = span;
    d.message = std::move(message);
    diagnostics_.push_back(std::move(d));
    return DiagnosticBuilder(diagnostics_.back());
  }
  const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }
  std::vector<Diagnostic>& diagnostics() noexcept { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace greslint
