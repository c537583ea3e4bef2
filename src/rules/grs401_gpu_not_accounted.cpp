// SPDX-License-Identifier: Apache-2.0
// GRS401 gpu-not-accounted: GPUs configured but gres/gpu is not in AccountingStorageTRES:
// usage and gres/gpu limits are not tracked (docs/rules/GRS401.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS401{"GRS401", "gpu-not-accounted", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPUs configured but gres/gpu is not in AccountingStorageTRES: usage and gres/gpu limits are not tracked"};

// controller.c:_init_tres builds the TRES slurmctld tracks from AccountingStorageTRES; without
// gres/gpu there, GPU use is not counted (nothing is, without slurmdbd: GRS404's case).
Outcome check_grs401(const PolicyView& v, Findings& out) {
  const GpuAccounting& a = v.accounting;
  if (!a.slurmdbd || a.gpu_tres || a.typed_gpu_tres) return Outcome::proceed();
  out.report(GRS401, a.tres ? a.tres->value_span : a.storage_type->value_span,
             fmt::format("GPUs are configured on {} but gres/gpu is not in AccountingStorageTRES: GPU usage "
                         "is not accounted and GrpTRES=gres/gpu limits are not enforced",
                         v.gpus.folded()))
      .help(a.tres ? fmt::format("AccountingStorageTRES={},gres/gpu", a.tres->value)
                   : "set AccountingStorageTRES=gres/gpu");
  return Outcome::degraded();
}

}  // namespace greslint::rules
