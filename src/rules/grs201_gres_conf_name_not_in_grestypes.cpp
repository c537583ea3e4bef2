// SPDX-License-Identifier: Apache-2.0
// GRS201 gres-conf-name-not-in-grestypes: a gres.conf line whose Name= is not in GresTypes is ignored.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS201.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS201{"GRS201", "gres-conf-name-not-in-grestypes", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a gres.conf line whose Name= is not in GresTypes is ignored"};
}  // namespace greslint::rules
