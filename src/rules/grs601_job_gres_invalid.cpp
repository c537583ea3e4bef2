// SPDX-License-Identifier: Apache-2.0
// GRS601 job-gres-invalid: --gres (or a --gpus option) names a GRES that is not in
// GresTypes, or cannot be read; docs/rules/GRS601.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS601{"GRS601", "job-gres-invalid", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "the job's --gres names no GRES of GresTypes, or cannot be read: sbatch fails"};

JobOutcome check_grs601(const JobView& v, Reporter& out) {
  if (!v.job.bad_gres) return JobOutcome::accepted();
  const job::JobOption* o = v.job.gres_option && v.job.gres_option->value.find(*v.job.bad_gres) != std::string::npos
                                ? v.job.gres_option
                                : v.job.gpus_option;
  std::string names;
  for (const std::string& g : v.cluster.grestypes) names += (names.empty() ? "" : ",") + g;
  out.report(GRS601, job_span(v, o), "\"" + *v.job.bad_gres + "\" is no GRES request slurmctld can read")
      .slurm(std::string(kInvalidGres))
      .help(names.empty() ? "this cluster has no GresTypes: it has no GRES to request"
                          : "GresTypes=" + names + "; write NAME[:TYPE][:COUNT], e.g. gpu:2");
  return JobOutcome::rejected(std::string(kInvalidGres));
}

}  // namespace greslint::rules
