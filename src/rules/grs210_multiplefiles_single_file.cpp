// SPDX-License-Identifier: Apache-2.0
// GRS210 multiplefiles-single-file: MultipleFiles= with one file: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS210.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS210{"GRS210", "multiplefiles-single-file", Severity::error, Effect::fatal, Daemon::slurmd,
                      "MultipleFiles= with one file: slurmd exits"};
}  // namespace greslint::rules
