// SPDX-License-Identifier: Apache-2.0
// GRS420 limit-tres-not-tracked: a QOS or association limit on gres/gpu[:TYPE] that
// AccountingStorageTRES does not track; slurmctld ignores it. docs/rules/GRS420.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS420{"GRS420", "limit-tres-not-tracked", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a GPU limit on a TRES that AccountingStorageTRES does not track: slurmctld ignores it"};

Outcome check_grs420(const LimitsView& v, Findings& out) {
  // assoc_mgr sets a limit only for the TRES slurmctld tracks (assoc_mgr_set_tres_cnt_array
  // over its TRES list); gres/gpu is not tracked by default in any release.
  limits::each_gpu_limit(v.db, [&](const limits::LimitOwner& owner, const limits::Limit& l, const limits::Tres& t) {
    if (v.pool.tracks(t.name)) return;
    const std::string list = v.pool.tres_setting ? std::string(v.pool.tres_setting->value) : std::string();
    out.report(GRS420, t.span,
               fmt::format("{} limits {} ({}={}), which AccountingStorageTRES does not track: slurmctld ignores "
                           "this limit",
                           owner.describe(), t.name, limits::to_string(l.kind), t.value))
        .related(v.pool.tres_setting ? v.pool.tres_setting->value_span : v.pool.top,
                 v.pool.tres_setting ? "AccountingStorageTRES is set here" : "slurm.conf sets no AccountingStorageTRES")
        .help(fmt::format("AccountingStorageTRES={}{}{}", list, list.empty() ? "" : ",", t.name));
  });
  return Outcome::proceed();
}

}  // namespace greslint::rules
