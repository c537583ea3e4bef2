// SPDX-License-Identifier: Apache-2.0
// GRS147 sched-log-level-without-file: SlurmSchedLogLevel without SlurmSchedLogFile: every
// daemon exits (docs/rules/GRS147.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS147{"GRS147",          "sched-log-level-without-file",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "SlurmSchedLogLevel without SlurmSchedLogFile: every daemon exits"};

// A scheduler log level other than 0 asks for a log Slurm has nowhere to write.
Outcome check_grs147(const SlurmConfView& v, Findings& out) {
  const KeyValue* level = v.settings.find("SlurmSchedLogLevel");
  if (!level || v.settings.find("SlurmSchedLogFile")) return Outcome::proceed();
  const auto n = slurm_number(level->value);
  if (!n || *n == 0) return Outcome::proceed();  // unreadable: GRS003
  out.report(GRS147, level->value_span,
             fmt::format("SlurmSchedLogLevel={} turns the scheduler log on, and SlurmSchedLogFile is not set",
                         level->value))
      .slurm("SlurmSchedLogLevel requires SlurmSchedLogFile value")
      .help("add SlurmSchedLogFile=/var/log/slurm/sched.log, or set SlurmSchedLogLevel=0");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

}  // namespace greslint::rules
