// SPDX-License-Identifier: Apache-2.0
// GRS007: a backslash continuation glues two tokens together (no space is inserted).
// Reported by the reader; docs/rules/GRS007.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS007{"GRS007", "continuation-joins-tokens", Severity::warning, Effect::degraded,
                      Daemon::none,
                      "a line continuation joins two words with no space between them"};
}  // namespace greslint::rules
