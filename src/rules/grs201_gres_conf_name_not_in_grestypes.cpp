// SPDX-License-Identifier: Apache-2.0
// GRS201 gres-conf-name-not-in-grestypes: a gres.conf line whose Name= is not in GresTypes is ignored (docs/rules/GRS201.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS201{"GRS201", "gres-conf-name-not-in-grestypes", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a gres.conf line whose Name= is not in GresTypes is ignored"};

// _parse_gres_config checks the name against the loaded plugins last, so a record of a GRES
// slurmd then ignores can still be fatal at an earlier key.
Outcome check_grs201(const GresRecordView& v, Findings& out) {
  const std::optional<KeyValue>& name = v.keys.name;
  if (v.load.in_grestypes_nocase(name->value)) return Outcome::proceed();
  v.load
      .report(out, GRS201, name->value_span,
              fmt::format("Name={} is not in GresTypes, so slurmd ignores this line", name->value))
      .slurm(fmt::format("Ignoring gres.conf record, invalid name: {}", name->value))
      .help(v.load.grestypes.empty() ? "set GresTypes in slurm.conf" : "add it to GresTypes in slurm.conf, or fix the name");
  return Outcome::skip_record();
}

}  // namespace greslint::rules
