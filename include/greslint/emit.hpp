// SPDX-License-Identifier: Apache-2.0
// Emitters: one report, many formats (text, json, sarif, github, junit, gitlab).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/diagnostic.hpp"
#include "greslint/model.hpp"
#include "greslint/source.hpp"
#include "greslint/version.hpp"

namespace greslint {

enum class Format { text, concise, json, sarif, github, junit, gitlab };
std::optional<Format> parse_format(std::string_view name);

/// What the findings mean for the cluster as a whole: the last lines of a text report
/// (how many nodes drain, whether a daemon refuses to start, how many GPUs are lost).
struct ClusterHeadline {
  std::size_t nodes = 0;                ///< nodes considered (all, or those of --nodes)
  std::vector<std::string> drained;     ///< node names, in definition order
  std::vector<std::string> slurmd_fatal;
  std::size_t degraded = 0;
  bool slurmctld_fatal = false;
  std::string slurmctld_line;           ///< what slurmctld logs before it exits
  std::uint64_t gpus_configured = 0;    ///< slurm.conf Gres= gpu counts of those nodes
  std::uint64_t gpus_lost = 0;          ///< configured GPUs no job can use
  bool all_ok() const { return !slurmctld_fatal && drained.empty() && slurmd_fatal.empty() && degraded == 0; }
};

/// Everything an emitter needs; diagnostics are already filtered and sorted.
struct LintReport {
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> inputs;  ///< files read, as displayed (relative to base_dir)
  SlurmVersion slurm_version;
  std::string version_source;       ///< "--slurm-version", ".greslint.conf", "scontrol --version", "default"
  /// One per diagnostic (greslint/fingerprint.hpp). When left empty, the emitters compute
  /// them with file names relative to the first input's directory.
  std::vector<std::string> fingerprints;
  /// Printed at the end of a text report when a node does not come up as configured.
  std::optional<ClusterHeadline> headline;
};

/// Where the rule pages are published, as a base the rule id and ".md" are appended to
/// (`cmake -DGRESLINT_DOCS_URL=https://example.org/greslint/rules/`); empty when the build
/// names none.
std::string_view configured_docs_url() noexcept;

struct EmitOptions {
  bool color = false;        ///< ANSI colours (text only)
  std::string base_dir;      ///< paths are shown relative to this directory
  /// SARIF helpUri base (see configured_docs_url()); empty: no helpUri.
  std::string docs_url = std::string(configured_docs_url());
};

/// `--statistics`: one line (text) or object (json) per rule with findings, most findings first.
void emit_statistics(Format format, const LintReport& report, std::ostream& out);

/// Writes `report` in `format`. Paths come from `sources` (made relative to base_dir).
void emit_report(Format format, const LintReport& report, const SourceManager& sources,
                 const EmitOptions& options, std::ostream& out);

/// What happens to the cluster as a whole: slurmctld_fatal when slurmctld itself will not
/// start (then no node comes up, whatever its own verdict), else ok.
struct ClusterVerdict {
  Verdict verdict = Verdict::ok;
  std::string reason;  ///< the line slurmctld logs before it exits; empty when ok
};

/// Everything `greslint nodes` prints: the model and the nodes selected (--nodes, --verdict).
struct NodesReport {
  const Cluster* cluster = nullptr;
  std::vector<std::uint32_t> nodes;  ///< indexes into cluster->node_names, in definition order
  ClusterVerdict verdict;
  SlurmVersion slurm_version;
  std::string version_source;
};

/// The headline of `nodes` (indexes into cluster.node_names) under `verdict`.
ClusterHeadline cluster_headline(const Cluster& cluster, const std::vector<std::uint32_t>& nodes,
                                 const ClusterVerdict& verdict);

/// Writes a nodes report as text (a table, identical rows folded) or JSON; other formats
/// have no per-node form (the caller refuses them).
void emit_nodes(Format format, const NodesReport& report, const EmitOptions& options, std::ostream& out);

/// Removes terminal escapes and other C0 controls from text copied out of a linted file.
std::string sanitize_for_output(std::string_view text);

}  // namespace greslint
