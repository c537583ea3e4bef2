// SPDX-License-Identifier: Apache-2.0
// GRS216 invalid-gres-nodename: gres.conf NodeName= is not a valid hostlist: the line is silently skipped on every node.
// Checked in src/model/inputs.cpp until it moves to a stage list; docs/rules/GRS216.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS216{"GRS216", "invalid-gres-nodename", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf NodeName= is not a valid hostlist: the line is silently skipped on every node"};
}  // namespace greslint::rules
