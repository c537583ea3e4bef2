// SPDX-License-Identifier: Apache-2.0
// GRS311 cores-split-socket: Cores= does not follow socket boundaries: the node is drained (Slurm 24.11+).
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS311.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS311{"GRS311", "cores-split-socket", Severity::error, Effect::drain, Daemon::slurmctld,
                      "Cores= does not follow socket boundaries: the node is drained (Slurm 24.11+)"};
}  // namespace greslint::rules
