// SPDX-License-Identifier: Apache-2.0
// GRS205 no-gpu-env-with-other-env: Flags=no_gpu_env combined with another *_env flag: slurmd exits.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS205.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS205{"GRS205", "no-gpu-env-with-other-env", Severity::error, Effect::fatal, Daemon::slurmd,
                      "Flags=no_gpu_env combined with another *_env flag: slurmd exits"};
}  // namespace greslint::rules
