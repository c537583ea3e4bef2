// SPDX-License-Identifier: Apache-2.0
// What one configuration change does: per-node verdicts, usable GPUs, findings.
// `greslint diff` compares two trees under one release; `greslint upgrade` compares one
// tree under two releases. Both reduce to comparing two Snapshots.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "greslint/lint.hpp"

namespace greslint::diff {

/// One side of a comparison: a configuration analysed as lint sees it.
struct Snapshot {
  std::string label;                   ///< how the report names this side ("HEAD~1", "new/")
  std::unique_ptr<Analysis> analysis;  ///< null: no configuration there (a revision before it existed)
  /// Prefix that turns a file name relative to slurm.conf's directory into the one the
  /// reader knows (the directory as given on the command line, or its path in the repository).
  std::string display_dir;
};

/// A node's verdict as one side sees it; `present` is false for a node only the other
/// side defines.
struct NodeVerdict {
  bool present = false;
  Verdict verdict = Verdict::ok;
  std::string reason;                   ///< with the model's node placeholders
  const NodeClass* node_class = nullptr;  ///< expands them (node_reason)
};

/// Nodes that share the same before and after.
struct VerdictChange {
  std::string nodes;  ///< folded hostlist
  std::size_t count = 0;
  NodeVerdict before, after;
  /// The node stops serving: ok, degraded or new before, drain or fatal after.
  bool regression() const noexcept {
    return after.present && after.verdict >= Verdict::drain && (!before.present || before.verdict < Verdict::drain);
  }
};

/// Nodes whose verdict stays while the GRES they register changes ("gpu:a100:4").
struct GresChange {
  std::string nodes;
  std::size_t count = 0;
  std::string before, after;
};

/// GPUs that nodes able to register (ok or degraded) bring to a partition, by type.
struct GpuRow {
  std::string partition;  ///< empty: every node of the cluster
  std::string type;       ///< empty: GPUs without a type
  std::uint64_t before = 0, after = 0;
};

/// A finding on one side only, or with the same fingerprint and other words on both.
struct FindingChange {
  std::string fingerprint;
  const Diagnostic* finding = nullptr;  ///< the side it belongs to (new side for reworded)
  const Snapshot* side = nullptr;
  std::string previous_message;         ///< reworded findings only
};

struct SideSummary {
  std::string label;
  bool exists = false;
  std::string slurm_version;
  std::size_t nodes = 0;
  std::array<std::size_t, 5> by_verdict{};  ///< indexed by Verdict
};

struct ChangeReport {
  SideSummary before, after;
  std::vector<VerdictChange> verdicts;
  std::vector<GresChange> gres;
  std::vector<GpuRow> gpus;
  std::vector<FindingChange> introduced, fixed, reworded;
  std::size_t regressed_nodes() const;
};

ChangeReport compare(const Snapshot& before, const Snapshot& after);

/// 1 when the change introduces a finding at or above `level` or stops a node (regression),
/// else 0; always 0 for FailLevel::never.
int exit_code(const ChangeReport& report, FailLevel level);

/// How a finding is named in a report: "gres.conf:3:1" under the side's display_dir.
std::string finding_location(const FindingChange& f);
/// A node verdict as printed: `drain "reason"`, `ok`, `absent`.
std::string verdict_text(const NodeVerdict& v, const std::string& nodes);

enum class OutputFormat { text, json, markdown };
std::optional<OutputFormat> parse_output_format(std::string_view name);

/// `changed_gpus_only`: leave out GPU rows that stay the same (upgrade steps).
void render_text(const ChangeReport& r, std::ostream& out, bool changed_gpus_only = false);
/// GitHub refuses a pull-request comment over 65,536 characters (a job summary takes 1 MiB):
/// a report's Markdown stays under this many, cutting long tables and cells.
constexpr std::size_t kMarkdownBudget = 60000;
void render_markdown(const ChangeReport& r, std::ostream& out, int heading_level = 3, bool changed_gpus_only = false,
                     std::size_t budget = kMarkdownBudget);

/// The whole report of one command ("diff") in `format`; JSON adds schema, tool, command
/// and whether the change fails at `level`.
void write_report(const ChangeReport& r, OutputFormat format, std::string_view command, FailLevel level,
                  std::ostream& out);

}  // namespace greslint::diff

namespace greslint::emit_detail {
class JsonWriter;
}
namespace greslint::diff {
/// The members of a report object ("before", "after", "verdict_changes", ...), for the
/// caller's enclosing object (docs/greslint-diff.schema.json).
void render_json_members(const ChangeReport& r, emit_detail::JsonWriter& w);
}  // namespace greslint::diff
