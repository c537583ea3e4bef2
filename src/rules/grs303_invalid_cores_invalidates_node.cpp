// SPDX-License-Identifier: Apache-2.0
// GRS303 invalid-cores-invalidates-node: slurmctld cannot read a Cores= list and invalidates the node (Slurm 24.11+).
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS303.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS303{"GRS303", "invalid-cores-invalidates-node", Severity::error, Effect::drain, Daemon::slurmctld,
                      "slurmctld cannot read a Cores= list and invalidates the node (Slurm 24.11+)"};
}  // namespace greslint::rules
