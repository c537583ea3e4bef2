// SPDX-License-Identifier: Apache-2.0
// GRS117 shared-gres-count-without-gpu: a node's Gres= counts mps or shard but no gpu: slurmctld logs it at start-up, naming no node (docs/rules/GRS117.md).
#include <fmt/format.h>

#include "model/shared_gres.hpp"
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS117{"GRS117", "shared-gres-count-without-gpu", Severity::warning, Effect::degraded,
                      Daemon::slurmctld,
                      "a node's Gres= counts mps or shard but no gpu: slurmctld logs it at start-up, naming no node"};

// gres_init_node_config builds each node's GRES from its slurm.conf Gres= and pairs a shared
// GRES (mps, shard) with the gpu that shares its devices; with a shared count and no gpu
// count it logs an error that names no node (s2042 m86). slurmd on the node then fails to
// merge the two (GRS314); every other node only finds the line in slurmctld's log.
Outcome check_grs117(const NodeGresView& v, Findings& out) {
  auto counted = [&](const std::string& name) {
    auto it = v.configured.find(name);
    return it != v.configured.end() && it->second.total > 0;
  };
  if (counted("gpu")) return Outcome::proceed();
  // The context loop keeps the last shared GRES it meets.
  const std::string* shared = nullptr;
  for (const std::string& name : v.grestypes)
    if (model::is_shared_name(name) && counted(name)) shared = &name;
  if (!shared) return Outcome::proceed();
  out.report(GRS117, v.node.gres_span,
             fmt::format("Gres= on {} counts {} but no gpu for it to share; slurmctld logs that at start-up "
                         "without naming the nodes",
                         kNodes, *shared))
      .slurm(fmt::format("we have a shared gres of '{}' but no gres that is sharing", *shared))
      .help(fmt::format("count the GPUs the {} shares in Gres= (gpu:N,{}:M)", *shared, *shared));
  return Outcome::degraded();
}

}  // namespace greslint::rules
