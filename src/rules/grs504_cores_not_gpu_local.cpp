// SPDX-License-Identifier: Apache-2.0
// GRS504 cores-not-gpu-local: Cores= is not the GPU's NUMA-local cores: jobs run far from their GPU.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS504.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS504{"GRS504", "cores-not-gpu-local", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "Cores= is not the GPU's NUMA-local cores: jobs run far from their GPU"};
}  // namespace greslint::rules
