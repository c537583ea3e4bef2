// SPDX-License-Identifier: Apache-2.0
// GRS129 no-default-partition: no partition has Default=YES: slurmctld runs, but a job
// that names no partition is rejected (docs/rules/GRS129.md).
#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS129{"GRS129", "no-default-partition", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "no partition has Default=YES: jobs that name no partition are rejected"};

Outcome check_grs129_no_default_partition(const NodeTableView& v, Findings& out) {
  if (v.partitions.empty()) return Outcome::proceed();  // GRS128
  for (const Directive* d : v.partitions)
    if (const KeyValue* def = d->find("Default"); def && (iequals(def->value, "yes") || iequals(def->value, "true") ||
                                                          iequals(def->value, "up") || def->value == "1"))
      return Outcome::proceed();
  out.report(GRS129, v.partitions.front()->head().value_span,
             "no partition has Default=YES: sbatch and srun without -p are rejected")
      .slurm("read_slurm_conf: default partition not set.")
      .help("add Default=YES to the partition jobs should use when they name none");
  return Outcome::proceed();
}

}  // namespace greslint::rules
