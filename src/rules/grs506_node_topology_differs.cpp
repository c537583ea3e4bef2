// SPDX-License-Identifier: Apache-2.0
// GRS506 node-topology-differs: slurm.conf Sockets/CoresPerSocket/ThreadsPerCore differ from the node's CPUs.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS506.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS506{"GRS506", "node-topology-differs", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "slurm.conf Sockets/CoresPerSocket/ThreadsPerCore differ from the node's CPUs"};
}  // namespace greslint::rules
