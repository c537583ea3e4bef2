// SPDX-License-Identifier: Apache-2.0
// GRS104 address-on-default-node: NodeAddr/NodeHostname/BcastAddr on NodeName=DEFAULT: the daemons refuse the configuration.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS104.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS104{"GRS104", "address-on-default-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeAddr/NodeHostname/BcastAddr on NodeName=DEFAULT: the daemons refuse the configuration"};
}  // namespace greslint::rules
