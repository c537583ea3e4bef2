// SPDX-License-Identifier: Apache-2.0
// GRS315 cores-on-some-records: only some gres.conf lines of a GRES have Cores=: the others bind to any core (docs/rules/GRS315.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS315{"GRS315", "cores-on-some-records", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "only some gres.conf lines of a GRES have Cores=: the others bind to any core"};

Outcome check_grs315(const RegistrationView& v, Findings& out) {
  const auto& recs = v.records;
  const auto with_cores = std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.cores.has_value(); });
  if (with_cores == 0 || with_cores == std::ptrdiff_t(recs.size())) return Outcome::proceed();
  const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.cores; });
  out.report(GRS315, odd.line ? odd.line->d->head().value_span : odd.origin,
             fmt::format("this {} line has no Cores= while other lines for {} have one; its GPUs may be "
                         "bound to any core", v.name, kNodes))
      .slurm(fmt::format("_node_config_validate: gres/{}: has CPUs configured for only some of the records on node {}",
                         v.name, v.rep))
      .help("give every line Cores= (or none)");
  return Outcome::degraded();
}

}  // namespace greslint::rules
