// SPDX-License-Identifier: Apache-2.0
// GRS217 mixed-file-records: some gres.conf lines of a GRES have File= and others do not: slurmd exits (docs/rules/GRS217.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS217{"GRS217", "mixed-file-records", Severity::error, Effect::fatal, Daemon::slurmd,
                      "some gres.conf lines of a GRES have File= and others do not: slurmd exits"};

// gres.c:_validate_gres_conf: the records of a name have File= all or none.
Outcome check_grs217(const GresNameView& v, Findings& out) {
  const auto& recs = v.records;
  const auto with_file = std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.files.has_value(); });
  if (with_file == 0 || with_file == std::ptrdiff_t(recs.size())) return Outcome::proceed();
  const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files; });
  return v.fatal_record(out, GRS217, odd,
                        fmt::format("this {} line has no File= while other {} lines for {} have one", v.name, v.name,
                                    kNodes),
                        fmt::format("gres.conf for {}, some records have \"File\" specification while others do not",
                                    v.name),
                        "give every line of this GRES a File= (or none)");
}

}  // namespace greslint::rules
