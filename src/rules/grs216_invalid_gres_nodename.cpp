// SPDX-License-Identifier: Apache-2.0
// GRS216 invalid-gres-nodename: gres.conf NodeName= is not a valid hostlist: the line is
// silently skipped on every node (docs/rules/GRS216.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS216{"GRS216", "invalid-gres-nodename", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf NodeName= is not a valid hostlist: the line is silently skipped on every node"};

// gres.c:_parse_gres_config makes a hostlist of NodeName= to find the node's own name in;
// when hostlist_create fails, the line is skipped, on every node.
Outcome check_grs216(const GresConfLineView& v, Findings& out) {
  if (!v.node_names || v.node_names->ok()) return Outcome::proceed();
  const std::vector<HostlistError>& errors = v.node_names->errors;
  out.report(GRS216, v.d.head().value_span,
             fmt::format("NodeName={} is not a valid hostlist, so Slurm skips this line on every node", v.d.head().value))
      .slurm(!errors.empty() && errors.front().slurm_logs ? errors.front().message : std::string())
      .help("fix the bracket expression; it must name slurm.conf NodeNames exactly");
  return Outcome::skip_record();
}

}  // namespace greslint::rules
