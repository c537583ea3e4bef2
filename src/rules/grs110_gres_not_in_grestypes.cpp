// SPDX-License-Identifier: Apache-2.0
// GRS110 gres-not-in-grestypes: a Gres= token whose name is not spelled as in GresTypes is silently dropped.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS110.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS110{"GRS110", "gres-not-in-grestypes", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a Gres= token whose name is not spelled as in GresTypes is silently dropped"};
}  // namespace greslint::rules
