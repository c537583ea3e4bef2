// SPDX-License-Identifier: Apache-2.0
// GRS112 duplicate-grestypes-entry: a GresTypes name is listed twice (docs/rules/GRS112.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS112{"GRS112", "duplicate-grestypes-entry", Severity::note, Effect::advice, Daemon::slurmctld,
                      "a GresTypes name is listed twice"};

// gres.c:gres_init skips a name it has loaded already, with a log line.
Outcome check_grs112(const GresTypesView& v, Findings& out) {
  for (const std::string& name : v.duplicates)
    out.report(GRS112, v.gres_types.value_span, fmt::format("GresTypes lists {} twice", name))
        .slurm(fmt::format("Duplicate plugin {} ignored", name))
        .help("list each GRES name once");
  return Outcome::proceed();
}

}  // namespace greslint::rules
