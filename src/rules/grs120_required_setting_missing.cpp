// SPDX-License-Identifier: Apache-2.0
// GRS120 required-setting-missing: slurm.conf has no ClusterName or no SlurmctldHost:
// every daemon refuses it (docs/rules/GRS120.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS120{"GRS120", "required-setting-missing", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "ClusterName or SlurmctldHost missing: every daemon refuses slurm.conf"};

// The first value read_config.c checks: without a name the cluster has no accounting
// identity, so Slurm refuses to go on (an empty ClusterName="" counts as none).
Outcome check_grs120_cluster_name(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("ClusterName");
  if (kv && !kv->value.empty()) return Outcome::proceed();
  out.report(GRS120, kv ? kv->value_span : v.top,
             kv ? "ClusterName is empty" : "slurm.conf has no ClusterName")
      .slurm("ClusterName needs to be specified")
      .help("add ClusterName=<name> (lower case; accounting stores it)");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

// _load_slurmctld_host: a controller must be named, by SlurmctldHost or the legacy
// ControlMachine.
Outcome check_grs120_controller(const SlurmConfView& v, Findings& out) {
  if (has_slurmctld_host(v.index) || v.settings.find("ControlMachine")) return Outcome::proceed();
  out.report(GRS120, v.top, "slurm.conf names no controller (SlurmctldHost)")
      .slurm("No SlurmctldHost defined.")
      .help("add SlurmctldHost=<controller host>");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

}  // namespace greslint::rules
