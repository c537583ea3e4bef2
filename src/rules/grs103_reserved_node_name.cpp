// SPDX-License-Identifier: Apache-2.0
// GRS103 reserved-node-name: NodeName=ALL is reserved: the daemons refuse the configuration (docs/rules/GRS103.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS103{"GRS103", "reserved-node-name", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeName=ALL is reserved: the daemons refuse the configuration"};

// ALL stands for every node in partitions and commands, so no node may be called that.
Outcome check_grs103(const NodeNameLineView& v, Findings& out) {
  if (v.kind != NodeNameLineView::Kind::reserved_name) return Outcome::proceed();
  const KeyValue& head = v.d.head();
  std::string slurm = fmt::format("'{}' is a reserved word disallowed for use with NodeName", head.value);
  out.report(GRS103, head.value_span, fmt::format("NodeName={} is a reserved word", head.value))
      .slurm(slurm)
      .help("rename the node");
  return Outcome::slurmctld_fatal_replacing(std::move(slurm));
}

}  // namespace greslint::rules
