// SPDX-License-Identifier: Apache-2.0
// GRS600 job-placement: where the job can run (partitions, how many nodes), once nothing
// stops it; docs/rules/GRS600.md.
#include <fmt/format.h>

#include "greslint/hostlist.hpp"
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS600{"GRS600", "job-placement", Severity::note, Effect::advice, Daemon::slurmctld,
                      "where the job can run: the partitions and nodes that can satisfy it"};

JobOutcome check_grs600(const JobView& v, Reporter& out) {
  std::string where;
  for (const PartitionFit& f : v.fits) {
    if (!f.enough) continue;
    std::vector<std::string> names;
    for (std::uint32_t n : f.nodes) names.push_back(v.cluster.nodes[n].name);
    where += fmt::format("{}{} ({} of {} nodes: {})", where.empty() ? "" : ", ", f.partition->name, f.nodes.size(),
                         f.partition->nodes.size(), fold_hostnames(std::move(names)));
  }
  out.report(GRS600, job_span(v, v.job.partition_option), "the job can run in partition " + where);
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
