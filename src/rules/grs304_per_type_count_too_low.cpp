// SPDX-License-Identifier: Apache-2.0
// GRS304 per-type-count-too-low: fewer GPUs of a type than slurm.conf configures: the node is drained.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS304.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS304{"GRS304", "per-type-count-too-low", Severity::error, Effect::drain, Daemon::slurmctld,
                      "fewer GPUs of a type than slurm.conf configures: the node is drained"};
}  // namespace greslint::rules
