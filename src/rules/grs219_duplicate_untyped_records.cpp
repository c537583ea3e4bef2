// SPDX-License-Identifier: Apache-2.0
// GRS219 duplicate-untyped-records: two gres.conf lines of a GRES with neither File= nor Type=: slurmd exits.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS219.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS219{"GRS219", "duplicate-untyped-records", Severity::error, Effect::fatal, Daemon::slurmd,
                      "two gres.conf lines of a GRES with neither File= nor Type=: slurmd exits"};
}  // namespace greslint::rules
