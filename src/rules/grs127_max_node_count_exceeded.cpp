// SPDX-License-Identifier: Apache-2.0
// GRS127 max-node-count-exceeded: MaxNodeCount is below the number of nodes slurm.conf
// defines: slurmctld cannot build its node table (docs/rules/GRS127.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS127{"GRS127", "max-node-count-exceeded", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "MaxNodeCount is below the number of defined nodes: slurmctld cannot start"};

// MaxNodeCount sizes the node table (GRS124 refuses it without cons_tres, before this). Up
// to 24.05 the node past the limit is a null record and slurmctld crashes on it (22.05.8:
// SIGSEGV with no fatal line, recorded as "slurmctld exited"); from 24.11 read_slurm_conf
// fails with ESLURM_NODE_TABLE_FULL.
Outcome check_grs127_max_node_count(const NodeTableView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("MaxNodeCount");
  const auto limit = kv ? slurm_number(kv->value) : std::nullopt;
  if (!limit || *limit <= 0 || std::uint64_t(*limit) >= v.node_count) return Outcome::proceed();
  const bool crashes = v.profile.version() < kSlurm2411;
  const std::string logged = crashes ? fmt::format("Attempting to create node record past MaxNodeCount:{}", *limit)
                                     : fmt::format("Attempting to create nodes past max node limit ({})", *limit);
  out.report(GRS127, kv->value_span,
             fmt::format("MaxNodeCount={} but slurm.conf defines {} nodes{}", *limit, v.node_count,
                         crashes ? "; slurmctld crashes building its node table" : ""))
      .slurm(logged)
      .help(fmt::format("raise MaxNodeCount to at least {} (it counts the defined nodes too)", v.node_count));
  if (crashes) return Outcome::slurmctld_fatal("slurmctld exited");
  return Outcome::slurmctld_fatal(fmt::format("read_slurm_conf reading {}: Unable to add node, node table is full",
                                              v.slurm_conf_path));
}

}  // namespace greslint::rules
