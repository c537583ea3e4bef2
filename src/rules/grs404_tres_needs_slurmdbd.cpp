// SPDX-License-Identifier: Apache-2.0
// GRS404 tres-needs-slurmdbd: AccountingStorageTRES names a GRES without slurmdbd:
// slurmctld exits (docs/rules/GRS404.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS404{"GRS404", "tres-needs-slurmdbd", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AccountingStorageTRES names a GRES without slurmdbd: slurmctld exits"};

namespace {

/// TRES types whose records need an id from slurmdbd (controller.c: only cpu, mem, energy,
/// node, billing, fs/disk, vmem and pages have fixed ids).
bool tres_needs_slurmdbd(std::string_view tres) {
  auto starts = [&](std::string_view p) { return tres.size() > p.size() && iequals(tres.substr(0, p.size()), p); };
  if (starts("fs/")) return !iequals(tres, "fs/disk");
  return starts("gres/") || starts("license/") || starts("ic/") || starts("bb/");
}

}  // namespace

// controller.c:_init_tres, from ctld_assoc_mgr_init: before read_slurm_conf up to 25.05,
// after it from 25.11 (Analyzer::run places the stage). Slurm names the first such TRES.
Outcome check_grs404(const SlurmConfView& v, Findings& out) {
  const KeyValue* type = v.settings.find("AccountingStorageType");
  if (type && icontains(type->value, "slurmdbd")) return Outcome::proceed();
  const KeyValue* tres = v.settings.find("AccountingStorageTRES");
  if (!tres) return Outcome::proceed();
  for (std::string_view t : split_commas_view(tres->value)) {
    if (!tres_needs_slurmdbd(t)) continue;
    std::string slurm = fmt::format(
        "slurmdbd is required to run with TRES {}. Either setup slurmdbd or remove this TRES from your configuration.", t);
    auto b = out.report(GRS404, tres->value_span,
                        fmt::format("AccountingStorageTRES names {} but AccountingStorageType is {}", t,
                                    type ? type->value : "not set"));
    b.slurm(slurm).help("set AccountingStorageType=accounting_storage/slurmdbd, or drop the TRES");
    if (type) b.related(type->value_span, "accounting storage set here");
    return Outcome::slurmctld_fatal(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
