// SPDX-License-Identifier: Apache-2.0
// GRS103 reserved-node-name: NodeName=ALL is reserved: the daemons refuse the configuration (docs/rules/GRS103.md).
#include <fmt/format.h>

#include <optional>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS103{"GRS103", "reserved-node-name", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeName=ALL is reserved: the daemons refuse the configuration"};

// ALL stands for every node in partitions and commands, so no node may be called that.
// _parse_nodename is a record handler: it fatal()s as soon as s_p_parse_file reaches the
// line, before the rest of the file is read, before any value check or plugin, so the
// first such line decides over every other error of the configuration.
Outcome check_grs103(const SlurmConfView& v, Findings& out) {
  std::optional<std::string> first;
  for (const Directive* line : v.index.records("NodeName")) {
    const Directive& d = *line;
    if (!iequals(d.head().value, "ALL")) continue;
    const KeyValue& head = d.head();
    std::string slurm = fmt::format("'{}' is a reserved word disallowed for use with NodeName", head.value);
    out.report(GRS103, head.value_span, fmt::format("NodeName={} is a reserved word", head.value))
        .slurm(slurm)
        .help("rename the node");
    if (!first) first = std::move(slurm);
  }
  return first ? Outcome::slurmctld_fatal_replacing(std::move(*first)) : Outcome::proceed();
}

}  // namespace greslint::rules
