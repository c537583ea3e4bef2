// SPDX-License-Identifier: Apache-2.0
// GRS101 node-topology-reset: Slurm silently corrects a NodeName topology (Sockets/Cores/Threads/CPUs) that does not add up.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS101.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS101{"GRS101", "node-topology-reset", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "Slurm silently corrects a NodeName topology (Sockets/Cores/Threads/CPUs) that does not add up"};
}  // namespace greslint::rules
