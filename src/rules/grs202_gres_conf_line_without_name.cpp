// SPDX-License-Identifier: Apache-2.0
// GRS202 gres-conf-line-without-name: a gres.conf NodeName= line without Name= is ignored.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS202.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS202{"GRS202", "gres-conf-line-without-name", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a gres.conf NodeName= line without Name= is ignored"};
}  // namespace greslint::rules
