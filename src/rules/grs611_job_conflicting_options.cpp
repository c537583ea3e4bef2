// SPDX-License-Identifier: Apache-2.0
// GRS611 job-conflicting-options: options sbatch refuses together (--mem with
// --mem-per-gpu, --cpus-per-gpu with --cpus-per-task); docs/rules/GRS611.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS611{"GRS611", "job-conflicting-options", Severity::error, Effect::rejected, Daemon::none,
                      "options sbatch refuses together (--mem and --mem-per-gpu, --cpus-per-gpu and "
                      "--cpus-per-task): sbatch exits"};

JobOutcome check_grs611(const JobView& v, Reporter& out) {
  // slurm_opt.c:validate_options (22.05: _validate_memory_options), in this order.
  const job::JobOption* mem = v.script.last("mem");
  if (!mem) mem = v.script.last("mem-per-cpu");
  if (const job::JobOption* per_gpu = v.script.last("mem-per-gpu"); per_gpu && mem) {
    const std::string message = "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.";
    out.report(GRS611, job_span(v, per_gpu), "--mem-per-gpu and --" + mem->name + " are both given")
        .related(mem->span, "--" + mem->name + " is given here")
        .slurm(message)
        .help("give memory one way: per GPU, per CPU or per node");
    return JobOutcome::rejected(message);
  }
  const job::JobOption* per_gpu = v.script.last("cpus-per-gpu");
  const job::JobOption* per_task = v.script.last("cpus-per-task");
  if (per_gpu && per_task) {
    // 23.11 names --tres-per-task=cpu too.
    const std::string message =
        v.version >= SlurmVersion{23, 11}
            ? "--cpus-per-task, --tres-per-task=cpu:#, and --cpus-per-gpu are mutually exclusive"
            : "--cpus-per-gpu is mutually exclusive with --cpus-per-task";
    out.report(GRS611, job_span(v, per_gpu), "--cpus-per-gpu and --cpus-per-task are both given")
        .related(per_task->span, "--cpus-per-task is given here")
        .slurm(message)
        .help("give CPUs one way: per GPU or per task");
    return JobOutcome::rejected(message);
  }
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
