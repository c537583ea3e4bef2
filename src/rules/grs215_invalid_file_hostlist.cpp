// SPDX-License-Identifier: Apache-2.0
// GRS215 invalid-file-hostlist: File= is not a valid device list: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS215.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS215{"GRS215", "invalid-file-hostlist", Severity::error, Effect::fatal, Daemon::slurmd,
                      "File= is not a valid device list: slurmd exits"};
}  // namespace greslint::rules
