// SPDX-License-Identifier: Apache-2.0
// GRS443 job-denied-by-limit: the job is beyond a limit of a QOS with Flags=DenyOnLimit (or
// has no QOS): slurmctld refuses it at submission. docs/rules/GRS443.md.
#include "limits/predict.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS443{"GRS443", "job-denied-by-limit", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "the job is beyond a limit of a DenyOnLimit QOS: sbatch fails"};

JobOutcome check_grs443(const JobLimitsView& v, Reporter& out) {
    const limits::Prediction p = limits::predict(v);
  if (p.kind != limits::Prediction::Kind::denied) return JobOutcome::accepted();
  const std::string message(kAccountingPolicy);
  const job::JobOption* at = v.job.job.gpus_option ? v.job.job.gpus_option : v.job.job.gres_option;
  out.report(GRS443, job_span(v.job, at), p.message)
      .slurm(message)
      .related(p.limit, p.limit_note)
      .help(p.help);
  return JobOutcome::rejected(message);
}

}  // namespace greslint::rules
