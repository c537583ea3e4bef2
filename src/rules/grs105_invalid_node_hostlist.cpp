// SPDX-License-Identifier: Apache-2.0
// GRS105 invalid-node-hostlist: NodeName/NodeAddr/NodeHostname is not a valid hostlist: the daemons refuse the configuration (docs/rules/GRS105.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS105{"GRS105", "invalid-node-hostlist", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeName/NodeAddr/NodeHostname is not a valid hostlist: the daemons refuse the configuration"};

// read_config.c builds the NodeName list first (NodeAddr defaults to it, A8); a list that
// does not parse, or names no host, stops the configuration.
Outcome check_grs105(const NodeNameLineView& v, Findings& out) {
  if (v.kind != NodeNameLineView::Kind::nodes || !v.names || (v.names->ok() && !v.names->list->empty()))
    return Outcome::proceed();
  const KeyValue& head = v.d.head();
  const bool has_addr = v.d.find("NodeAddr") != nullptr;
  std::string slurm = v.names->ok() ? "Empty NodeName in config."
                                    : fmt::format("Unable to create {} list from {}", has_addr ? "NodeName" : "NodeAddr",
                                                  head.value);
  const auto& errors = v.names->errors;
  out.report(GRS105, errors.empty() ? head.value_span : errors.front().span,
             fmt::format("NodeName={} is not a valid hostlist{}", head.value,
                         errors.empty() ? "" : ": " + errors.front().message))
      .slurm(slurm)
      .help("fix the bracket expression (e.g. gpu[01-16])");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

// The same for the NodeAddr= and NodeHostname= lists.
Outcome check_grs105_address(const NodeAddressView& v, Findings& out) {
  if (v.valid() || iequals(v.kv.spec->name, "BcastAddr")) return Outcome::proceed();  // BcastAddr: GRS153
  std::string slurm = fmt::format("Unable to create {} list from {}", v.kv.spec->name, v.kv.value);
  out.report(GRS105, v.kv.value_span, fmt::format("{}={} is not a valid hostlist", v.kv.spec->name, v.kv.value))
      .slurm(slurm)
      .help("fix the bracket expression");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
