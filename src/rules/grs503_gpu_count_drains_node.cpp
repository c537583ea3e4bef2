// SPDX-License-Identifier: Apache-2.0
// GRS503 gpu-count-drains-node: the node has fewer GPUs than slurm.conf configures: it is drained at registration.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS503.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS503{"GRS503", "gpu-count-drains-node", Severity::error, Effect::drain, Daemon::slurmctld,
                      "the node has fewer GPUs than slurm.conf configures: it is drained at registration"};
}  // namespace greslint::rules
