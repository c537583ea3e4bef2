// SPDX-License-Identifier: Apache-2.0
// GRS011 include-outside-checkout: an absolute Include into a folder slurm.conf is not in,
// with no file there; read from the checkout when it has a copy. Reported by the reader
// (include.cpp); docs/rules/GRS011.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS011{"GRS011", "include-outside-checkout", Severity::warning, Effect::advice, Daemon::none,
                      "an absolute Include names a site path this checkout does not have"};
}  // namespace greslint::rules
