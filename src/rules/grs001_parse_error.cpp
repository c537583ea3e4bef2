// SPDX-License-Identifier: Apache-2.0
// GRS001: text Slurm's parser cannot consume is left over on a line (A1/C1).
// Reported by the reader; docs/rules/GRS001.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS001{"GRS001", "parse-error", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "Slurm's parser cannot consume part of a line, so the daemon refuses the file"};
}  // namespace greslint::rules
