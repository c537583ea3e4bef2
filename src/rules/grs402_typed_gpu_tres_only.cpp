// SPDX-License-Identifier: Apache-2.0
// GRS402 typed-gpu-tres-only: AccountingStorageTRES has only typed gres/gpu:TYPE: untyped --gpus requests escape the limits.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS402.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS402{"GRS402", "typed-gpu-tres-only", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "AccountingStorageTRES has only typed gres/gpu:TYPE: untyped --gpus requests escape the limits"};
}  // namespace greslint::rules
