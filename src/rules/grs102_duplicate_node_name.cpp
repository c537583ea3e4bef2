// SPDX-License-Identifier: Apache-2.0
// GRS102 duplicate-node-name: a node is defined on more than one NodeName line: the daemons refuse the configuration (docs/rules/GRS102.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS102{"GRS102", "duplicate-node-name", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a node is defined on more than one NodeName line: the daemons refuse the configuration"};

// The model keeps the first definition of a name and records the others (NodeLine::duplicates).
Outcome check_grs102(const NodeNameLineView& v, Findings& out) {
  if (!v.line || v.line->duplicates.empty()) return Outcome::proceed();
  std::string first_reason;
  for (const DuplicateNode& dup : v.line->duplicates) {
    std::string slurm = v.profile.duplicate_node_message_is_hostname()
                            ? fmt::format("Duplicated NodeHostName {} in config file", dup.host)
                            : fmt::format("Duplicated NodeName {} in the config file", dup.host);
    out.report(GRS102, dup.span, fmt::format("node {} is defined twice", dup.host))
        .slurm(slurm)
        .nodes(dup.host)
        .help("define each node on exactly one NodeName line");
    if (first_reason.empty()) first_reason = std::move(slurm);
  }
  return Outcome::slurmctld_fatal(std::move(first_reason));
}

}  // namespace greslint::rules
