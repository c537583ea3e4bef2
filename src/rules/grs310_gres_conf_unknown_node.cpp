// SPDX-License-Identifier: Apache-2.0
// GRS310 gres-conf-unknown-node: gres.conf names nodes that slurm.conf does not define.
// Checked in src/model/classes.cpp until it moves to a stage list; docs/rules/GRS310.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS310{"GRS310", "gres-conf-unknown-node", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf names nodes that slurm.conf does not define"};
}  // namespace greslint::rules
