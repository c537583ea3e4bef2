// SPDX-License-Identifier: Apache-2.0
// GRS405 gpus-without-cons-tres: GPUs with a SelectType other than select/cons_tres:
// per-GPU options fail (cons_res is fatal from 23.11) (docs/rules/GRS405.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS405{"GRS405", "gpus-without-cons-tres", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPUs with a SelectType other than select/cons_tres: per-GPU options fail (cons_res is fatal from 23.11)"};

// select.c:select_g_init: only select/cons_tres schedules GPUs one by one. A SelectType that
// stops slurmctld (select/cons_res where it is removed, GRS125; GRS114) says it already.
Outcome check_grs405(const PolicyView& v, Findings& out) {
  const KeyValue* select = v.settings.find("SelectType");
  const std::string_view select_type =
      select ? select->value : (v.profile.cons_tres_is_default() ? "select/cons_tres" : "select/linear");
  const bool cons_res_fatal = iequals(select_type, "select/cons_res") && v.profile.cons_res_removed();
  if (iequals(select_type, "select/cons_tres") || cons_res_fatal || v.slurmctld_failed) return Outcome::proceed();
  out.report(GRS405, v.setting_span(select),
             fmt::format("GPUs are configured on {} but SelectType is {}{}: --gpus, --gpus-per-node and "
                         "--gpus-per-task are rejected and GPUs cannot be shared per GPU",
                         v.gpus.folded(), select_type,
                         select ? "" : " (the default of " + v.profile.version().str() + ")"))
      .help("set SelectType=select/cons_tres");
  return Outcome::degraded();
}

}  // namespace greslint::rules
