// SPDX-License-Identifier: Apache-2.0
// GRS610 job-invalid-gres-flags: --gres-flags takes a word sbatch does not know; sbatch
// refuses the job before it submits; docs/rules/GRS610.md.
#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS610{"GRS610", "job-invalid-gres-flags", Severity::error, Effect::rejected, Daemon::none,
                      "--gres-flags takes a word sbatch does not know: sbatch refuses the job"};

namespace {

/// slurm_opt.c:arg_set_gres_flags. Up to 23.11 one word; from 24.05 a comma list with the
/// sharing flags (allow-task-sharing is srun's only).
bool known_flag(std::string_view word, SlurmVersion v) {
  if (iequals(word, "disable-binding") || iequals(word, "enforce-binding")) return true;
  return v >= SlurmVersion{24, 5} &&
         (iequals(word, "multiple-tasks-per-sharing") || iequals(word, "one-task-per-sharing"));
}

}  // namespace

JobOutcome check_grs610(const JobView& v, Reporter& out) {
  const job::JobOption* o = v.job.gres_flags;
  if (!o) return JobOutcome::accepted();
  const bool list = v.version >= SlurmVersion{24, 5};
  const auto words = list ? split_commas_view(o->value) : std::vector<std::string_view>{o->value};
  for (std::string_view word : words) {
    if (known_flag(word, v.version)) continue;
    const std::string message = list ? "Invalid --gres-flags specification: " + std::string(word)
                                     : std::string("Invalid --gres-flags specification");
    out.report(GRS610, job_span(v, o), "--gres-flags does not take \"" + std::string(word) + "\"")
        .slurm(message)
        .help(list ? "flags: disable-binding, enforce-binding, multiple-tasks-per-sharing, one-task-per-sharing"
                   : "flags: disable-binding or enforce-binding");
    return JobOutcome::rejected(message);
  }
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
