// SPDX-License-Identifier: Apache-2.0
// GRS108 partition-unknown-node: a partition names a node no NodeName line defines: slurmctld exits.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS108.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS108{"GRS108", "partition-unknown-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a partition names a node no NodeName line defines: slurmctld exits"};
}  // namespace greslint::rules
