// SPDX-License-Identifier: Apache-2.0
// GRS009 unknown-suppression: a "# greslint: disable=" comment names no known rule.
// Reported by src/suppress.cpp; docs/rules/GRS009.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS009{"GRS009", "unknown-suppression", Severity::warning, Effect::advice, Daemon::none,
                      "a greslint suppression comment names a rule that does not exist"};
}  // namespace greslint::rules
