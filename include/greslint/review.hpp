// SPDX-License-Identifier: Apache-2.0
// Reviewing a change: `greslint diff` (two configurations, one release) and
// `greslint upgrade` (one configuration, two releases).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "greslint/lint.hpp"

namespace greslint {

struct DiffOptions {
  /// OLD and NEW (directories or slurm.conf files); with git_rev, at most one PATH in the
  /// work tree (default: the current directory, then $SLURM_CONF, /etc/slurm/slurm.conf).
  std::vector<std::string> paths;
  std::string git_rev;  ///< --git REV: OLD is PATH as it is at REV
  /// Release, rule selection, severities and fail level, as for lint (.greslint.conf of
  /// the new side applies to both sides). lint.format and lint.paths are not used.
  LintOptions lint;
  std::string format = "text";  ///< text, json or markdown
};

/// `greslint diff`: 1 when the change introduces a finding at or above the fail level or
/// stops a node that served (ok/degraded/new -> drain/fatal); 0 otherwise; 2 on a usage
/// error or unreadable input.
int run_diff(const DiffOptions& options, std::ostream& out, std::ostream& err);

struct UpgradeOptions {
  std::string path;   ///< directory or slurm.conf
  std::string to;     ///< target release, X.Y
  LintOptions lint;   ///< lint.slurm_version is the release upgraded from (else pinned/detected)
  std::string format = "text";
};

/// `greslint upgrade`: the same files under every release profile from the current one to
/// `to`, as differences per step and in total. Exit codes as for diff.
int run_upgrade(const UpgradeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace greslint
