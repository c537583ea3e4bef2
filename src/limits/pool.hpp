// SPDX-License-Identifier: Apache-2.0
// What slurmctld knows about the GPU pool that the limits are checked against: which TRES it
// tracks (AccountingStorageTRES), what AccountingStorageEnforce enforces, the GPU types of
// the nodes and each partition's GPUs and QOS settings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/model.hpp"
#include "job/job_model.hpp"

namespace greslint::limits {

struct PoolPartition {
  std::string name;
  Span span;                           ///< the PartitionName= value
  const KeyValue* qos = nullptr;       ///< QOS= (the partition QOS)
  const KeyValue* allow_qos = nullptr; ///< AllowQos=
  std::uint64_t max_node_gpus = 0;     ///< the most GPUs one node of it has
  std::uint64_t gpus = 0;              ///< all its nodes' GPUs
  std::uint32_t nodes = 0;
  std::optional<std::uint64_t> default_time, max_time;  ///< minutes; nullopt: not set / UNLIMITED
};

/// A Slurm time ("90", "1:30:00", "2-12", "2-12:30:00") in minutes, as slurm_time_str2mins;
/// nullopt for UNLIMITED/INFINITE or text it cannot read.
std::optional<std::uint64_t> time_minutes(std::string_view text);

struct Pool {
  Span top;  ///< slurm.conf's first byte
  std::string cluster_name;
  bool slurmdbd = false;  ///< AccountingStorageType=accounting_storage/slurmdbd
  const KeyValue* tres_setting = nullptr;
  const KeyValue* enforce_setting = nullptr;
  std::vector<std::string> tracked;  ///< AccountingStorageTRES items beyond the defaults
  bool enforce_assocs = false, enforce_limits = false, enforce_qos = false, enforce_safe = false;
  std::vector<std::string> gpu_types;  ///< every GPU type a node's Gres= names, as written
  bool untyped_gpus = false;           ///< some node has GPUs without a type
  std::uint64_t max_node_gpus = 0;
  std::uint64_t total_gpus = 0;
  std::vector<PoolPartition> partitions;
  bool enforce_part_limits = false;  ///< EnforcePartLimits other than NO

  /// Whether slurmctld tracks TRES `name` (case-insensitive; the defaults cpu, mem, ...).
  bool tracks(std::string_view name) const;
  const PoolPartition* partition(std::string_view name) const;
};

Pool pool_of(const Cluster& cluster, const job::JobCluster& jobs);

/// "gres/gpu" or "gres/gpu:TYPE" (any case): a GPU TRES. `type` gets TYPE (empty untyped).
bool is_gpu_tres(std::string_view name, std::string_view* type = nullptr);

}  // namespace greslint::limits
