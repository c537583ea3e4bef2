// SPDX-License-Identifier: Apache-2.0
// GRS116 mixed-typed-untyped-gres: slurm.conf Gres= mixes typed and untyped counts of one GRES: slurmd exits.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS116.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS116{"GRS116", "mixed-typed-untyped-gres", Severity::error, Effect::fatal, Daemon::slurmd,
                      "slurm.conf Gres= mixes typed and untyped counts of one GRES: slurmd exits"};
}  // namespace greslint::rules
