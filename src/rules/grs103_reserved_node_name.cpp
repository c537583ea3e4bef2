// SPDX-License-Identifier: Apache-2.0
// GRS103 reserved-node-name: NodeName=ALL is reserved: the daemons refuse the configuration.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS103.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS103{"GRS103", "reserved-node-name", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeName=ALL is reserved: the daemons refuse the configuration"};
}  // namespace greslint::rules
