// SPDX-License-Identifier: Apache-2.0
// GRS306 name-case-mismatch: gres.conf Name= spelled differently from GresTypes: slurmctld drops the GPUs.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS306.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS306{"GRS306", "name-case-mismatch", Severity::error, Effect::drain, Daemon::slurmctld,
                      "gres.conf Name= spelled differently from GresTypes: slurmctld drops the GPUs"};
}  // namespace greslint::rules
