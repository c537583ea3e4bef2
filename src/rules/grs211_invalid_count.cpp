// SPDX-License-Identifier: Apache-2.0
// GRS211 invalid-count: gres.conf Count= Slurm cannot read: slurmd exits (docs/rules/GRS211.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS211{"GRS211", "invalid-count", Severity::error, Effect::fatal, Daemon::slurmd,
                      "gres.conf Count= Slurm cannot read: slurmd exits"};

// _parse_gres_config reads Count= with a K/M/G suffix; one it cannot read ends the load.
Outcome check_grs211_unreadable(const GresRecordView& v, Findings& out) {
  if (!v.count || v.count_value) return Outcome::proceed();
  std::string slurm = fmt::format("Invalid GRES record for {}, invalid count {}", v.record.name, v.count->value);
  v.load.report(out, GRS211, v.count->value_span, fmt::format("Count={} is not a count Slurm can read", v.count->value))
      .slurm(slurm)
      .help("write a whole number with an optional K/M/G suffix");
  return Outcome::slurmd_fatal(std::move(slurm));
}

// Then the count itself: NO_VAL64 and INFINITE64 are no counts.
Outcome check_grs211_too_large(const GresRecordView& v, Findings& out) {
  if (!v.count_value || *v.count_value < ~std::uint64_t(0) - 1) return Outcome::proceed();
  std::string slurm = fmt::format("GRES {} has invalid count value {}", v.record.name, *v.count_value);
  v.load.report(out, GRS211, v.count->value_span, fmt::format("Count={} is too large", v.count->value)).slurm(slurm);
  return Outcome::slurmd_fatal(std::move(slurm));
}

}  // namespace greslint::rules
