// SPDX-License-Identifier: Apache-2.0
// GRS609 job-gpus-per-task-without-tasks: --gpus-per-task without --ntasks or --gpus;
// sbatch refuses it before it submits (its own gres_job_state_validate); docs/rules/GRS609.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS609{"GRS609", "job-gpus-per-task-without-tasks", Severity::error, Effect::rejected, Daemon::none,
                      "--gpus-per-task without --ntasks or --gpus: sbatch refuses the job"};

JobOutcome check_grs609(const JobView& v, Reporter& out) {
  const job::JobOption* per_task = v.script.last("gpus-per-task");
  if (!per_task || v.job.ntasks || v.script.last("gpus")) return JobOutcome::accepted();
  // 22.05's sbatch derives the task count from --ntasks-per-node; 24.11 and 26.05 do not
  // (live case typed/per_task_per_node). Releases between: assumed from 23.02, where the
  // message changed.
  if (v.job.ntasks_per_node && v.version < SlurmVersion{23, 2}) return JobOutcome::accepted();
  // gres.c:gres_job_state_validate, which sbatch runs itself; 23.02 names --tres-per-task too.
  const std::string message =
      v.version >= SlurmVersion{23, 2}
          ? "Failed to validate job spec. --gpus-per-task or --tres-per-task used without either --gpus or "
            "-n/--ntasks is not allowed."
          : "Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.";
  out.report(GRS609, job_span(v, per_task), "--gpus-per-task needs the number of tasks")
      .slurm(message)
      .help("add #SBATCH --ntasks=N");
  return JobOutcome::rejected(message);
}

}  // namespace greslint::rules
