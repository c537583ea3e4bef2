// SPDX-License-Identifier: Apache-2.0
// GRS106 node-address-count-mismatch: NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS106.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS106{"GRS106", "node-address-count-mismatch", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration"};
}  // namespace greslint::rules
