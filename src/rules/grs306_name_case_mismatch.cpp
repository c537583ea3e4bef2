// SPDX-License-Identifier: Apache-2.0
// GRS306 name-case-mismatch: gres.conf Name= spelled differently from GresTypes: slurmctld drops the GPUs (docs/rules/GRS306.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS306{"GRS306", "name-case-mismatch", Severity::error, Effect::drain, Daemon::slurmctld,
                      "gres.conf Name= spelled differently from GresTypes: slurmctld drops the GPUs"};

// slurmctld looks the record's plugin up by its exact name: a name spelled otherwise finds
// no plugin, and the model drops the record (RegistrationView::misspelled).
Outcome check_grs306(const RegistrationView& v, Findings& out) {
  for (const GresRecord& r : v.misspelled)
    out.report(GRS306, r.span_of("Name"),
               fmt::format("Name={} is spelled differently from GresTypes ({}): slurmd accepts it, slurmctld drops it",
                           r.name, v.name))
        .slurm(fmt::format("gres_node_config_unpack: gres/{} duplicate plugin ID with {}, unable to process", r.name, v.name))
        .help(fmt::format("write Name={}", v.name));
  return Outcome::proceed();
}

}  // namespace greslint::rules
