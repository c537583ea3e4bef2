// SPDX-License-Identifier: Apache-2.0
// The lint and nodes commands: locate the files, pick the version profile, run, report.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "greslint/diagnostic.hpp"
#include "greslint/emit.hpp"
#include "greslint/environment.hpp"
#include "greslint/model.hpp"

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
  std::string baseline;        ///< --baseline FILE: findings recorded there are not reported
  std::string write_baseline;  ///< --write-baseline FILE: record every finding there
  bool statistics = false;     ///< --statistics: counts per rule instead of the findings
  /// --min-severity (MinSeverity= in .greslint.conf): findings below it are not shown and do
  /// not count for the exit code, as ShellCheck's -S. Nullopt: show every finding.
  std::optional<Severity> min_severity;
  bool min_severity_given = false;  ///< --min-severity was on the command line
  /// --prefix-map OLD=NEW (PrefixMap= in .greslint.conf): Includes under OLD are read from
  /// NEW, an absolute directory by now.
  std::vector<std::pair<std::string, std::string>> prefix_map;
  /// --limits FILE (lint): QOS and association limits to check with the configuration
  /// (sacctmgr dump, sacctmgr show qos|assoc -P; docs/limits.md).
  std::vector<std::string> limits;
};

/// "OLD=NEW" as --prefix-map and PrefixMap= take it, NEW made absolute against `base`;
/// nullopt when there is no '=' or either side is empty.
std::optional<std::pair<std::string, std::string>> parse_prefix_map(std::string_view item, const std::string& base);

/// One configuration analysed the way `lint` sees it: findings after suppressions,
/// severity overrides and --select/--ignore/--nodes, in report order, with their
/// fingerprints; the model of every node; the files read.
struct Analysis {
  SourceManager sources;
  Cluster cluster;
  std::vector<Diagnostic> findings;
  std::vector<std::string> fingerprints;  ///< one per finding (greslint/fingerprint.hpp)
  ResolvedVersion version;
  std::string slurm_conf;
  std::vector<std::string> inputs;
  std::map<std::string_view, std::size_t> dropped;  ///< findings past the per-rule limit
  /// An input file could not be read (GRS008): commands exit 2 whatever the filters.
  bool input_unreadable = false;
  /// What the findings mean for the nodes in scope (all, or those of --nodes).
  ClusterHeadline headline;
};

/// Applies the .greslint.conf that governs options.paths (or --config) under the command
/// line's options: what the command line gives wins. False, with a message on `err`, when
/// the file is invalid. The one loader of .greslint.conf (src/commands/lint_session.cpp).
bool load_config_file(LintOptions& options, std::ostream& err);

/// Analyses options.paths.front() (a directory or slurm.conf) under options, which already
/// carry the config file. Nullptr, with a message on `err`, on a usage or input error.
std::unique_ptr<Analysis> analyze_configuration(const LintOptions& options, std::ostream& err);

/// `greslint lint`; returns the exit code (0, 1 or 2).
int run_lint(const LintOptions& options, std::ostream& out, std::ostream& err);
/// `greslint nodes`; returns the exit code.
int run_nodes(const LintOptions& options, std::ostream& out, std::ostream& err);

}  // namespace greslint
