// SPDX-License-Identifier: Apache-2.0
// GRS403 gpu-limits-not-enforced: gres/gpu is accounted but AccountingStorageEnforce does
// not enforce limits (docs/rules/GRS403.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS403{"GRS403", "gpu-limits-not-enforced", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "gres/gpu is accounted but AccountingStorageEnforce does not enforce limits"};

// read_config.c:_validate_and_set_defaults sets ACCOUNTING_ENFORCE_LIMITS for "limits",
// "safe" and "all"; without it the association manager records limits and does not apply them.
Outcome check_grs403(const PolicyView& v, Findings& out) {
  const GpuAccounting& a = v.accounting;
  if (!a.accounted() || a.enforces_limits) return Outcome::proceed();
  out.report(GRS403, a.enforce ? a.enforce->value_span : a.tres->value_span,
             fmt::format("gres/gpu is accounted but AccountingStorageEnforce {}: association and QOS limits "
                         "such as GrpTRES=gres/gpu=8 are recorded, not enforced",
                         a.enforce ? "is " + std::string(a.enforce->value) : "is not set"))
      .help("set AccountingStorageEnforce=associations,limits,qos,safe");
  return Outcome::degraded();
}

}  // namespace greslint::rules
