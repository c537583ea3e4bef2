// SPDX-License-Identifier: Apache-2.0
// GRS203 inline-autodetect-on-name-line: AutoDetect on a Name= line has no effect.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS203.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS203{"GRS203", "inline-autodetect-on-name-line", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "AutoDetect on a Name= line has no effect"};
}  // namespace greslint::rules
