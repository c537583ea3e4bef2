// SPDX-License-Identifier: Apache-2.0
// GRS301 count-lower-than-configured: slurmd reports fewer GRES than slurm.conf configures: the node is drained.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS301.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS301{"GRS301", "count-lower-than-configured", Severity::error, Effect::drain, Daemon::slurmctld,
                      "slurmd reports fewer GRES than slurm.conf configures: the node is drained"};
}  // namespace greslint::rules
