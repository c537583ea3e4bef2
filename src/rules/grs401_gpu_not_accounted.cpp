// SPDX-License-Identifier: Apache-2.0
// GRS401 gpu-not-accounted: GPUs configured but gres/gpu is not in AccountingStorageTRES: usage and gres/gpu limits are not tracked.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS401.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS401{"GRS401", "gpu-not-accounted", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPUs configured but gres/gpu is not in AccountingStorageTRES: usage and gres/gpu limits are not tracked"};
}  // namespace greslint::rules
