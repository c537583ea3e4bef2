// SPDX-License-Identifier: Apache-2.0
// GRS212 count-differs-from-files: gres.conf Count= differs from the number of File= devices: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS212.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS212{"GRS212", "count-differs-from-files", Severity::error, Effect::fatal, Daemon::slurmd,
                      "gres.conf Count= differs from the number of File= devices: slurmd exits"};
}  // namespace greslint::rules
