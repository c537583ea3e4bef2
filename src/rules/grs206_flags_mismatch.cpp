// SPDX-License-Identifier: Apache-2.0
// GRS206 flags-mismatch: gres.conf lines of one GRES carry different env Flags: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS206.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS206{"GRS206", "flags-mismatch", Severity::error, Effect::fatal, Daemon::slurmd,
                      "gres.conf lines of one GRES carry different env Flags: slurmd exits"};
}  // namespace greslint::rules
