// SPDX-License-Identifier: Apache-2.0
// GRS442 job-invalid-qos: QOS are enforced and the job's QOS does not exist or is not in its
// association's QOS list: sbatch fails. docs/rules/GRS442.md.
#include "limits/predict.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS442{"GRS442", "job-invalid-qos", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "the job's QOS does not exist or its association may not use it: sbatch fails"};

JobOutcome check_grs442(const JobLimitsView& v, Reporter& out) {
    const limits::Prediction p = limits::predict(v);
  if (p.kind != limits::Prediction::Kind::invalid_qos) return JobOutcome::accepted();
  const std::string message(kInvalidQos);
  out.report(GRS442, job_span(v.job, v.job.script.last("qos")), p.message)
      .slurm(message)
      .related(p.limit, "the association's QOS list")
      .help(p.help);
  return JobOutcome::rejected(message);
}

}  // namespace greslint::rules
