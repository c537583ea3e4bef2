// SPDX-License-Identifier: Apache-2.0
// GRS426 assoc-qos-unknown: an association's QOS= or DefaultQOS= names a QOS the show-qos
// file does not define. docs/rules/GRS426.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS426{"GRS426", "assoc-qos-unknown", Severity::warning, Effect::rejected, Daemon::slurmctld,
                      "an association's QOS or DefaultQOS names a QOS that does not exist"};

Outcome check_grs426(const LimitsView& v, Findings& out) {
  if (!v.db.qos_known) return Outcome::proceed();
  for (const limits::Assoc& a : v.db.assocs) {
    const limits::LimitOwner owner{nullptr, &a};
    if (a.qos)
      for (const std::string& q : *a.qos)
        if (!v.db.find_qos(q))
          out.report(GRS426, a.qos_span,
                     fmt::format("{} may use QOS {}, which is not a QOS of the limits files: a job asking for it "
                                 "is refused",
                                 owner.describe(), q))
              .slurm(std::string(kInvalidQos))
              .help(fmt::format("sacctmgr add qos {}, or drop it from the association", q));
    if (a.default_qos && !v.db.find_qos(*a.default_qos))
      out.report(GRS426, a.default_qos_span,
                 fmt::format("{} has DefaultQOS={}, which is not a QOS of the limits files: its jobs without --qos "
                             "are refused{}",
                             owner.describe(), *a.default_qos, v.pool.enforce_qos ? "" : " once qos is enforced"))
          .slurm(std::string(kInvalidQos))
          .help(fmt::format("sacctmgr add qos {}, or set another DefaultQOS", *a.default_qos));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
