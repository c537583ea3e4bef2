// SPDX-License-Identifier: Apache-2.0
// GRS107 invalid-node-state: State= is not a node state Slurm knows: the daemons refuse the configuration.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS107.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS107{"GRS107", "invalid-node-state", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "State= is not a node state Slurm knows: the daemons refuse the configuration"};
}  // namespace greslint::rules
