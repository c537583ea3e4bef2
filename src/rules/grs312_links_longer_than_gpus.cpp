// SPDX-License-Identifier: Apache-2.0
// GRS312 links-longer-than-gpus: a Links= list has more entries than the node has GPUs: the node is drained.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS312.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS312{"GRS312", "links-longer-than-gpus", Severity::error, Effect::drain, Daemon::slurmctld,
                      "a Links= list has more entries than the node has GPUs: the node is drained"};
}  // namespace greslint::rules
