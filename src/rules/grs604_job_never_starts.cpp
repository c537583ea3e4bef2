// SPDX-License-Identifier: Apache-2.0
// GRS604 job-never-starts: slurmctld accepts the job but it can never start as the
// cluster is configured (more nodes than the partition allows or has); docs/rules/GRS604.md.
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS604{"GRS604", "job-never-starts", Severity::error, Effect::pends, Daemon::slurmctld,
                      "the job is accepted but can never start: it pends for ever"};

namespace {

bool over_max_nodes(const JobView& v, const PartitionFit& f) {
  return f.partition->max_nodes && *f.partition->max_nodes < v.job.min_nodes;
}

/// Every node of the partition fits, but it has fewer than the job asks for.
bool partition_too_small(const JobView& v, const PartitionFit& f) {
  return !f.nodes.empty() && f.nodes.size() == f.partition->nodes.size() && f.nodes.size() < v.job.min_nodes;
}

/// _parse_partitionname reads State= by its first letters: DOWN... is down.
bool is_down(const job::JobPartition& p) {
  return p.state.size() >= 4 && iequals(std::string_view(p.state).substr(0, 4), "DOWN");
}

}  // namespace

JobOutcome check_grs604(const JobView& v, Reporter& out) {
  // _valid_job_part lets a job past the partition's node limits in (unless
  // EnforcePartLimits); the scheduler then leaves it PENDING (PartitionConfig, later
  // PartitionNodeLimit). 24.11 tests a job that wants more nodes than the partition has
  // at submission, and refuses it (GRS602; live case typed/nodes_too_many).
  const PartitionFit* limited = nullptr;
  const PartitionFit* down = nullptr;
  for (const PartitionFit& f : v.fits) {
    // A DOWN partition takes the job, and the scheduler's first pass (batch_sched_delay
    // after the submission) leaves it PENDING with PartitionDown: live case untyped/down_partition.
    if (f.enough && !over_max_nodes(v, f) && is_down(*f.partition)) {
      if (!down) down = &f;
      continue;
    }
    if (f.enough && !over_max_nodes(v, f)) return JobOutcome::accepted();
    const bool small = partition_too_small(v, f) && v.version != SlurmVersion{24, 11};
    if (!limited && ((f.enough && over_max_nodes(v, f)) || small)) limited = &f;
  }
  if (!limited && down) {
    out.report(GRS604, job_span(v, v.job.partition_option),
               fmt::format("partition {} is State=DOWN: the job waits until an admin sets it UP", down->partition->name))
        .slurm("PartitionDown")
        .help(fmt::format("submit to a partition that is UP, or set it UP (scontrol update PartitionName={} State=UP)",
                          down->partition->name));
    return JobOutcome::pends("PartitionDown");
  }
  if (!limited) return JobOutcome::accepted();
  const job::JobPartition& p = *limited->partition;
  const std::string message =
      over_max_nodes(v, *limited)
          ? fmt::format("the job asks for {} nodes, partition {} allows {} (MaxNodes)", v.job.min_nodes, p.name,
                        *p.max_nodes)
          : fmt::format("the job asks for {} nodes, partition {} has {}", v.job.min_nodes, p.name, p.nodes.size());
  const job::JobOption* nodes = v.script.last("nodes");
  out.report(GRS604, job_span(v, nodes ? nodes : v.job.partition_option), message)
      .slurm("PartitionConfig")
      .help("ask for at most as many nodes as the partition has and allows");
  return JobOutcome::pends("PartitionConfig");
}

}  // namespace greslint::rules
