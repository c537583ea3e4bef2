// SPDX-License-Identifier: Apache-2.0
// GRS507 type-not-in-model-name: gres.conf Type= is not part of the GPU model name AutoDetect reports.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS507.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS507{"GRS507", "type-not-in-model-name", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf Type= is not part of the GPU model name AutoDetect reports"};
}  // namespace greslint::rules
