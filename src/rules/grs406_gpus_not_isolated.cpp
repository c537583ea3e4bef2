// SPDX-License-Identifier: Apache-2.0
// GRS406 gpus-not-isolated: GPU nodes without cgroup device confinement: jobs can use GPUs
// they were not given (docs/rules/GRS406.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS406{"GRS406", "gpus-not-isolated", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "GPU nodes without cgroup device confinement: jobs can use GPUs they were not given"};

// task_cgroup.c:init confines a job's devices only with ConstrainDevices=yes in cgroup.conf,
// and only when task/cgroup runs the job in a cgroup proctrack/cgroup made.
Outcome check_grs406(const PolicyView& v, Findings& out) {
  const GpuIsolation& iso = v.isolation;
  if (iso.isolated()) return Outcome::proceed();
  const Span gpu_span = v.gpus.first_gres;
  std::vector<std::string> gaps;
  Span gap_span = gpu_span;
  if (!iso.cgroup_conf) {
    gaps.push_back("there is no cgroup.conf beside slurm.conf");
  } else if (!iso.constrains_devices) {
    gaps.push_back("cgroup.conf does not set ConstrainDevices=yes");
    if (iso.constrain_devices) gap_span = iso.constrain_devices->value_span;
  }
  if (!iso.task_cgroup) {
    gaps.push_back("TaskPlugin does not include task/cgroup");
    if (iso.task_plugin && gap_span.begin == gpu_span.begin) gap_span = iso.task_plugin->value_span;
  }
  if (!iso.proctrack_cgroup) gaps.push_back("ProctrackType is not proctrack/cgroup");
  std::string why;
  for (std::size_t i = 0; i < gaps.size(); ++i) why += (i ? "; " : "") + gaps[i];
  out.report(GRS406, gap_span,
             fmt::format("jobs on {} can use every GPU of the node, not only the ones they were given: {}",
                         v.gpus.folded(), why))
      .help(
          "set TaskPlugin=task/affinity,task/cgroup and ProctrackType=proctrack/cgroup, and "
          "ConstrainDevices=yes in cgroup.conf");
  return Outcome::degraded();
}

}  // namespace greslint::rules
