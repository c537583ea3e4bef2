// SPDX-License-Identifier: Apache-2.0
// GRS401 gpu-not-accounted: GPUs configured but gres/gpu is not in AccountingStorageTRES: usage and gres/gpu limits are not tracked.
// Reported by the GPU-pool policy checks (src/model_policy.inc); docs/rules/GRS401.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS401{"GRS401", "gpu-not-accounted", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPUs configured but gres/gpu is not in AccountingStorageTRES: usage and gres/gpu limits are not tracked"};
}  // namespace greslint::rules
