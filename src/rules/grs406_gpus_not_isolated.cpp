// SPDX-License-Identifier: Apache-2.0
// GRS406 gpus-not-isolated: GPU nodes without cgroup device confinement: jobs can use GPUs they were not given.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS406.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS406{"GRS406", "gpus-not-isolated", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "GPU nodes without cgroup device confinement: jobs can use GPUs they were not given"};
}  // namespace greslint::rules
