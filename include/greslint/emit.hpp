// SPDX-License-Identifier: Apache-2.0
// Emitters: one report, many formats (text, json, sarif, github, junit, gitlab).
#pragma once

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

enum class Format { text, json, sarif, github, junit, gitlab };
std::optional<Format> parse_format(std::string_view name);

/// Everything an emitter needs; diagnostics are already filtered and sorted.
struct LintReport {
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> inputs;  ///< files read, as displayed (relative to base_dir)
  SlurmVersion slurm_version;
  std::string version_source;       ///< "--slurm-version", ".greslint.conf", "scontrol --version", "default"
  /// One per diagnostic (greslint/fingerprint.hpp). When left empty, the emitters compute
  /// them with file names relative to the first input's directory.
  std::vector<std::string> fingerprints;
};

struct EmitOptions {
  bool color = false;        ///< ANSI colours (text only)
  std::string base_dir;      ///< paths are shown relative to this directory
};

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

/// Writes a nodes report as text (a table, identical rows folded) or JSON; other formats
/// have no per-node form (the caller refuses them).
void emit_nodes(Format format, const NodesReport& report, const EmitOptions& options, std::ostream& out);

/// Removes terminal escapes and other C0 controls from text copied out of a linted file.
std::string sanitize_for_output(std::string_view text);

}  // namespace greslint
