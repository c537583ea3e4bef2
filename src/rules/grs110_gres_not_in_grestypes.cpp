// SPDX-License-Identifier: Apache-2.0
// GRS110 gres-not-in-grestypes: a Gres= token whose name is not spelled as in GresTypes is silently dropped.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS110.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS110{"GRS110", "gres-not-in-grestypes", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a Gres= token whose name is not spelled as in GresTypes is silently dropped"};
}  // namespace greslint::rules
