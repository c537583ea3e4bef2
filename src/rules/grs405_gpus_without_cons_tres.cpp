// SPDX-License-Identifier: Apache-2.0
// GRS405 gpus-without-cons-tres: GPUs with a SelectType other than select/cons_tres: per-GPU options fail (cons_res is fatal from 23.11).
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS405.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS405{"GRS405", "gpus-without-cons-tres", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPUs with a SelectType other than select/cons_tres: per-GPU options fail (cons_res is fatal from 23.11)"};
}  // namespace greslint::rules
