// SPDX-License-Identifier: Apache-2.0
// GRS204 unknown-autodetect: an AutoDetect value this Slurm release does not know is ignored.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS204.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS204{"GRS204", "unknown-autodetect", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "an AutoDetect value this Slurm release does not know is ignored"};
}  // namespace greslint::rules
