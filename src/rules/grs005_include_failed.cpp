// SPDX-License-Identifier: Apache-2.0
// GRS005: an Include that Slurm cannot read (A13): missing, unreadable, cyclic, %c unset, glob.
// Reported by the reader; docs/rules/GRS005.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS005{"GRS005", "include-failed", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "Include cannot be read: the daemon waits 60 s, then refuses the file"};
}  // namespace greslint::rules
