// SPDX-License-Identifier: Apache-2.0
// GRS004: a key given twice; Slurm silently keeps the last value (A5).
// Reported by the reader; docs/rules/GRS004.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS004{"GRS004", "duplicate-key", Severity::warning, Effect::degraded, Daemon::none,
                      "key given more than once: Slurm keeps the last value and ignores the others"};
}  // namespace greslint::rules
