// SPDX-License-Identifier: Apache-2.0
// GRS211 invalid-count: gres.conf Count= Slurm cannot read: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS211.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS211{"GRS211", "invalid-count", Severity::error, Effect::fatal, Daemon::slurmd,
                      "gres.conf Count= Slurm cannot read: slurmd exits"};
}  // namespace greslint::rules
