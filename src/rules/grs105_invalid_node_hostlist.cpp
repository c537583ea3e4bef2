// SPDX-License-Identifier: Apache-2.0
// GRS105 invalid-node-hostlist: NodeName/NodeAddr/NodeHostname is not a valid hostlist: the daemons refuse the configuration.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS105.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS105{"GRS105", "invalid-node-hostlist", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeName/NodeAddr/NodeHostname is not a valid hostlist: the daemons refuse the configuration"};
}  // namespace greslint::rules
