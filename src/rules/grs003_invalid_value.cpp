// SPDX-License-Identifier: Apache-2.0
// GRS003: a number or boolean Slurm cannot convert (A4).
// Reported by the reader; docs/rules/GRS003.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS003{"GRS003", "invalid-value", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "numeric or boolean value Slurm cannot convert: the file is rejected"};
}  // namespace greslint::rules
