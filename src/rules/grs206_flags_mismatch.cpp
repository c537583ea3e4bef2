// SPDX-License-Identifier: Apache-2.0
// GRS206 flags-mismatch: gres.conf lines of one GRES carry different env Flags: slurmd exits (docs/rules/GRS206.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS206{"GRS206", "flags-mismatch", Severity::error, Effect::fatal, Daemon::slurmd,
                      "gres.conf lines of one GRES carry different env Flags: slurmd exits"};

// _parse_gres_config: a record's env flags must repeat the previous record's of the name (§5.6).
Outcome check_grs206(const GresRecordView& v, Findings& out) {
  if (v.flags_check != model::PreviousFlags::Check::differs) return Outcome::proceed();
  std::string slurm = fmt::format(
      "Invalid GRES record name={} type={}: Flags ({}) does not match env flags for previous GRES of same "
      "node and name",
      v.record.name, v.record.type ? *v.record.type : "(null)", v.flags->value);
  v.load
      .report(out, GRS206, v.flags->value_span,
              "Flags differ from the previous gres.conf line for this GRES; every line of a name must carry "
              "the same env flags")
      .slurm(slurm)
      .help(
          "give every line of this GRES the same Flags= (a line without Flags, or with Flags= but no *_env "
          "word, counts as all env flags)");
  return Outcome::slurmd_fatal(std::move(slurm));
}

}  // namespace greslint::rules
