// SPDX-License-Identifier: Apache-2.0
// GRS408 gpu-node-in-no-partition: GPU nodes that no partition offers.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS408.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS408{"GRS408", "gpu-node-in-no-partition", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPU nodes that no partition offers"};
}  // namespace greslint::rules
