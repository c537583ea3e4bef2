// SPDX-License-Identifier: Apache-2.0
// GRS139 control-machine-without-addr: ControlMachine lists several hosts and ControlAddr is
// missing: every daemon exits (docs/rules/GRS139.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS139{
    "GRS139",          "control-machine-without-addr",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "ControlMachine lists several hosts and ControlAddr is missing: every daemon exits"};

// _load_slurmctld_host reads the legacy keys only without SlurmctldHost records: a
// ControlMachine with a comma names no one address Slurm could use.
Outcome check_grs139(const SlurmConfView& v, Findings& out) {
  if (has_slurmctld_host(v.index) || v.settings.find("ControlAddr")) return Outcome::proceed();
  const KeyValue* machine = v.settings.find("ControlMachine");
  if (!machine || machine->value.find(',') == std::string_view::npos) return Outcome::proceed();
  out.report(GRS139, machine->value_span,
             fmt::format("ControlMachine={} names several hosts and ControlAddr is not set", machine->value))
      .slurm("ControlMachine has multiple host names, so ControlAddr must be specified.")
      .help("replace ControlMachine with one SlurmctldHost=host(address) line per controller");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

}  // namespace greslint::rules
