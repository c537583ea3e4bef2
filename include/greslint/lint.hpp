// SPDX-License-Identifier: Apache-2.0
// The lint and nodes commands: locate the files, pick the version profile, run, report.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/diagnostic.hpp"
#include "greslint/emit.hpp"
#include "greslint/environment.hpp"

namespace greslint {

enum class FailLevel { error, warning, note, never };

/// "error", "warning", "note" or "never" (--fail-level, FailLevel= in .greslint.conf).
std::optional<FailLevel> parse_fail_level(std::string_view text);
/// 1 when a finding is at or above `level`, else 0 (always 0 for never).
int exit_code_for(const std::vector<Diagnostic>& diagnostics, FailLevel level);

struct LintOptions {
  std::vector<std::string> paths;       ///< directories holding slurm.conf, or slurm.conf files
  std::string slurm_version;            ///< empty: scontrol --version, else the newest release
  std::string slurm_version_source;     ///< who set slurm_version: empty (--slurm-version) or ".greslint.conf"
  Format format = Format::text;
  std::string output;                   ///< write the report here instead of stdout
  FailLevel fail_level = FailLevel::warning;
  std::vector<std::string> select;      ///< rule ids or names; empty = all
  std::vector<std::string> ignore;
  std::string nodes;                    ///< restrict findings to these nodes (hostlist)
  std::vector<std::string> verdicts;    ///< nodes: list only nodes with these verdicts
  bool color = false;
  bool quiet = false;
  bool format_given = false;      ///< --format was on the command line (beats the config file)
  bool fail_level_given = false;  ///< --fail-level was on the command line
  std::vector<std::string> severity;  ///< overrides "ID=error|warning|note"
  std::string config;             ///< --config FILE; empty: look for .greslint.conf upward
  bool no_config = false;
};

/// The release a run on `path` (as lint takes it) models: `slurm_version` (--slurm-version),
/// else SlurmVersion= of the .greslint.conf found upward from `path`, else the installed
/// scontrol's, else the newest. The one resolution lint, nodes and node-check share, so that
/// they never model different releases of one directory. Nullopt (message on `err`) when
/// .greslint.conf is broken or names a release greslint does not model.
std::optional<ResolvedVersion> resolve_run_version(const std::string& path, const std::string& slurm_version,
                                                   std::ostream& err);

/// `greslint lint`; returns the exit code (0, 1 or 2).
int run_lint(const LintOptions& options, std::ostream& out, std::ostream& err);
/// `greslint nodes`; returns the exit code.
int run_nodes(const LintOptions& options, std::ostream& out, std::ostream& err);

}  // namespace greslint
