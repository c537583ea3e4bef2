// SPDX-License-Identifier: Apache-2.0
// GRS407 gpu-partition-without-gpus: a partition meant for GPU jobs contains no GPU node.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS407.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS407{"GRS407", "gpu-partition-without-gpus", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a partition meant for GPU jobs contains no GPU node"};
}  // namespace greslint::rules
