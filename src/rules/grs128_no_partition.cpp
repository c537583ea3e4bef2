// SPDX-License-Identifier: Apache-2.0
// GRS128 no-partition: slurm.conf has no PartitionName line: slurmctld 22.05 exits
// (docs/rules/GRS128.md).
#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS128{"GRS128", "no-partition", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "no PartitionName line: slurmctld 22.05 exits, later releases run with no partition"};

// Only 22.05 refuses it; from 23.02 slurmctld starts and every job without -p fails.
Outcome check_grs128_no_partition(const NodeTableView& v, Findings& out) {
  if (!v.partitions.empty()) return Outcome::proceed();
  if (v.profile.version() >= kSlurm2302) {
    out.report(GRS128, v.top, "slurm.conf defines no partition: jobs have nowhere to run")
        .effect(Effect::degraded, Daemon::slurmctld)
        .severity(Severity::warning)
        .help("add a PartitionName=... Nodes=... Default=YES line");
    return Outcome::proceed();
  }
  out.report(GRS128, v.top, "slurm.conf defines no partition; slurmctld 22.05 refuses to start")
      .slurm("No PartitionName information available!")
      .help("add a PartitionName=... Nodes=... Default=YES line");
  return Outcome::slurmctld_fatal("No PartitionName information available!");
}

}  // namespace greslint::rules
