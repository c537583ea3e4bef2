// SPDX-License-Identifier: Apache-2.0
// GRS113 grestypes-hash-collision: two GresTypes names hash to the same plugin id: every daemon exits.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS113.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS113{"GRS113", "grestypes-hash-collision", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "two GresTypes names hash to the same plugin id: every daemon exits"};
}  // namespace greslint::rules
