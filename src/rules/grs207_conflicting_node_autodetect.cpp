// SPDX-License-Identifier: Apache-2.0
// GRS207 conflicting-node-autodetect: two different node-local AutoDetect values for one node: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS207.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS207{"GRS207", "conflicting-node-autodetect", Severity::error, Effect::fatal, Daemon::slurmd,
                      "two different node-local AutoDetect values for one node: slurmd exits"};
}  // namespace greslint::rules
