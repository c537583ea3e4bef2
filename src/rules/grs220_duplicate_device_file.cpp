// SPDX-License-Identifier: Apache-2.0
// GRS220 duplicate-device-file: a device file listed twice for a GRES: slurmd exits.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS220.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS220{"GRS220", "duplicate-device-file", Severity::error, Effect::fatal, Daemon::slurmd,
                      "a device file listed twice for a GRES: slurmd exits"};
}  // namespace greslint::rules
