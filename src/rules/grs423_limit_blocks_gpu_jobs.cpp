// SPDX-License-Identifier: Apache-2.0
// GRS423 limit-blocks-gpu-jobs: a GPU limit of 0 (GrpTRES=gres/gpu=0, MaxTRESPerJob=gres/gpu=0,
// ...): every job that asks for those GPUs pends for ever. docs/rules/GRS423.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS423{"GRS423", "limit-blocks-gpu-jobs", Severity::warning, Effect::pends, Daemon::slurmctld,
                      "a GPU limit of 0: every job that asks for those GPUs pends for ever"};

namespace {
std::string_view reason(bool qos, limits::LimitKind k) {
  using limits::LimitKind;
  switch (k) {
    case LimitKind::grp_tres: return qos ? "QOSGrpGRES" : "AssocGrpGRES";
    case LimitKind::grp_tres_mins: return qos ? "QOSGrpGRESMinutes" : "AssocGrpGRESMinutes";
    case LimitKind::grp_tres_run_mins: return qos ? "QOSGrpGRESRunMinutes" : "AssocGrpGRESRunMinutes";
    case LimitKind::max_tres_per_job: return qos ? "QOSMaxGRESPerJob" : "AssocMaxGRESPerJob";
    case LimitKind::max_tres_per_node: return qos ? "QOSMaxGRESPerNode" : "AssocMaxGRESPerNode";
    case LimitKind::max_tres_mins_per_job: return qos ? "QOSMaxGRESMinutesPerJob" : "AssocMaxGRESMinutesPerJob";
    case LimitKind::max_tres_per_user: return "QOSMaxGRESPerUser";
    case LimitKind::max_tres_per_account: return "MaxGRESPerAccount";
    case LimitKind::min_tres: return "";
  }
  return "";
}
}  // namespace

Outcome check_grs423(const LimitsView& v, Findings& out) {
  if (!v.pool.enforce_limits) return Outcome::proceed();  // GRS421: nothing is enforced
  limits::each_gpu_limit(v.db, [&](const limits::LimitOwner& owner, const limits::Limit& l, const limits::Tres& t) {
    if (t.value != 0 || l.kind == limits::LimitKind::min_tres || !v.pool.tracks(t.name)) return;
    const std::string_view why = reason(owner.qos != nullptr, l.kind);
    const std::string whose =
        owner.qos ? "every job of QOS " + owner.qos->name
        : owner.assoc->is_user()
            ? "every job of user " + owner.assoc->user + " in account " + owner.assoc->account
            : (l.kind == limits::LimitKind::grp_tres || l.kind == limits::LimitKind::grp_tres_mins ||
               l.kind == limits::LimitKind::grp_tres_run_mins)
                ? "every job of account " + owner.assoc->account + " and the accounts and users under it"
                : "every job of account " + owner.assoc->account + "'s users that do not set their own";
    out.report(GRS423, t.span,
               fmt::format("{} has {}={}=0: {} that asks for {} pends for ever ({})", owner.describe(),
                           limits::to_string(l.kind), t.name, whose, t.name, why))
        .slurm(std::string(why))
        .help(fmt::format("to keep the {} off {}, leave it out of its QOS list or partitions; otherwise raise "
                          "the limit (or clear it: {}={}=-1)",
                          owner.qos ? "QOS's jobs" : "association's jobs", t.name, limits::to_string(l.kind), t.name));
  });
  return Outcome::proceed();
}

}  // namespace greslint::rules
