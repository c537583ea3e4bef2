// SPDX-License-Identifier: Apache-2.0
// GRS218 mixed-type-records: some gres.conf lines of a GRES have Type= and others do not: slurmd exits (docs/rules/GRS218.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS218{"GRS218", "mixed-type-records", Severity::error, Effect::fatal, Daemon::slurmd,
                      "some gres.conf lines of a GRES have Type= and others do not: slurmd exits"};

// gres.c:_validate_gres_conf: the records of a name have Type= all or none.
Outcome check_grs218(const GresNameView& v, Findings& out) {
  const auto& recs = v.records;
  const auto with_type = std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.type.has_value(); });
  if (with_type == 0 || with_type == std::ptrdiff_t(recs.size())) return Outcome::proceed();
  const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.type; });
  return v.fatal_record(out, GRS218, odd,
                        fmt::format("this {} line has no Type= while other {} lines for {} have one", v.name, v.name,
                                    kNodes),
                        fmt::format("gres.conf for {}, some records have \"Type=\" specification while others do not",
                                    v.name),
                        "give every line of this GRES a Type= (or none)");
}

}  // namespace greslint::rules
