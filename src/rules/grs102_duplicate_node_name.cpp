// SPDX-License-Identifier: Apache-2.0
// GRS102 duplicate-node-name: a node is defined on more than one NodeName line: the daemons refuse the configuration (docs/rules/GRS102.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS102{"GRS102", "duplicate-node-name", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a node is defined on more than one NodeName line: the daemons refuse the configuration"};

// The model keeps the first definition of a name and lists the others for this check. Two
// places in slurmctld refuse a name given twice: the node records (node_conf.c, "Duplicated
// NodeHostName"), and the name table (read_config.c, "Duplicated NodeName"), which holds
// every NodeName line's names at once. slurmctld makes the records one name at a time and
// looks each new name up first; the first lookup that finds nothing (the second name of the
// file, unless it repeats the first) builds the name table, which then meets the file's first
// repeated name. So the records speak only when the second name repeats the first. Live on
// 22.05, 24.11 and 26.05: cases a10, a10d, a10e, rw93 (a repeat after single-name lines).
Outcome check_grs102(const NodeNameLineView& v, Findings& out) {
  if (v.duplicates.empty()) return Outcome::proceed();
  const bool node_records_first =
      v.profile.duplicate_node_message_is_hostname() || v.duplicates.front().position == 1;
  std::string first_reason;
  for (const DuplicateNode& d : v.duplicates) {
    const std::string& host = v.node_names[d.node];
    std::string slurm = node_records_first
                            ? fmt::format("Duplicated NodeHostName {} in config file", host)
                            : fmt::format("Duplicated NodeName {} in the config file", host);
    out.report(GRS102, d.span, fmt::format("node {} is defined twice", host))
        .slurm(slurm)
        .nodes(host)
        .help("define each node on exactly one NodeName line");
    if (first_reason.empty()) first_reason = std::move(slurm);
  }
  return Outcome::slurmctld_fatal(std::move(first_reason));
}

}  // namespace greslint::rules
