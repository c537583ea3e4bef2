// SPDX-License-Identifier: Apache-2.0
// GRS137 bad-slurmctld-host: a SlurmctldHost value with unbalanced parentheses: the file is
// refused and every daemon exits (docs/rules/GRS137.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS137{
    "GRS137",          "bad-slurmctld-host",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "a SlurmctldHost value with unbalanced parentheses: the file is refused and every daemon exits"};

// The record handler refuses the record, so s_p_parse_file fails: the generic fatal follows.
Outcome check_grs137(const SlurmConfView& v, Findings& out) {
  Outcome result = Outcome::proceed();
  for (const Directive* line : v.index.records("SlurmctldHost")) {
    const Directive& d = *line;
    const std::string_view value = d.head().value;
    if (slurmctld_host_well_formed(value)) continue;
    out.report(GRS137, d.head().value_span,
               fmt::format("SlurmctldHost={} is neither HOST nor HOST(ADDRESS); Slurm refuses the file", value))
        .slurm(fmt::format("Bad value \"{}\" for SlurmctldHost", value))
        .help("write SlurmctldHost=head01 or SlurmctldHost=head01(10.0.0.1), one controller per line");
    result = Outcome::slurmctld_fatal(std::string(kUnableToProcess));
  }
  return result;
}

}  // namespace greslint::rules
