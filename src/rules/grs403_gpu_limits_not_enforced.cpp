// SPDX-License-Identifier: Apache-2.0
// GRS403 gpu-limits-not-enforced: gres/gpu is accounted but AccountingStorageEnforce does not enforce limits.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS403.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS403{"GRS403", "gpu-limits-not-enforced", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "gres/gpu is accounted but AccountingStorageEnforce does not enforce limits"};
}  // namespace greslint::rules
