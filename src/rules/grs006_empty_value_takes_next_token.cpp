// SPDX-License-Identifier: Apache-2.0
// GRS006: "Key= Next=x" gives Key the value "Next=x" (slurm-semantics §1.2).
// Reported by the reader; docs/rules/GRS006.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS006{"GRS006", "empty-value-takes-next-token", Severity::warning, Effect::degraded,
                      Daemon::none,
                      "an empty value followed by a space swallows the next Key=Value as its value"};
}  // namespace greslint::rules
