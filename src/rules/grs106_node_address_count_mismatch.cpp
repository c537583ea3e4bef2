// SPDX-License-Identifier: Apache-2.0
// GRS106 node-address-count-mismatch: NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration (docs/rules/GRS106.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS106{"GRS106", "node-address-count-mismatch", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration"};

// Addresses pair with names one to one, or one address serves every name.
Outcome check_grs106(const NodeAddressView& v, Findings& out) {
  if (!v.list.ok() || v.list.list->size() == v.node_count || v.list.list->size() <= 1) return Outcome::proceed();
  const std::string_view key = v.kv.spec->name;
  std::string slurm = fmt::format("{} count must equal that of NodeName records {} there must be no more than one", key,
                                  v.profile.version() < kSlurm2302 ? "of" : "or");
  out.report(GRS106, v.kv.value_span,
             fmt::format("{}={} names {} addresses for {} nodes", key, v.kv.value, v.list.list->size(), v.node_count))
      .slurm(slurm)
      .related(v.names_span, fmt::format("{} nodes here", v.node_count))
      .help(fmt::format("give exactly {} entries, or one", v.node_count));
  return Outcome::slurmctld_fatal_replacing(std::move(slurm));
}

}  // namespace greslint::rules
