// SPDX-License-Identifier: Apache-2.0
// GRS122 obsolete-setting-ignored: a setting Slurm logs as obsolete, renamed or overridden
// at start-up and then ignores; the daemons run without it (docs/rules/GRS122.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS122{"GRS122", "obsolete-setting-ignored", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a setting Slurm ignores at start-up (obsolete, renamed or overridden): it has no effect"};

namespace {

Outcome ignored(Findings& out, Span at, std::string what, std::string line, std::string help) {
  out.report(GRS122, at, std::move(what)).slurm(std::move(line)).help(std::move(help));
  return Outcome::proceed();
}

}  // namespace

// _load_slurmctld_host: SlurmctldHost wins over the legacy keys, each of which is logged.
Outcome check_grs122_controller_legacy_keys(const SlurmConfView& v, Findings& out) {
  if (!has_slurmctld_host(v.index)) return Outcome::proceed();
  for (std::string_view key : {"ControlMachine", "ControlAddr", "BackupController", "BackupAddr"})
    if (const KeyValue* kv = v.settings.find(key))
      ignored(out, kv->key_span, fmt::format("{} is ignored because SlurmctldHost is set", key),
              fmt::format("Ignoring {} since SlurmctldHost is set.", key), fmt::format("delete the {} line", key));
  return Outcome::proceed();
}

Outcome check_grs122_sbcast_parameters(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("SbcastParameters");
  if (!kv || v.settings.find("BcastParameters")) return Outcome::proceed();
  return ignored(out, kv->key_span, "SbcastParameters was renamed BcastParameters",
                 "SbcastParameters has been renamed to BcastParameters. Please update your configuration.",
                 "rename the key to BcastParameters");
}

Outcome check_grs122_def_mem(const SlurmConfView& v, Findings& out) {
  const KeyValue* per_cpu = v.settings.find("DefMemPerCPU");
  if (!per_cpu || !v.settings.find("DefMemPerNode")) return Outcome::proceed();
  return ignored(out, per_cpu->key_span, "DefMemPerCPU is ignored because DefMemPerNode is set",
                 "DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode",
                 "keep one of DefMemPerCPU and DefMemPerNode");
}

// FastSchedule=1 was the default and is only logged (by slurmctld, twice); other values: GRS121.
Outcome check_grs122_fast_schedule(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("FastSchedule");
  if (!kv || slurm_number(kv->value) != 1) return Outcome::proceed();
  return ignored(out, kv->key_span, "FastSchedule=1 is obsolete and ignored",
                 "Ignoring obsolete FastSchedule=1 option. Please remove from your configuration.",
                 "delete the FastSchedule line");
}
// Only slurmctld reads KeepAliveTime, and only to say where it went.
Outcome check_grs122_keep_alive_time(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("KeepAliveTime");
  if (!kv) return Outcome::proceed();
  return ignored(out, kv->key_span, "KeepAliveTime moved to CommunicationParameters=keepalivetime=",
                 "KeepAliveTime parameter has moved to CommunicationParameters. Please update your config.",
                 fmt::format("use CommunicationParameters=keepalivetime={}", kv->value));
}

Outcome check_grs122_max_mem(const SlurmConfView& v, Findings& out) {
  const KeyValue* per_cpu = v.settings.find("MaxMemPerCPU");
  if (!per_cpu || !v.settings.find("MaxMemPerNode")) return Outcome::proceed();
  return ignored(out, per_cpu->key_span, "MaxMemPerCPU is ignored because MaxMemPerNode is set",
                 "MaxMemPerCPU ignored, since it's mutually exclusive with MaxMemPerNode",
                 "keep one of MaxMemPerCPU and MaxMemPerNode");
}

Outcome check_grs122_mpi_default(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("MpiDefault");
  if (!kv || !iequals(kv->value, "openmpi") || v.profile.version() >= kSlurm2311) return Outcome::proceed();
  return ignored(out, kv->value_span, "MpiDefault=openmpi is obsolete and read as none",
                 "Translating obsolete 'MpiDefault=openmpi' option to 'MpiDefault=none'. Please update your "
                 "configuration.",
                 "set MpiDefault=none (or pmix, pmi2)");
}

// reconfig_str2flags() returns NO_VAL16 (0xfffe) for an unknown word, but its caller tests
// for 0xffff, so the daemons carry on with every flag but KeepPartInfo set (every release;
// recorded live on 22.05.8).
Outcome check_grs122_reconfig_flags(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("ReconfigFlags");
  if (!kv) return Outcome::proceed();
  auto bad = first_unknown_word(kv->value, reconfig_flag_words(), v.profile.version());
  if (!bad) return Outcome::proceed();
  return ignored(out, kv->value_span,
                 fmt::format("ReconfigFlags has no flag {} in Slurm {}: Slurm logs it and uses garbage flags "
                             "(KeepPartState on, KeepPartInfo off)",
                             *bad, v.profile.version().str()),
                 fmt::format("Invalid ReconfigFlag: {}", *bad),
                 "use KeepPartInfo, KeepPartState (and KeepPowerSaveSettings from 23.02)");
}

// controller.c: limits need the database; without slurmdbd slurmctld turns enforcement off.
Outcome check_grs122_enforce_without_slurmdbd(const SlurmConfView& v, Findings& out) {
  const KeyValue* enforce = v.settings.find("AccountingStorageEnforce");
  if (!enforce || list_items(enforce->value).empty() ||
      first_unknown_word(enforce->value, accounting_storage_enforce_words(), v.profile.version()))
    return Outcome::proceed();
  const KeyValue* type = v.settings.find("AccountingStorageType");
  if (type && icontains(type->value, "slurmdbd")) return Outcome::proceed();
  const std::string_view storage = type ? type->value : "accounting_storage/none";
  return ignored(out, enforce->key_span,
                 fmt::format("AccountingStorageEnforce is ignored without slurmdbd (AccountingStorageType is {})",
                             storage),
                 fmt::format("You can not have AccountingStorageEnforce set for AccountingStorageType='{}'", storage),
                 "set AccountingStorageType=accounting_storage/slurmdbd, or drop AccountingStorageEnforce");
}

}  // namespace greslint::rules
