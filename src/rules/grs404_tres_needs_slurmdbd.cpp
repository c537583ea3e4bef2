// SPDX-License-Identifier: Apache-2.0
// GRS404 tres-needs-slurmdbd: AccountingStorageTRES names a GRES without slurmdbd: slurmctld exits.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS404.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS404{"GRS404", "tres-needs-slurmdbd", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AccountingStorageTRES names a GRES without slurmdbd: slurmctld exits"};
}  // namespace greslint::rules
