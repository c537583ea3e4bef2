// SPDX-License-Identifier: Apache-2.0
// GRS312 links-longer-than-gpus: a Links= list has more entries than the node has GPUs: the node is drained (docs/rules/GRS312.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS312{"GRS312", "links-longer-than-gpus", Severity::error, Effect::drain, Daemon::slurmctld,
                      "a Links= list has more entries than the node has GPUs: the node is drained"};

// A Links list longer than the GPUs the node reports: the first such record drains it.
// slurmctld reads a record's Links= after its Cores= and before the next record's, so only
// the records its walk reaches count, and the first of them sets the reason before a later
// record's Cores= could (s2031 m304: Links on the first GPU, Cores=32-64 on the second).
Outcome check_grs312(const RegistrationView& v, Findings& out) {
  const std::size_t end = v.walk_end();
  for (std::size_t i = 0; i < end; ++i) {
    const GresRecord& r = v.records[i];
    if (!r.links) continue;
    const auto entries = split_commas(*r.links).size();
    if (entries <= v.reported) continue;
    std::string slurm = fmt::format("Invalid GRES Links value ({}) on node {}: i={} >= link_len={}.", *r.links, kNode,
                                    v.reported, v.reported);
    out.report(GRS312, r.span_of("Links"),
               fmt::format("Links={} has {} entries but {} report {} {}", *r.links, entries, kNodes, v.reported, v.name))
        .slurm(slurm)
        .help(fmt::format("give exactly one entry per {} on the node", v.name));
    return Outcome::drain(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
