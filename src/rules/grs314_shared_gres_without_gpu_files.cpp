// SPDX-License-Identifier: Apache-2.0
// GRS314 shared-gres-without-gpu-files: mps/shard on a node whose GPUs have no device files: slurmd exits.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS314.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS314{"GRS314", "shared-gres-without-gpu-files", Severity::error, Effect::fatal, Daemon::slurmd,
                      "mps/shard on a node whose GPUs have no device files: slurmd exits"};
}  // namespace greslint::rules
