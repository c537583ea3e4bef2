// SPDX-License-Identifier: Apache-2.0
// GRS408 gpu-node-in-no-partition: GPU nodes that no partition offers (docs/rules/GRS408.md).
#include <algorithm>
#include <fmt/format.h>

#include "greslint/hostlist.hpp"
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS408{"GRS408", "gpu-node-in-no-partition", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "GPU nodes that no partition offers"};

// slurmctld/read_config.c: a node in no partition's bitmap takes no job. Not said when there
// is no partition (GRS128) or a partition's Feature= NodeSet leaves its nodes unknown.
Outcome check_grs408(const PolicyView& v, Findings& out) {
  const PartitionCover* cover = v.partitions;
  if (!cover || !cover->any_partition || cover->opaque) return Outcome::proceed();
  const GpuNodes& g = v.gpus;
  std::vector<std::string> stranded;
  for (std::uint32_t n = 0; n < g.names.size(); ++n)
    if (!cover->offered[n] && g.has_gpu(n)) stranded.push_back(g.names[n]);
  if (stranded.empty()) return Outcome::proceed();
  auto first = std::find(g.names.begin(), g.names.end(), stranded.front());
  const Span where = g.lines[g.line_of[std::size_t(first - g.names.begin())]].gres_span;
  out.report(GRS408, where,
             fmt::format("GPU nodes {} are in no partition, so no job can use their GPUs", fold_hostnames(stranded)))
      .nodes(fold_hostnames(stranded))
      .help("add them to a partition's Nodes=");
  return Outcome::degraded();
}

}  // namespace greslint::rules
