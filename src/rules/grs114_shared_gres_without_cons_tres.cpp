// SPDX-License-Identifier: Apache-2.0
// GRS114 shared-gres-without-cons-tres: mps or shard need SelectType=select/cons_tres: slurmctld exits (docs/rules/GRS114.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS114{"GRS114", "shared-gres-without-cons-tres", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "mps or shard need SelectType=select/cons_tres: slurmctld exits"};

// slurmctld's select plugin must be cons_tres to hand out shared GRES (gres.c checks it
// when the plugins load).
Outcome check_grs114(const GresTypesView& v, Findings& out) {
  if (v.shared.empty() || v.slurmctld_failed) return Outcome::proceed();
  const KeyValue* select = v.settings.find("SelectType");
  const bool cons_tres = select ? iequals(select->value, "select/cons_tres") : v.profile.cons_tres_is_default();
  if (cons_tres) return Outcome::proceed();
  const std::string slurm = "Use of shared gres requires the use of select/cons_tres";
  auto b = out.report(GRS114, select ? select->value_span : v.gres_types.value_span,
                      fmt::format("GresTypes has {} but SelectType is {}", v.shared.front(),
                                  select ? select->value
                                         : "not set (the " + v.profile.version().str() + " default is select/linear)"))
               .slurm(slurm)
               .help("set SelectType=select/cons_tres");
  if (select) b.related(v.gres_types.value_span, "shared GRES configured here");
  return Outcome::slurmctld_fatal(slurm);
}

}  // namespace greslint::rules
