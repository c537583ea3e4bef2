// SPDX-License-Identifier: Apache-2.0
// GRS131 duplicate-partition: two PartitionName lines with one name: slurmctld exits
// (docs/rules/GRS131.md).
#include <fmt/format.h>

#include <unordered_map>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS131{"GRS131", "duplicate-partition", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "two PartitionName lines with the same name: slurmctld exits"};

// Partition names compare case-sensitively (list_find_first with xstrcmp).
Outcome check_grs131_duplicate_partition(const NodeTableView& v, Findings& out) {
  std::unordered_map<std::string, const Directive*> seen;
  for (const Directive* d : v.partitions) {
    auto [it, fresh] = seen.emplace(d->head().value, d);
    if (fresh) continue;
    const std::string line =
        fmt::format("_build_single_partitionline_info: duplicate entry for partition {}", d->head().value);
    out.report(GRS131, d->head().value_span, fmt::format("partition {} is defined twice", d->head().value))
        .slurm(line)
        .related(it->second->head().value_span, "first defined here")
        .help("merge the two lines, or rename one partition (PartitionName=DEFAULT sets shared values)");
    return Outcome::slurmctld_fatal(line);
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
