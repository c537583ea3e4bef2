// SPDX-License-Identifier: Apache-2.0
// GRS115 bad-gres-count: a Gres= count Slurm cannot read: counting stops at that token.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS115.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS115{"GRS115", "bad-gres-count", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a Gres= count Slurm cannot read: counting stops at that token"};
}  // namespace greslint::rules
