// SPDX-License-Identifier: Apache-2.0
// GRS008: an input file greslint cannot read as text (binary, NUL bytes, too large, not a file).
// Reported by the reader; docs/rules/GRS008.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS008{"GRS008", "unreadable-input", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "input is not a readable text file (NUL bytes, a directory, a device, too large)"};
}  // namespace greslint::rules
