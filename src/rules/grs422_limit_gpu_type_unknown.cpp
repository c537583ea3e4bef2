// SPDX-License-Identifier: Apache-2.0
// GRS422 limit-gpu-type-unknown: a limit on gres/gpu:TYPE where no node has GPUs of that
// type; no job can ask for them, so the limit never applies. docs/rules/GRS422.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS422{"GRS422", "limit-gpu-type-unknown", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a GPU limit names a type no node has: it never applies"};

namespace {
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t prev = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (to_lower(a[i - 1]) == to_lower(b[j - 1]) ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}
}  // namespace

Outcome check_grs422(const LimitsView& v, Findings& out) {
  if (v.pool.gpu_types.empty() && !v.pool.untyped_gpus) return Outcome::proceed();  // no GPUs: nothing to compare
  limits::each_gpu_limit(v.db, [&](const limits::LimitOwner& owner, const limits::Limit& l, const limits::Tres& t) {
    std::string_view type;
    if (!limits::is_gpu_tres(t.name, &type) || type.empty()) return;
    // TRES names compare without case (assoc_mgr_find_tres_pos): gres/gpu:A100 is a100's.
    for (const std::string& have : v.pool.gpu_types)
      if (iequals(have, type)) return;
    std::string types, nearest;
    std::size_t best = 3;
    for (const std::string& have : v.pool.gpu_types) {
      types += (types.empty() ? "" : ", ") + have;
      if (type.size() > 0 && type.size() < 64 && have.size() < 64) {
        const std::size_t d = distance(type, have);
        if (d < best) best = d, nearest = have;
      }
    }
    out.report(GRS422, t.span,
               fmt::format("{} limits gres/gpu:{} ({}), but no node has GPUs of type \"{}\" ({}): the limit applies "
                           "to no job",
                           owner.describe(), type, limits::to_string(l.kind), type,
                           types.empty() ? "the nodes' GPUs have no type" : "the nodes have " + types))
        .help(nearest.empty() ? "name a type the nodes' Gres= give" : "write gres/gpu:" + nearest);
  });
  return Outcome::proceed();
}

}  // namespace greslint::rules
