// SPDX-License-Identifier: Apache-2.0
// A job's GPU request and what slurmctld holds about the cluster when the job is
// submitted: the nodes as slurm.conf describes them (no node needs to have registered:
// slurmctld tests a job against the configured nodes) and the partitions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "greslint/model.hpp"
#include "greslint/version.hpp"
#include "job/job_script.hpp"

namespace greslint::job {

/// One GRES of a node's slurm.conf Gres= (typed or not).
struct NodeGres {
  std::string name;
  std::string type;  ///< empty: untyped
  std::uint64_t count = 0;
};

/// A node as slurmctld schedules it before it registers.
struct JobNode {
  std::string name;
  std::uint32_t cpus = 1, sockets = 1;
  std::uint64_t memory_mb = 1;  ///< RealMemory= (Slurm's default 1)
  std::vector<std::string> features;
  std::vector<NodeGres> gres;
  /// Not FUTURE. slurmctld counts FUTURE nodes when it tests a job at submission (live case
  /// untyped/future_only), so a job only they fit is accepted; it starts once they exist.
  bool usable = true;
  /// The model's verdict: a node that drains at registration (or whose slurmd never
  /// starts) runs no job.
  Verdict verdict = Verdict::ok;

  /// How many of GRES `name` (of `type`; empty: any type) a job can have on the node.
  std::uint64_t count(std::string_view gres_name, std::string_view type) const;
};

struct JobPartition {
  std::string name;
  std::vector<std::uint32_t> nodes;  ///< indexes into JobCluster::nodes
  bool is_default = false;
  std::optional<std::uint32_t> max_nodes;
  std::string state = "UP";
};

struct JobCluster {
  std::vector<JobNode> nodes;
  std::vector<JobPartition> partitions;
  std::vector<std::string> grestypes;
  std::string startup_fatal;  ///< slurmctld does not start: no job is accepted

  const JobPartition* partition(std::string_view name) const;
  const JobPartition* default_partition() const;
  bool has_feature(std::string_view feature) const;
};

/// The cluster a job meets, from the configuration's model.
JobCluster job_cluster(const Cluster& cluster);

/// A request for `count` of GRES `name` (of `type`, when given), per node, per job, per
/// task or per socket.
struct GresAsk {
  enum class Per : std::uint8_t { node, job, task, socket };
  std::string name = "gpu";
  std::string type;
  std::uint64_t count = 1;
  Per per = Per::node;
  const JobOption* option = nullptr;
};

/// sbatch's GPU-related options, read and checked as Slurm reads them.
struct JobRequest {
  std::vector<std::string> partitions;  ///< empty: the default partition
  const JobOption* partition_option = nullptr;
  std::uint32_t min_nodes = 1;
  std::optional<std::uint32_t> max_nodes;
  bool nodes_given = false;
  std::optional<std::uint32_t> ntasks, ntasks_per_node, cpus_per_task, cpus_per_gpu;
  std::optional<std::uint64_t> mem_mb, mem_per_gpu_mb;
  std::vector<GresAsk> asks;
  const JobOption* gres_option = nullptr;  ///< the --gres sbatch keeps
  const JobOption* gpus_option = nullptr;  ///< the first --gpus* sbatch keeps
  const JobOption* constraint = nullptr;
  /// The first --gres item Slurm cannot read, or that names no GRES of GresTypes.
  std::optional<std::string> bad_gres;
  /// The first --constraint feature no node has.
  std::optional<std::string> bad_feature;
  /// Words of the constraint: all of them required (&, ','), or any of them (|).
  std::vector<std::string> features;
  bool any_feature = false;
  const JobOption* gres_flags = nullptr;
  SlurmVersion version;
};

JobRequest read_request(const JobScript& script, const JobCluster& cluster, SlurmVersion version);

/// How many of a node's GPUs (of GRES `name`) the job needs on one node it uses, or
/// nullopt when the node cannot hold the job's share at all (for --gpus: at most all of
/// them on the fewest nodes).
struct NodeFit {
  bool fits = false;
  std::string why;  ///< when it does not fit: the first requirement it misses
};
NodeFit fits_node(const JobRequest& job, const JobNode& node);

/// Which nodes of partition `p` can run the job (fits_node, features).
std::vector<std::uint32_t> fitting_nodes(const JobRequest& job, const JobCluster& cluster, const JobPartition& p);

}  // namespace greslint::job
