// SPDX-License-Identifier: Apache-2.0
// GRS602 job-no-node-fits: no node of the partitions the job asks for has what it
// requests (GPUs per node, CPUs or memory per GPU, features); docs/rules/GRS602.md.
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS602{"GRS602", "job-no-node-fits", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "no node of the requested partitions can satisfy the job: sbatch fails"};

namespace {

/// Why the partition cannot run the job, from its first node.
std::string why_not(const JobView& v, const PartitionFit& f) {
  const job::JobPartition& p = *f.partition;
  if (p.nodes.empty()) return fmt::format("partition {} has no nodes", p.name);
  if (f.nodes.empty()) {
    const job::JobNode& first = v.cluster.nodes[p.nodes.front()];
    const std::string why = job::fits_node(v.job, first).why;
    return fmt::format("in partition {}, {}{} {}", p.name, first.name,
                       p.nodes.size() > 1 ? fmt::format(" (and {} more node{})", p.nodes.size() - 1, p.nodes.size() > 2 ? "s" : "")
                                         : "",
                       why);
  }
  if (v.gpus_per_job > f.gpus)
    return fmt::format("partition {} has {} GPUs that fit, the job asks for {}", p.name, f.gpus, v.gpus_per_job);
  return fmt::format("partition {} has {} nodes that fit, the job asks for {}", p.name, f.nodes.size(),
                     v.job.min_nodes);
}

}  // namespace

JobOutcome check_grs602(const JobView& v, Reporter& out) {
  if (v.fits.empty()) return JobOutcome::accepted();  // GRS607 said why
  for (const PartitionFit& f : v.fits)
    if (f.enough) return JobOutcome::accepted();
  std::string why;
  for (const PartitionFit& f : v.fits) why += (why.empty() ? "" : "; ") + why_not(v, f);
  const job::JobOption* o = v.job.gpus_option ? v.job.gpus_option : v.job.gres_option;
  out.report(GRS602, job_span(v, o ? o : v.job.partition_option), "no node can run the job: " + why)
      .slurm(std::string(kNodeConfigUnavailable))
      .help("ask for what one node of the partition has, or another partition");
  return JobOutcome::rejected(std::string(kNodeConfigUnavailable));
}

}  // namespace greslint::rules
