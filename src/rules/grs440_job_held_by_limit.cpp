// SPDX-License-Identifier: Apache-2.0
// GRS440 job-held-by-limit: the job is accepted but a QOS or association limit keeps it
// pending for ever (QOSMaxGRESPerJob, AssocGrpGRES, ...). docs/rules/GRS440.md.
#include "limits/predict.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS440{"GRS440", "job-held-by-limit", Severity::error, Effect::pends, Daemon::slurmctld,
                      "a QOS or association GPU limit keeps the job pending for ever"};

JobOutcome check_grs440(const JobLimitsView& v, Reporter& out) {
    const limits::Prediction p = limits::predict(v);
  if (p.kind != limits::Prediction::Kind::pends) return JobOutcome::accepted();
  const job::JobOption* at = v.job.job.gpus_option ? v.job.job.gpus_option : v.job.job.gres_option;
  if (!at) at = v.job.script.last("qos");
  out.report(GRS440, job_span(v.job, at), p.message + (p.until_jobs_end ? ": it pends until they end" : ": it pends for ever"))
      .slurm(p.reason)
      .related(p.limit, p.limit_note)
      .help(p.help);
  return JobOutcome::pends(p.reason);
}

}  // namespace greslint::rules
