// SPDX-License-Identifier: Apache-2.0
// GRS305 type-not-configured: gres.conf Type= that slurm.conf does not configure (exact spelling): drained from 23.11.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS305.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS305{"GRS305", "type-not-configured", Severity::error, Effect::drain, Daemon::slurmctld,
                      "gres.conf Type= that slurm.conf does not configure (exact spelling): drained from 23.11"};
}  // namespace greslint::rules
