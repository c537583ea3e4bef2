// SPDX-License-Identifier: Apache-2.0
// GRS108 partition-unknown-node: a partition names a node no NodeName line defines: slurmctld exits (docs/rules/GRS108.md).
#include <fmt/format.h>

#include "greslint/hostlist.hpp"
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS108{"GRS108", "partition-unknown-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a partition names a node no NodeName line defines: slurmctld exits"};

// slurmctld resolves every partition's Nodes= against the nodes and NodeSets it knows (A14).
// A Nodes= that is no hostlist for the release (22.05 reads no text after `]`) fails there too:
// nodespec_to_hostlist logs "hostlist_create() error" and returns nothing (s2402 m210).
Outcome check_grs108(const PartitionView& v, Findings& out) {
  if (v.unknown.empty() && !v.invalid) return Outcome::proceed();
  std::string slurm = fmt::format("Invalid node names in partition {}", v.d.head().value);
  if (v.invalid) {
    out.report(GRS108, v.invalid->span.valid() ? v.invalid->span : v.nodes.value_span,
               fmt::format("partition {}: Nodes={} is not a valid hostlist: {}", v.d.head().value, v.nodes.value,
                           v.invalid->message))
        .slurm(slurm)
        .help("fix the bracket expression (e.g. gpu[01-16]), or separate the names with commas");
    return Outcome::slurmctld_fatal(std::move(slurm));
  }
  out.report(GRS108, v.nodes.value_span,
             fmt::format("partition {} names nodes that no NodeName line defines: {}", v.d.head().value,
                         fold_hostnames(v.unknown)))
      .slurm(slurm)
      .help("add the nodes to a NodeName line, or remove them from Nodes=");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
