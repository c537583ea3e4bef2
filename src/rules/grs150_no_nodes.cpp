// SPDX-License-Identifier: Apache-2.0
// GRS150 no-nodes: slurm.conf defines no node: slurmctld 22.05 exits (docs/rules/GRS150.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS150{"GRS150",      "no-nodes",        Severity::error,
                      Effect::fatal, Daemon::slurmctld, "slurm.conf defines no node: slurmctld 22.05 exits"};

// 22.05's read_slurm_conf returns EINVAL on an empty node table, and main exits with it. A
// MaxNodeCount above 0 reserves records for dynamic nodes, which count. From 23.02 the table
// always holds at least one record, so the test never fires.
Outcome check_grs150(const NodeTableView& v, Findings& out) {
  // After a parse error (a missing Include of the node lines) or a NodeName line Slurm cannot
  // expand, slurmctld never gets here.
  if (v.node_count > 0 || v.slurmctld_failed || v.profile.version() >= kSlurm2302) return Outcome::proceed();
  const KeyValue* max = v.settings.find("MaxNodeCount");
  if (const auto n = max ? slurm_number(max->value) : std::nullopt; n && *n > 0) return Outcome::proceed();
  std::string line = fmt::format("read_slurm_conf reading {}: Invalid argument", v.slurm_conf_path);
  out.report(GRS150, v.top, "slurm.conf defines no node; slurmctld 22.05 refuses to start")
      .slurm("read_slurm_conf: no nodes configured.")
      .help("add a NodeName=... line for the compute nodes");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
