// SPDX-License-Identifier: Apache-2.0
// GRS221 global-device-line: a gres.conf line with File= but no NodeName= makes nodes without that GRES open its devices.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS221.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS221{"GRS221", "global-device-line", Severity::warning, Effect::fatal, Daemon::slurmd,
                      "a File= line without NodeName= applies to nodes without that GRES: slurmd there exits if the device is missing"};
}  // namespace greslint::rules
