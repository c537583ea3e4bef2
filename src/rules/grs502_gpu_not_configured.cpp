// SPDX-License-Identifier: Apache-2.0
// GRS502 gpu-not-configured: a GPU the node has is not configured: no job can use it.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS502.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS502{"GRS502", "gpu-not-configured", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a GPU the node has is not configured: no job can use it"};
}  // namespace greslint::rules
