// SPDX-License-Identifier: Apache-2.0
// GRS002: a key the target Slurm release does not know (A2/A3/C1).
// Reported by the reader; docs/rules/GRS002.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS002{"GRS002", "unknown-key", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "key not known to this Slurm release: the daemon reading the file exits"};
}  // namespace greslint::rules
