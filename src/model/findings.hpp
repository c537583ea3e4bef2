// SPDX-License-Identifier: Apache-2.0
// Where the model's checks put their findings. A check that runs once per node class
// reports the same finding for many classes; those merge into one finding naming every
// node of those classes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "greslint/report.hpp"

namespace greslint::model {

/// The node placeholders of finding and reason texts. A check runs once for a whole node
/// class, but Slurm names nodes in what it logs: a check writes a placeholder where the
/// node names go, and expand_nodes() replaces it once the nodes are known.
///   kNodes: the nodes a finding is about ("gpu[01-16]").
///   kNode:  the one node Slurm names in a log line or drain reason; a finding about a
///           group shows the group, a reason shows each node its own name.
/// Only the merged findings of for-class checks and NodeClass::reason are expanded.
/// Placeholders are control bytes no real configuration holds; an input that does hold
/// one gets node names in its place, which changes only the text of a message.
inline constexpr std::string_view kNodes = "\x01NODES\x01";
inline constexpr std::string_view kNode = "\x02NODE\x02";

/// `text` with both placeholders replaced by `nodes`.
std::string expand_nodes(std::string text, std::string_view nodes);

/// The findings of one model run.
class Findings {
 public:
  explicit Findings(Reporter& out) : out_(out) {}

  /// A finding about the configuration as a whole (or one the check names nodes for).
  /// Inside a ClassScope, a finding about the class's nodes, merged across classes.
  DiagnosticBuilder report(const RuleInfo& rule, Span span, std::string message);

  /// While alive, report() is about these nodes.
  class ClassScope {
   public:
    ClassScope(Findings& f, const std::vector<std::uint32_t>& nodes) : f_(f) { f_.current_nodes_ = &nodes; }
    ~ClassScope() { f_.current_nodes_ = nullptr; }
    ClassScope(const ClassScope&) = delete;
    ClassScope& operator=(const ClassScope&) = delete;

   private:
    Findings& f_;
  };

  /// Hands the merged findings to the reporter, their nodes folded and placeholders expanded.
  void flush(const std::vector<std::string>& node_names);

  Reporter& reporter() { return out_; }

 private:
  struct Pending {
    Diagnostic d;
    std::vector<std::uint32_t> nodes;
  };
  Reporter& out_;
  // Keyed by what makes two classes' findings the same one; std::map so the merged findings
  // come out in a stable order.
  std::map<std::tuple<std::string_view, std::uint16_t, std::uint32_t, std::string>, Pending> pending_;
  const std::vector<std::uint32_t>* current_nodes_ = nullptr;
};

}  // namespace greslint::model
