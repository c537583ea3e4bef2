// SPDX-License-Identifier: Apache-2.0
// GRS315 cores-on-some-records: only some gres.conf lines of a GRES have Cores=: the others bind to any core (docs/rules/GRS315.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS315{"GRS315", "cores-on-some-records", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "only some gres.conf lines of a GRES have Cores=: the others bind to any core"};

// slurmctld's walk of the records logs a record without Cores= only once a record before it
// had one: Cores= on the later records only is silent (live, 22.05 and 24.11).
Outcome check_grs315(const RegistrationView& v, Findings& out) {
  const auto& recs = v.records;
  const auto end = recs.begin() + std::ptrdiff_t(v.walk_end());
  const auto with_cores = std::find_if(recs.begin(), end, [](const GresRecord& r) { return r.cores.has_value(); });
  const auto odd_at = std::find_if(with_cores, end, [](const GresRecord& r) { return !r.cores; });
  if (odd_at == end) return Outcome::proceed();
  const GresRecord& odd = *odd_at;
  out.report(GRS315, odd.line ? odd.line->d->head().value_span : odd.origin,
             fmt::format("this {} line has no Cores= while other lines for {} have one; its GPUs may be "
                         "bound to any core", v.name, kNodes))
      .slurm(fmt::format("{}: gres/{}: has CPUs configured for only some of the records on node {}",
                         v.profile.version() >= kSlurm2411 ? "_foreach_rebuild_topo" : "_node_config_validate", v.name,
                         v.rep))
      .help("give every line Cores= (or none)");
  return Outcome::degraded();
}

}  // namespace greslint::rules
