// SPDX-License-Identifier: Apache-2.0
// GRS421 limits-not-enforced: the limits files hold GPU limits but AccountingStorageEnforce
// does not enforce limits; slurmctld records them and never applies them.
// docs/rules/GRS421.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS421{"GRS421", "limits-not-enforced", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPU limits are defined but AccountingStorageEnforce does not enforce limits"};

Outcome check_grs421(const LimitsView& v, Findings& out) {
  // acct_policy.c returns at once without ACCOUNTING_ENFORCE_LIMITS (limits, safe or all;
  // "qos" and "associations" alone do not set it).
  if (v.pool.enforce_limits) return Outcome::proceed();
  std::size_t count = 0;
  const limits::Tres* first = nullptr;
  std::string first_owner, first_kind;
  limits::each_gpu_limit(v.db, [&](const limits::LimitOwner& owner, const limits::Limit& l, const limits::Tres& t) {
    if (!v.pool.tracks(t.name)) return;  // GRS420 says that one is ignored anyway
    if (!first) {
      first = &t;
      first_owner = owner.describe();
      first_kind = std::string(limits::to_string(l.kind));
    }
    ++count;
  });
  if (!first) return Outcome::proceed();
  const KeyValue* enforce = v.pool.enforce_setting;
  out.report(GRS421, first->span,
             fmt::format("AccountingStorageEnforce {} does not enforce limits: slurmctld applies none of the {} GPU "
                         "limit{} of the limits files ({} {}={}={} among them)",
                         enforce ? "=" + std::string(enforce->value) : "is not set and", count, count == 1 ? "" : "s",
                         first_owner, first_kind, first->name, first->value))
      .related(enforce ? enforce->value_span : v.pool.top,
               enforce ? "AccountingStorageEnforce is set here" : "slurm.conf sets no AccountingStorageEnforce")
      .help("set AccountingStorageEnforce=associations,limits,qos (add safe for the minute limits)");
  return Outcome::proceed();
}

}  // namespace greslint::rules
