// SPDX-License-Identifier: Apache-2.0
// GRS218 mixed-type-records: some gres.conf lines of a GRES have Type= and others do not: slurmd exits.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS218.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS218{"GRS218", "mixed-type-records", Severity::error, Effect::fatal, Daemon::slurmd,
                      "some gres.conf lines of a GRES have Type= and others do not: slurmd exits"};
}  // namespace greslint::rules
