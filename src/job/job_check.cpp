// SPDX-License-Identifier: Apache-2.0
#include "job/job_check.hpp"

#include "rules/limits_rules.hpp"
#include "rules/stages.hpp"

namespace greslint {
namespace rules {

Span job_span(const JobView& v, const job::JobOption* o) {
  if (o) return o->span;
  return Span{v.script.file, 0, 0};
}

}  // namespace rules

namespace job {
namespace {

/// The GPUs of `nodes` that the job's typed or untyped GPU request can use.
std::uint64_t usable_gpus(const JobRequest& job, const JobCluster& cluster, const std::vector<std::uint32_t>& nodes) {
  std::string type;
  for (const GresAsk& a : job.asks)
    if (a.name == "gpu" && (a.per == GresAsk::Per::job || a.per == GresAsk::Per::task)) type = a.type;
  std::uint64_t gpus = 0;
  for (std::uint32_t n : nodes) gpus += cluster.nodes[n].count("gpu", type);
  return gpus;
}

std::vector<rules::PartitionFit> partition_fits(const JobRequest& job, const JobCluster& cluster,
                                                std::uint64_t gpus_per_job) {
  std::vector<const JobPartition*> parts;
  if (job.partitions.empty()) {
    if (const JobPartition* p = cluster.default_partition()) parts.push_back(p);
  }
  for (const std::string& name : job.partitions)
    if (const JobPartition* p = cluster.partition(name)) parts.push_back(p);
  std::vector<rules::PartitionFit> fits;
  for (const JobPartition* p : parts) {
    rules::PartitionFit f;
    f.partition = p;
    f.nodes = fitting_nodes(job, cluster, *p);
    f.gpus = usable_gpus(job, cluster, f.nodes);
    f.enough = f.nodes.size() >= job.min_nodes && f.gpus >= gpus_per_job;
    fits.push_back(std::move(f));
  }
  return fits;
}

}  // namespace

rules::JobOutcome check_job(const JobScript& script, const JobCluster& cluster, SlurmVersion version,
                            Reporter& out, const rules::JobLimits* limits) {
  const JobRequest job = read_request(script, cluster, version);
  // The GPUs the whole job needs: --gpus, or --gpus-per-task times the tasks.
  std::uint64_t gpus_per_job = 0;
  for (const GresAsk& a : job.asks) {
    if (a.name != "gpu") continue;
    if (a.per == GresAsk::Per::job) gpus_per_job += a.count;
    if (a.per == GresAsk::Per::task && job.ntasks) gpus_per_job += a.count * *job.ntasks;
  }
  const rules::JobView view{version, script, job, cluster, partition_fits(job, cluster, gpus_per_job), gpus_per_job};
  rules::JobOutcome outcome = rules::JobOutcome::accepted();
  for (const auto& check : rules::kJobSubmissionStage) {
    outcome = check.run(view, out);
    if (outcome.kind() != rules::JobOutcome::Kind::accepted) break;
    // The limits checks slurmctld makes right after this one (--limits).
    if (limits) {
      const rules::JobLimitsView lv{view, *limits};
      for (const auto& lc : rules::kJobLimitsStage) {
        if (lc.after != check.rule) continue;
        outcome = lc.run(lv, out);
        if (outcome.kind() != rules::JobOutcome::Kind::accepted) break;
      }
      if (outcome.kind() != rules::JobOutcome::Kind::accepted) break;
    }
  }
  for (const auto& check : rules::kJobScriptStage) check.run(view, out);
  return outcome;
}

}  // namespace job
}  // namespace greslint
