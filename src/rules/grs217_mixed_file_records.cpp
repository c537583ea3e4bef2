// SPDX-License-Identifier: Apache-2.0
// GRS217 mixed-file-records: some gres.conf lines of a GRES have File= and others do not: slurmd exits.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS217.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS217{"GRS217", "mixed-file-records", Severity::error, Effect::fatal, Daemon::slurmd,
                      "some gres.conf lines of a GRES have File= and others do not: slurmd exits"};
}  // namespace greslint::rules
