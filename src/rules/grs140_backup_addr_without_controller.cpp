// SPDX-License-Identifier: Apache-2.0
// GRS140 backup-addr-without-controller: BackupAddr without BackupController: every daemon
// exits (docs/rules/GRS140.md).
#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS140{"GRS140",          "backup-addr-without-controller",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "BackupAddr without BackupController: every daemon exits"};

// Only the legacy keys' path of _load_slurmctld_host reads BackupAddr (with SlurmctldHost
// records it is ignored, GRS122), and only once ControlMachine passed (GRS120, GRS139).
Outcome check_grs140(const SlurmConfView& v, Findings& out) {
  if (has_slurmctld_host(v.index) || !v.settings.find("ControlMachine")) return Outcome::proceed();
  const KeyValue* addr = v.settings.find("BackupAddr");
  if (!addr || v.settings.find("BackupController")) return Outcome::proceed();
  out.report(GRS140, addr->key_span, "BackupAddr is set but BackupController is not")
      .slurm("BackupAddr specified without BackupController")
      .help("name the backup with a second SlurmctldHost=host(address) line, or drop BackupAddr");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

}  // namespace greslint::rules
