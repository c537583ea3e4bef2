// SPDX-License-Identifier: Apache-2.0
// GRS402 typed-gpu-tres-only: AccountingStorageTRES has only typed gres/gpu:TYPE: untyped
// --gpus requests escape the limits (docs/rules/GRS402.md).
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS402{"GRS402", "typed-gpu-tres-only", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "AccountingStorageTRES has only typed gres/gpu:TYPE: untyped --gpus requests escape the limits"};

// controller.c:_init_tres: a typed gres/gpu:TYPE is tracked on its own; without gres/gpu
// beside it there is no total to charge an untyped request to.
Outcome check_grs402(const PolicyView& v, Findings& out) {
  const GpuAccounting& a = v.accounting;
  if (!a.slurmdbd || a.gpu_tres || !a.typed_gpu_tres) return Outcome::proceed();
  out.report(GRS402, a.tres->value_span,
             "AccountingStorageTRES tracks only typed gres/gpu:TYPE: a job that asks for untyped --gpus is "
             "charged to the first tracked type, not the type it got, so per-type limits are wrong and "
             "there is no total to limit")
      .help("add gres/gpu next to the typed entries");
  return Outcome::degraded();
}

}  // namespace greslint::rules
