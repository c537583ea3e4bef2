// SPDX-License-Identifier: Apache-2.0
// GRS116 mixed-typed-untyped-gres: slurm.conf Gres= mixes typed and untyped counts of one GRES: slurmd exits (docs/rules/GRS116.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS116{"GRS116", "mixed-typed-untyped-gres", Severity::error, Effect::fatal, Daemon::slurmd,
                      "slurm.conf Gres= mixes typed and untyped counts of one GRES: slurmd exits"};

// gres.c:_foreach_slurm_conf (slurmd only): a name's typed counts must add up to its total.
Outcome check_grs116(const GresLoadView& v, Findings& out) {
  for (const std::string& name : v.load.grestypes) {
    const auto it = v.configured.find(name);
    if (it == v.configured.end()) continue;
    const GresCount& c = it->second;
    if (c.types.empty() || c.total <= c.typed_sum()) continue;
    std::string slurm = fmt::format(
        "_foreach_slurm_conf: Some {} GRES in slurm.conf have a type while others do not "
        "(gres_ns->gres_cnt_config ({}) > tmp_count ({}))",
        name, c.total, c.typed_sum());
    v.load
        .report(out, GRS116, v.load.node.gres_span,
                fmt::format("Gres= mixes typed and untyped {} counts ({} in all, {} typed)", name, c.total,
                            c.typed_sum()))
        .slurm(slurm)
        .help(fmt::format("give every {} count a type, or none", name));
    return Outcome::slurmd_fatal(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
