// SPDX-License-Identifier: Apache-2.0
// GRS315 cores-on-some-records: only some gres.conf lines of a GRES have Cores=: the others bind to any core.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS315.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS315{"GRS315", "cores-on-some-records", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "only some gres.conf lines of a GRES have Cores=: the others bind to any core"};
}  // namespace greslint::rules
