// SPDX-License-Identifier: Apache-2.0
// GRS102 duplicate-node-name: a node is defined on more than one NodeName line: the daemons refuse the configuration.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS102.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS102{"GRS102", "duplicate-node-name", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a node is defined on more than one NodeName line: the daemons refuse the configuration"};
}  // namespace greslint::rules
