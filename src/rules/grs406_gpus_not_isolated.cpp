// SPDX-License-Identifier: Apache-2.0
// GRS406 gpus-not-isolated: GPU nodes without cgroup device confinement: jobs can use GPUs they were not given.
// Reported by the GPU-pool policy checks (src/model_policy.inc); docs/rules/GRS406.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS406{"GRS406", "gpus-not-isolated", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "GPU nodes without cgroup device confinement: jobs can use GPUs they were not given"};
}  // namespace greslint::rules
