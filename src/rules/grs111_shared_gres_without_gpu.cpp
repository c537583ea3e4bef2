// SPDX-License-Identifier: Apache-2.0
// GRS111 shared-gres-without-gpu: mps or shard in GresTypes without gpu: every daemon exits.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS111.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS111{"GRS111", "shared-gres-without-gpu", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "mps or shard in GresTypes without gpu: every daemon exits"};
}  // namespace greslint::rules
