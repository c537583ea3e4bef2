// SPDX-License-Identifier: Apache-2.0
// GRS441 job-invalid-account: associations are enforced and the user has no association
// with the job's account (and partition): sbatch fails. docs/rules/GRS441.md.
#include "limits/predict.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS441{"GRS441", "job-invalid-account", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "the user has no association with the job's account: sbatch fails"};

JobOutcome check_grs441(const JobLimitsView& v, Reporter& out) {
    const limits::Prediction p = limits::predict(v);
  if (p.kind != limits::Prediction::Kind::invalid_account) return JobOutcome::accepted();
  const std::string message(kInvalidAccount);
  out.report(GRS441, job_span(v.job, v.job.script.last("account")), p.message)
      .slurm(message)
      .related(p.limit, "the account")
      .help(p.help);
  return JobOutcome::rejected(message);
}

}  // namespace greslint::rules
