// SPDX-License-Identifier: Apache-2.0
// GRS608 job-invalid-feature: --constraint names a feature no node has;
// docs/rules/GRS608.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS608{"GRS608", "job-invalid-feature", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "--constraint names a feature no node of the cluster has: sbatch fails"};

JobOutcome check_grs608(const JobView& v, Reporter& out) {
  if (!v.job.bad_feature) return JobOutcome::accepted();
  const std::string message = "Invalid feature specification";
  out.report(GRS608, job_span(v, v.job.constraint), "no node has the feature \"" + *v.job.bad_feature + "\"")
      .slurm(message)
      .help("features are case-sensitive; the nodes' features are their slurm.conf Features=");
  return JobOutcome::rejected(message);
}

}  // namespace greslint::rules
