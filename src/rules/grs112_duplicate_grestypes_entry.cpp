// SPDX-License-Identifier: Apache-2.0
// GRS112 duplicate-grestypes-entry: a GresTypes name is listed twice.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS112.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS112{"GRS112", "duplicate-grestypes-entry", Severity::note, Effect::advice, Daemon::slurmctld,
                      "a GresTypes name is listed twice"};
}  // namespace greslint::rules
