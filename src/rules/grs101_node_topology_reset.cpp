// SPDX-License-Identifier: Apache-2.0
// GRS101 node-topology-reset: Slurm silently corrects a NodeName topology (Sockets/Cores/Threads/CPUs) that does not add up (docs/rules/GRS101.md).
#include <fmt/format.h>
#include <string_view>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS101{"GRS101", "node-topology-reset", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "Slurm silently corrects a NodeName topology (Sockets/Cores/Threads/CPUs) that does not add up"};

// The model applies Slurm's corrections while it derives the topology (§3.2); each one is
// a log line of slurmctld's and a layout the administrator did not write.
Outcome check_grs101(const NodeNameLineView& v, Findings& out) {
  if (!v.line) return Outcome::proceed();
  const KeyValue& head = v.d.head();
  const Topology& t = v.line->topo;
  for (const TopologyReset& reset : v.line->topology_resets) {
    std::string_view said = reset.text;
    if (!said.empty() && said.back() == '.') said.remove_suffix(1);
    out.report(GRS101, reset.at.valid() ? reset.at : head.value_span,
               fmt::format("{}; slurmctld configures {} as Sockets={} CoresPerSocket={} ThreadsPerCore={} CPUs={}", said,
                           head.value, t.sockets, t.cores, t.threads, t.cpus))
        .slurm(fmt::format("NodeNames={} {}", head.value, reset.text))
        .help("write the topology the hardware has (slurmd -C prints it): a node with fewer sockets, cores or "
              "threads than slurmctld configures is drained at registration (\"Low socket*core*thread count\")");
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
