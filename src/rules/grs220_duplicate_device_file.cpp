// SPDX-License-Identifier: Apache-2.0
// GRS220 duplicate-device-file: a device file listed twice for a GRES: slurmd exits.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS220.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS220{"GRS220", "duplicate-device-file", Severity::error, Effect::fatal, Daemon::slurmd,
                      "a device file listed twice for a GRES: slurmd exits"};
}  // namespace greslint::rules
