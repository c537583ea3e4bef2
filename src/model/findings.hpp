// SPDX-License-Identifier: Apache-2.0
// Where the model's checks put their findings. A check that runs once per node class
// reports the same finding for many classes; those merge into one finding naming every
// node of those classes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "greslint/model.hpp"
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

/// How many other places that say the same a finding shows as related notes; the others are
/// counted in the last of them.
inline constexpr std::size_t kShownEchoes = 3;

/// How many other lines a finding merged from findings on several lines names as related
/// (Related::same); the others are counted in the last of them.
inline constexpr std::size_t kMaxSameLines = 16;

/// Findings that say the same about different lines (the same rule, severity, message, help
/// and Slurm line, but for the nodes each line is about) become one: the first line's, the
/// others its related notes, its nodes all of theirs. Findings with a fix stay apart.
void merge_same_lines(std::vector<Diagnostic>& diagnostics);

/// "; 4 more lines say the same": the count of places past kShownEchoes.
std::string more_lines(std::size_t n, std::string_view verb);

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
    ClassScope(Findings& f, const std::vector<std::uint32_t>& nodes) : f_(f) {
      f_.current_nodes_ = &nodes;
      f_.calls_.clear();
    }
    ~ClassScope() { f_.current_nodes_ = nullptr; }
    ClassScope(const ClassScope&) = delete;
    ClassScope& operator=(const ClassScope&) = delete;

   private:
    Findings& f_;
  };

  /// Whether the current class reported anything.
  bool reported() const { return !calls_.empty(); }
  /// How many findings the current class reported so far.
  std::size_t reported_count() const { return calls_.size(); }
  /// Whether a finding the current class reported since `since` (a reported_count()) quotes
  /// a Slurm line that names no node (no node placeholder in it).
  bool quotes_line_without_node(std::size_t since) const;
  /// Other nodes of the current class read other lines that say the same: `where` maps each
  /// place a finding of the class is about (its span, then the related notes the class added)
  /// to theirs. A new place becomes a related note (`message` for the finding's own span),
  /// the first kShownEchoes of a finding; the others are counted.
  void echo(const std::function<Span(Span)>& where, const std::function<std::string()>& message);

  /// Hands the merged findings to the reporter, their nodes folded, placeholders expanded,
  /// and, for findings whose nodes drain, the reason the model gave those nodes.
  void flush(const Cluster& cluster);

  Reporter& reporter() { return out_; }

 private:
  struct Pending {
    Diagnostic d;
    std::vector<std::uint32_t> nodes;
    /// The places named so far (span, related notes, echoes), and the echoes (see echo()).
    std::set<std::tuple<std::uint16_t, std::uint32_t, std::uint32_t>> places;
    std::size_t echoes = 0, hidden_echoes = 0;
    std::size_t last_echo = 0;  ///< index in d.related of the last echo note
  };
  /// One report() call of the current class, and the related notes it added.
  struct Call {
    Pending* p;
    Span span;
    std::size_t related_begin, related_end;
  };
  Reporter& out_;
  // Keyed by what makes two classes' findings the same one; std::map so the merged findings
  // come out in a stable order.
  std::map<std::tuple<std::string_view, std::uint16_t, std::uint32_t, std::string>, Pending> pending_;
  const std::vector<std::uint32_t>* current_nodes_ = nullptr;
  std::vector<Call> calls_;  ///< of the current class
};

}  // namespace greslint::model
