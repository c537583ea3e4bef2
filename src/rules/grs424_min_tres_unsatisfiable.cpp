// SPDX-License-Identifier: Apache-2.0
// GRS424 min-tres-unsatisfiable: a QOS's MinTRES asks for more GPUs than its own maximum
// (MaxTRESPerJob, MaxTRESPerUser, GrpTRES) or than the whole pool has: no job of the QOS can
// ever start. docs/rules/GRS424.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS424{"GRS424", "min-tres-unsatisfiable", Severity::warning, Effect::pends, Daemon::slurmctld,
                      "a QOS's MinTRES asks for more GPUs than its maximum or the pool allows: its jobs never start"};

Outcome check_grs424(const LimitsView& v, Findings& out) {
  if (!v.pool.enforce_limits) return Outcome::proceed();
  using limits::LimitKind;
  for (const limits::Qos& q : v.db.qos) {
    const limits::Limit* min = q.limit(LimitKind::min_tres);
    if (!min) continue;
    for (const limits::Tres& t : min->tres) {
      std::string_view type;
      if (!limits::is_gpu_tres(t.name, &type) || !v.pool.tracks(t.name) || t.value == 0) continue;
      // The job must ask for at least t.value (QOSMinGRES below it) and at most the QOS's
      // maximum (acct_policy_job_runnable_post_select checks GrpTRES, MaxTRESPerJob and
      // MaxTRESPerUser on the same request).
      bool reported = false;
      for (LimitKind k : {LimitKind::grp_tres, LimitKind::max_tres_per_job, LimitKind::max_tres_per_user}) {
        const limits::Limit* max = q.limit(k);
        const limits::Tres* m = max ? max->find(t.name) : nullptr;
        if (!m || m->value >= t.value) continue;
        out.report(GRS424, t.span,
                   fmt::format("QOS {} has MinTRES={}={} but {}={}={}: no job of the QOS can start (below {} it "
                               "pends with QOSMinGRES, above {} with {})",
                               q.name, t.name, t.value, limits::to_string(k), t.name, m->value, t.value, m->value,
                               k == LimitKind::grp_tres           ? "QOSGrpGRES"
                               : k == LimitKind::max_tres_per_job ? "QOSMaxGRESPerJob"
                                                                  : "QOSMaxGRESPerUser"))
            .related(m->span, "the maximum")
            .help("make MinTRES at most the maximum");
        reported = true;
        break;
      }
      if (reported) continue;
      // Or more GPUs (of the type) than all nodes have together.
      if (type.empty() && t.value > v.pool.total_gpus)
        out.report(GRS424, t.span,
                   fmt::format("QOS {} has MinTRES={}={} but the cluster's nodes have {} GPUs in all: every job of "
                               "the QOS pends for ever (QOSMinGRES, or a job too large for the nodes is refused)",
                               q.name, t.name, t.value, v.pool.total_gpus))
            .slurm("QOSMinGRES")
            .help(fmt::format("make MinTRES at most {}", v.pool.total_gpus));
    }
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
