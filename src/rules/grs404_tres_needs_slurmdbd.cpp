// SPDX-License-Identifier: Apache-2.0
// GRS404 tres-needs-slurmdbd: AccountingStorageTRES names a GRES without slurmdbd:
// slurmctld exits (docs/rules/GRS404.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "slurm_lists.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS404{"GRS404", "tres-needs-slurmdbd", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AccountingStorageTRES names a GRES without slurmdbd: slurmctld exits"};

bool uses_slurmdbd(const Settings& settings) {
  const KeyValue* type = settings.find("AccountingStorageType");
  return type && icontains(type->value, "slurmdbd");
}

// controller.c: only cpu, mem, energy, node, billing, fs/disk, vmem and pages have fixed
// ids; every other TRES gets its id from slurmdbd.
bool tres_needs_slurmdbd(std::string_view tres) {
  auto starts = [&](std::string_view p) { return tres.size() >= p.size() && iequals(tres.substr(0, p.size()), p); };
  if (starts("fs/")) return !(tres.size() >= 7 && iequals(tres.substr(3, 4), "disk"));
  return starts("gres/") || starts("license/") || starts("ic/") || starts("bb/");
}

// controller.c:_init_tres, from ctld_assoc_mgr_init: before read_slurm_conf in every
// release (Analyzer::run places the stage). Slurm names the first such TRES
// of its list, unless a TRES of no known type comes before it (GRS135).
Outcome check_grs404(const SlurmConfView& v, Findings& out) {
  if (uses_slurmdbd(v.settings)) return Outcome::proceed();
  const KeyValue* tres = v.settings.find("AccountingStorageTRES");
  if (!tres) return Outcome::proceed();
  const KeyValue* type = v.settings.find("AccountingStorageType");
  for (const std::string& t : accounting_tres_list(tres->value, v.profile)) {
    if (init_tres_refuses(t, v.profile)) return Outcome::proceed();  // GRS135's fatal
    if (!tres_needs_slurmdbd(t)) continue;
    std::string slurm = fmt::format(
        "slurmdbd is required to run with TRES {}. Either setup slurmdbd or remove this TRES from your configuration.", t);
    auto b = out.report(GRS404, tres_word_span(*tres, t),
                        fmt::format("AccountingStorageTRES names {} but AccountingStorageType is {}", t,
                                    type ? type->value : "not set"));
    b.slurm(slurm).help("set AccountingStorageType=accounting_storage/slurmdbd, or drop the TRES");
    if (type) b.related(type->value_span, "accounting storage set here");
    return Outcome::slurmctld_fatal(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
