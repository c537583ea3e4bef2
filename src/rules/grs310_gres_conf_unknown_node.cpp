// SPDX-License-Identifier: Apache-2.0
// GRS310 gres-conf-unknown-node: gres.conf names nodes that slurm.conf does not define
// (docs/rules/GRS310.md).
#include <fmt/format.h>

#include "greslint/hostlist.hpp"
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS310{"GRS310", "gres-conf-unknown-node", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf names nodes that slurm.conf does not define"};

// gres.c:_parse_gres_config: each slurmd looks for its own name in NodeName=; a name no
// slurm.conf node has is read by no slurmd. One finding per group of lines that say the same.
Outcome check_grs310(const UnknownNodesView& v, Findings& out) {
  const std::size_t n = v.names.size();
  auto b = out.report(GRS310, v.line.d->head().value_span,
                      fmt::format("gres.conf names {} node{} that slurm.conf does not define: {}{}", n,
                                  n == 1 ? "" : "s", fold_hostnames(v.names), v.hint))
               .help(v.any_known ? "remove the unknown names, or define them in slurm.conf"
                                 : "this line applies to no node; use the slurm.conf NodeName spelling");
  for (const Related& r : v.echoes) b.echo(r.span, r.message, r.more);
  return Outcome::degraded();
}

}  // namespace greslint::rules
