// SPDX-License-Identifier: Apache-2.0
// GRS605 job-mixes-gres-and-gpus: the job asks for GPUs both with --gres=gpu and with a
// --gpus option; docs/rules/GRS605.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS605{"GRS605", "job-mixes-gres-and-gpus", Severity::warning, Effect::advice, Daemon::slurmctld,
                      "the job asks for GPUs with both --gres=gpu and --gpus*: the counts add up in ways few expect"};

JobOutcome check_grs605(const JobView& v, Reporter& out) {
  if (!v.job.gres_option || !v.job.gpus_option) return JobOutcome::accepted();
  const bool gres_gpu = std::any_of(v.job.asks.begin(), v.job.asks.end(), [&](const job::GresAsk& a) {
    return a.option == v.job.gres_option && a.name == "gpu";
  });
  if (!gres_gpu) return JobOutcome::accepted();
  out.report(GRS605, job_span(v, v.job.gpus_option),
             "--" + v.job.gpus_option->name + " and --gres=gpu both ask for GPUs")
      .related(v.job.gres_option->span, "--gres asks for GPUs here")
      .help("ask for GPUs one way: --gres=gpu:N (per node) or the --gpus options");
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
