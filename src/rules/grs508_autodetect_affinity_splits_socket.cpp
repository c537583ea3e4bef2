// SPDX-License-Identifier: Apache-2.0
// GRS508 autodetect-affinity-splits-socket: AutoDetected GPU core affinity does not follow socket boundaries: drained (Slurm 24.11+).
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS508.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS508{"GRS508", "autodetect-affinity-splits-socket", Severity::error, Effect::drain, Daemon::slurmctld,
                      "AutoDetected GPU core affinity does not follow socket boundaries: drained (Slurm 24.11+)"};
}  // namespace greslint::rules
