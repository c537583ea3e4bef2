// SPDX-License-Identifier: Apache-2.0
// GRS121 removed-option: an option Slurm removed and now refuses with its own fatal line
// (docs/rules/GRS121.md). The key is still in Slurm's table, so it parses; the value check
// that follows stops the daemon, ahead of any parse error elsewhere in the file.
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS121{"GRS121", "removed-option", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "an option Slurm removed: the daemons exit with a fatal line that names it"};

namespace {

Outcome removed(Findings& out, const KeyValue& kv, std::string what, std::string line, std::string help) {
  out.report(GRS121, kv.key_span, std::move(what)).slurm(line).help(std::move(help));
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace

// Only slurmctld checks FastSchedule; 1 is logged and ignored (GRS122), 2 and other values stop it.
Outcome check_grs121_fast_schedule(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("FastSchedule");
  const auto n = kv ? slurm_number(kv->value) : std::nullopt;
  if (!kv || n == 1) return Outcome::proceed();
  if (n == 2)
    return removed(out, *kv, "FastSchedule was removed; FastSchedule=2 is now SlurmdParameters=config_overrides",
                   "The FastSchedule option has been removed. The FastSchedule=2 functionality is available through "
                   "the SlurmdParameters=config_overrides option.",
                   "replace FastSchedule=2 with SlurmdParameters=config_overrides");
  return removed(out, *kv, fmt::format("FastSchedule was removed; FastSchedule={} stops slurmctld", kv->value),
                 "The FastSchedule option has been removed. Please update your configuration.",
                 "delete the FastSchedule line");
}

Outcome check_grs121_accounting_storage_type(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("AccountingStorageType");
  if (!kv || !icontains(kv->value, "mysql")) return Outcome::proceed();
  out.report(GRS121, kv->value_span, "accounting_storage/mysql is only for slurmdbd.conf")
      .slurm("AccountingStorageType=accounting_storage/mysql only permitted in SlurmDBD.")
      .help("set AccountingStorageType=accounting_storage/slurmdbd and keep mysql in slurmdbd.conf");
  return Outcome::slurmctld_fatal("AccountingStorageType=accounting_storage/mysql only permitted in SlurmDBD.");
}

// Still a key until 25.05; from 25.11 the key itself is unknown (GRS002).
Outcome check_grs121_accounting_storage_loc(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("AccountingStorageLoc");
  if (!kv || v.profile.version() >= kSlurm2511) return Outcome::proceed();
  return removed(out, *kv, "AccountingStorageLoc was removed",
                 "The AccountingStorageLoc option has been removed. It is safe to remove from your configuration.",
                 "delete the AccountingStorageLoc line");
}

// Any value stops the daemons, AccountingStoreJobComment=NO too: Slurm only asks whether it is set.
Outcome check_grs121_accounting_store_job_comment(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("AccountingStoreJobComment");
  if (!kv) return Outcome::proceed();
  return removed(out, *kv, "AccountingStoreJobComment was removed; it is AccountingStoreFlags=job_comment now",
                 "The AccountingStoreJobComment option has been removed, please use AccountingStoreFlags=job_comment "
                 "option instead.",
                 "replace it with AccountingStoreFlags=job_comment");
}

Outcome check_grs121_salloc_default_command(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("SallocDefaultCommand");
  if (!kv) return Outcome::proceed();
  return removed(out, *kv, "SallocDefaultCommand was removed",
                 "SallocDefaultCommand has been removed. Please consider setting "
                 "LaunchParameters=use_interactive_step instead.",
                 "delete it; LaunchParameters=use_interactive_step gives salloc an interactive step");
}

}  // namespace greslint::rules
