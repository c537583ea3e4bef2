// SPDX-License-Identifier: Apache-2.0
// GRS305 type-not-configured: gres.conf Type= that slurm.conf does not configure (exact spelling): drained from 23.11.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS305.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS305{"GRS305", "type-not-configured", Severity::error, Effect::drain, Daemon::slurmctld,
                      "gres.conf Type= that slurm.conf does not configure (exact spelling): drained from 23.11"};
}  // namespace greslint::rules
