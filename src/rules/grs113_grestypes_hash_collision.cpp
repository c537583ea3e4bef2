// SPDX-License-Identifier: Apache-2.0
// GRS113 grestypes-hash-collision: two GresTypes names hash to the same plugin id: every daemon exits (docs/rules/GRS113.md).
#include <cstdint>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS113{"GRS113", "grestypes-hash-collision", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "two GresTypes names hash to the same plugin id: every daemon exits"};

namespace {
/// gres_build_id: the hash Slurm identifies GRES plugins (and types) by.
std::uint32_t gres_build_id(std::string_view name) {
  std::uint32_t id = 0;
  for (std::size_t i = 0; i < name.size(); ++i) id += std::uint32_t(static_cast<unsigned char>(name[i])) << ((i % 4) * 8);
  return id;
}
}  // namespace

// Plugins are told apart by a hash of their name; gres_init stops at the first two that
// collide.
Outcome check_grs113(const GresTypesView& v, Findings& out) {
  if (v.slurmctld_failed) return Outcome::proceed();
  std::vector<std::string> all = v.names;
  all.insert(all.end(), v.shared.begin(), v.shared.end());
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      const std::uint32_t id = gres_build_id(all[i]);
      if (id != gres_build_id(all[j])) continue;
      std::string slurm = fmt::format("Gres: Duplicate plugin_id {} for gres/{} and gres/{}, change gres name for one of them",
                                      id, all[i], all[j]);
      out.report(GRS113, v.gres_types.value_span,
                 fmt::format("GRES names {} and {} hash to the same plugin id {}", all[i], all[j], id))
          .slurm(slurm)
          .help("rename one of them");
      return Outcome::slurmctld_fatal(std::move(slurm));
    }
  return Outcome::proceed();
}

}  // namespace greslint::rules
