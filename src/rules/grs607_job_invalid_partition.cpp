// SPDX-License-Identifier: Apache-2.0
// GRS607 job-invalid-partition: the job names a partition the cluster does not have (or
// names none where there is no default partition); docs/rules/GRS607.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS607{"GRS607", "job-invalid-partition", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "the job names a partition that does not exist: sbatch fails"};

JobOutcome check_grs607(const JobView& v, Reporter& out) {
  if (v.job.partitions.empty()) {
    if (v.cluster.default_partition() || v.cluster.partitions.empty()) return JobOutcome::accepted();
    const std::string message = "No partition specified or system default partition";
    out.report(GRS607, job_span(v, nullptr), "the job names no partition and the cluster has no default one")
        .slurm(message)
        .help("add #SBATCH --partition=NAME");
    return JobOutcome::rejected(message);
  }
  for (const std::string& name : v.job.partitions) {
    if (v.cluster.partition(name)) continue;
    std::string names;
    for (const job::JobPartition& p : v.cluster.partitions) names += (names.empty() ? "" : ", ") + p.name;
    const std::string message = "Invalid partition name specified";
    out.report(GRS607, job_span(v, v.job.partition_option), "the cluster has no partition \"" + name + "\"")
        .slurm(message)
        .help("partitions: " + names);
    return JobOutcome::rejected(message);
  }
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
