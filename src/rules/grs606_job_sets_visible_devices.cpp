// SPDX-License-Identifier: Apache-2.0
// GRS606 job-sets-visible-devices: the script sets CUDA_VISIBLE_DEVICES (or its ROCm,
// NVIDIA container or oneAPI kin) itself; docs/rules/GRS606.md.
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS606{"GRS606", "job-sets-visible-devices", Severity::warning, Effect::advice, Daemon::slurmd,
                      "the script sets CUDA_VISIBLE_DEVICES (or ROCR_/NVIDIA_VISIBLE_DEVICES) that Slurm set "
                      "for the job's GPUs"};

JobOutcome check_grs606(const JobView& v, Reporter& out) {
  for (const job::VisibilityWrite& w : v.script.visibility_writes)
    out.report(GRS606, w.span, "the script sets " + w.variable + ", which Slurm set to the GPUs it gave the job")
        .help("use the GPUs Slurm gives the job; without device confinement (ConstrainDevices) the job may "
              "use another job's GPUs");
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
