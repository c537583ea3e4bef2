// SPDX-License-Identifier: Apache-2.0
// GRS313 shared-file-unmatched: an mps/shard line names device files no gpu line has: its count is discarded.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS313.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS313{"GRS313", "shared-file-unmatched", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "an mps/shard line names device files no gpu line has: its count is discarded"};
}  // namespace greslint::rules
