// SPDX-License-Identifier: Apache-2.0
// GRS209 file-and-multiplefiles: File= and MultipleFiles= on one line: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS209.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS209{"GRS209", "file-and-multiplefiles", Severity::error, Effect::fatal, Daemon::slurmd,
                      "File= and MultipleFiles= on one line: slurmd exits"};
}  // namespace greslint::rules
