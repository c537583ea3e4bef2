// SPDX-License-Identifier: Apache-2.0
// GRS115 bad-gres-count: a Gres= count Slurm cannot read: counting stops at that token (docs/rules/GRS115.md).
#include <fmt/format.h>

#include "greslint/report.hpp"
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS115{"GRS115", "bad-gres-count", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a Gres= count Slurm cannot read: counting stops at that token"};

// _get_gres_cnt stops counting a name at a token whose count it cannot read.
Outcome check_grs115(const NodeGresView& v, Findings& out) {
  bool bad = false;
  for (const std::string& name : v.grestypes) {
    const GresCount& c = v.configured.at(name);
    if (c.bad_token.empty()) continue;
    out.report(GRS115, v.node.gres_span,
               fmt::format("Gres token \"{}\" has a count Slurm cannot read; it stops counting {} there",
                           clipped(c.bad_token), name))
        .slurm(fmt::format("Bad GRES configuration: {}", clipped(c.bad_token)))
        .help("write the count as a number with an optional K/M/G suffix, e.g. gpu:a100:4");
    bad = true;
  }
  return bad ? Outcome::degraded() : Outcome::proceed();
}

}  // namespace greslint::rules
