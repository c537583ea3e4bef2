// SPDX-License-Identifier: Apache-2.0
// GRS114 shared-gres-without-cons-tres: mps or shard need SelectType=select/cons_tres: slurmctld exits.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS114.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS114{"GRS114", "shared-gres-without-cons-tres", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "mps or shard need SelectType=select/cons_tres: slurmctld exits"};
}  // namespace greslint::rules
