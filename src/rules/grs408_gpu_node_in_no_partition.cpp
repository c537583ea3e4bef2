// SPDX-License-Identifier: Apache-2.0
// GRS408 gpu-node-in-no-partition: GPU nodes that no partition offers.
// Reported by the GPU-pool policy checks (src/model_policy.inc); docs/rules/GRS408.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS408{"GRS408", "gpu-node-in-no-partition", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPU nodes that no partition offers"};
}  // namespace greslint::rules
