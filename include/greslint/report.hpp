// SPDX-License-Identifier: Apache-2.0
// Reporter: how parsers and rules hand findings to the engine.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "greslint/diagnostic.hpp"

namespace greslint {

/// Longest text one field of a finding carries. Longer text (a 10 MB value copied into a
/// message) keeps its first and last 2 KB around a note of how much was left out: every
/// format copies a message several times, and a report should stay readable.
inline constexpr std::size_t kMaxFindingText = 4096;

/// A copy of `s` clipped to kMaxFindingText: for quoting a piece of input in a message
/// without first copying all of it.
inline std::string clipped(std::string_view s) {
  if (s.size() <= kMaxFindingText) return std::string(s);
  std::size_t head = kMaxFindingText / 2, tail = s.size() - kMaxFindingText / 2;
  // Cut between UTF-8 characters.
  while (head > 0 && (static_cast<unsigned char>(s[head]) & 0xC0) == 0x80) --head;
  while (tail < s.size() && (static_cast<unsigned char>(s[tail]) & 0xC0) == 0x80) ++tail;
  std::string out(s.substr(0, head));
  out += " [... " + std::to_string(tail - head) + " bytes not shown ...] ";
  out += s.substr(tail);
  return out;
}

inline std::string clip_text(std::string s) {
  return s.size() <= kMaxFindingText ? s : clipped(s);
}

/// Fluent access to the diagnostic just reported.
class DiagnosticBuilder {
 public:
  explicit DiagnosticBuilder(Diagnostic& d) : d_(d) {}
  DiagnosticBuilder& nodes(std::string folded) { d_.nodes = std::move(folded); return *this; }
  DiagnosticBuilder& slurm(std::string line) { d_.slurm_message = clip_text(std::move(line)); return *this; }
  DiagnosticBuilder& related(Span s, std::string msg) {
    if (s.valid()) d_.related.push_back({s, clip_text(std::move(msg))});
    return *this;
  }
  /// A note about another place the finding stands for (Related::echo), `more` places past it
  /// counted in its message.
  DiagnosticBuilder& echo(Span s, std::string msg, std::uint32_t more = 0) {
    if (!s.valid()) return *this;
    Related r{s, clip_text(std::move(msg))};
    r.more = more;
    r.echo = true;
    d_.related.push_back(std::move(r));
    return *this;
  }
  DiagnosticBuilder& help(std::string h) { d_.help = clip_text(std::move(h)); return *this; }
  DiagnosticBuilder& effect(Effect e, Daemon who) { d_.effect = e; d_.daemon = who; return *this; }
  DiagnosticBuilder& severity(Severity s) { d_.severity = s; return *this; }
  DiagnosticBuilder& fix(Fix f) { d_.fix = std::move(f); return *this; }

 private:
  Diagnostic& d_;
};

/// Collects diagnostics; effect, daemon and severity start from the rule's defaults.
/// Like a compiler's error limit, it keeps at most kMaxPerRule findings of one rule: a file
/// of a million bad lines must not become a million findings (memory, time, and a report
/// nobody reads). Findings past the limit are counted, not stored.
class Reporter {
 public:
  static constexpr std::size_t kMaxPerRule = 1000;

  DiagnosticBuilder report(const RuleInfo& rule, Span span, std::string message) {
    std::size_t& kept = kept_[&rule];
    if (kept >= kMaxPerRule) {
      ++dropped_[rule.id];
      overflow_ = Diagnostic{};
      overflow_.rule = &rule;
      return DiagnosticBuilder(overflow_);
    }
    ++kept;
    Diagnostic d;
    d.rule = &rule;
    d.severity = rule.severity;
    d.effect = rule.effect;
    d.daemon = rule.daemon;
    d.span = span;
    d.message = clip_text(std::move(message));
    diagnostics_.push_back(std::move(d));
    return DiagnosticBuilder(diagnostics_.back());
  }
  /// Adds a finding built elsewhere (the model merges its findings across node classes),
  /// under the same per-rule limit.
  void add(Diagnostic d) {
    std::size_t& kept = kept_[d.rule];
    if (kept >= kMaxPerRule) {
      ++dropped_[d.rule->id];
      return;
    }
    ++kept;
    diagnostics_.push_back(std::move(d));
  }
  /// Adds the findings `later` collected (on another thread, for work that comes after this
  /// reporter's so far), in its order and under this reporter's limits: what it kept is
  /// added as by add(), what it dropped is counted as dropped here. The result is what
  /// reporting them here, after the findings already held, would have kept and counted.
  void absorb(Reporter&& later) {
    for (Diagnostic& d : later.diagnostics_) add(std::move(d));
    for (const auto& [rule, count] : later.dropped_) dropped_[rule] += count;
    later.diagnostics_.clear();
    later.kept_.clear();
    later.dropped_.clear();
  }
  /// Moves every span of the findings `by` file ids on (findings on files read before their
  /// ids were known; SourceManager::rebase).
  void shift_files(std::uint16_t by) {
    for (Diagnostic& d : diagnostics_) {
      shift_file(d.span, by);
      for (Related& r : d.related) shift_file(r.span, by);
      if (d.fix)
        for (Edit& e : d.fix->edits) shift_file(e.span, by);
    }
  }
  const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }
  std::vector<Diagnostic>& diagnostics() noexcept { return diagnostics_; }

  /// True once `rule` has kMaxPerRule findings: the next one is dropped, so a caller may skip
  /// work that only feeds its text.
  bool saturated(const RuleInfo& rule) const {
    auto it = kept_.find(&rule);
    return it != kept_.end() && it->second >= kMaxPerRule;
  }
  /// True (and the finding counted as dropped) when `rule` is past the limit: for callers
  /// that report in bulk and would otherwise format a message for nothing.
  bool skip(const RuleInfo& rule) {
    if (!saturated(rule)) return false;
    ++dropped_[rule.id];
    return true;
  }
  /// Findings dropped past the limit, by rule id.
  const std::map<std::string_view, std::size_t>& dropped() const noexcept { return dropped_; }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::unordered_map<const RuleInfo*, std::size_t> kept_;
  std::map<std::string_view, std::size_t> dropped_;
  Diagnostic overflow_;  ///< what a dropped finding's builder writes to
};

}  // namespace greslint
