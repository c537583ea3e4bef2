// SPDX-License-Identifier: Apache-2.0
// GRS302 gres-conf-excess-ignored: gres.conf describes more than slurm.conf configures: Slurm ignores the extra.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS302.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS302{"GRS302", "gres-conf-excess-ignored", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf describes more than slurm.conf configures: Slurm ignores the extra"};
}  // namespace greslint::rules
