// SPDX-License-Identifier: Apache-2.0
// GRS505 cpu-ids-as-core-ids: Cores= lists CPU (hyperthread) ids where Slurm reads logical core indexes.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS505.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS505{"GRS505", "cpu-ids-as-core-ids", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "Cores= lists CPU (hyperthread) ids where Slurm reads logical core indexes"};
}  // namespace greslint::rules
