// SPDX-License-Identifier: Apache-2.0
// GRS219 duplicate-untyped-records: two gres.conf lines of a GRES with neither File= nor Type=: slurmd exits (docs/rules/GRS219.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS219{"GRS219", "duplicate-untyped-records", Severity::error, Effect::fatal, Daemon::slurmd,
                      "two gres.conf lines of a GRES with neither File= nor Type=: slurmd exits"};

// gres.c:_validate_gres_conf: at most one record of a name with neither File= nor Type=.
Outcome check_grs219(const GresNameView& v, Findings& out) {
  const auto& recs = v.records;
  auto bare = [](const GresRecord& r) { return !r.files && !r.type; };
  if (std::count_if(recs.begin(), recs.end(), bare) <= 1) return Outcome::proceed();
  // Past 217 and 218 every record is bare, so this is the second one.
  const GresRecord& second = *std::find_if(recs.begin() + 1, recs.end(), bare);
  return v.fatal_record(out, GRS219, second,
                        fmt::format("a second {} line with neither File= nor Type= for {}", v.name, kNodes),
                        fmt::format("gres.conf duplicate records for {}", v.name),
                        "keep one such line (AutoDetect needs no Name= line at all)");
}

}  // namespace greslint::rules
