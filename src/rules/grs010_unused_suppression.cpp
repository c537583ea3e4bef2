// SPDX-License-Identifier: Apache-2.0
// GRS010 unused-suppression: a "# greslint: disable=" comment silences nothing.
// Reported by src/suppress.cpp; docs/rules/GRS010.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS010{"GRS010", "unused-suppression", Severity::note, Effect::advice, Daemon::none,
                      "a greslint suppression comment matches no finding"};
}  // namespace greslint::rules
