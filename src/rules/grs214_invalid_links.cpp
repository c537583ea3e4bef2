// SPDX-License-Identifier: Apache-2.0
// GRS214 invalid-links: an invalid Links= value is dropped.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS214.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS214{"GRS214", "invalid-links", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "an invalid Links= value is dropped"};
}  // namespace greslint::rules
