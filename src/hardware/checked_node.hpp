// SPDX-License-Identifier: Apache-2.0
// What node-check knows of one node: the gres.conf lines it reads, as the model read them,
// and the GPUs Slurm counts on its hardware. Shared by the checks, --suggest and the driver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/hardware.hpp"
#include "greslint/model.hpp"

namespace greslint::node_check {

using Cores = std::vector<std::uint32_t>;

/// One gres.conf line the node reads, with its keys as slurmd's parser takes them
/// (the model's keys_of) and its device files expanded.
struct LineFacts {
  const GresLine* line = nullptr;
  std::string name;
  std::optional<std::string> type;
  Span type_span;
  std::vector<std::string> paths;
  bool multiple_files = false;
  std::string files_text;
  Span files_span;
  std::optional<std::string> cores;
  std::string cores_key;  ///< as written: Cores or CPUs
  Span cores_span;
  Span head_span;
};

/// The gres.conf lines node `node` reads, in slurmd's record order (ConfigModel::gres_lines_of).
std::vector<LineFacts> line_facts(const ConfigModel& config, std::uint32_t node, const VersionProfile& profile);

/// slurmd's node name lookup: the short host name, then the full one, then "localhost",
/// each against NodeHostname (which defaults to NodeName); finally NodeName itself.
std::optional<std::string> match_node(const ConfigModel& config, const VersionProfile& profile,
                                      const std::string& hostname);

/// What Slurm counts as one GPU on the node: a whole GPU, or one MIG instance.
struct Unit {
  const Gpu* gpu = nullptr;
  const MigInstance* mig = nullptr;
  std::vector<std::string> files;
  std::string type;  ///< the AutoDetect type name
  Cores local;       ///< NUMA-local logical cores (all cores when unknown)
  std::string label() const;
};

std::vector<Unit> units_of(const HardwareInventory& hw);

/// Device paths folded into a hostlist ("/dev/nvidia[0-3]"); empty for none.
std::string fold_paths(std::vector<std::string> paths);
/// "0-15": the logical cores of one socket.
std::string socket_range(const CpuTopology& t, int socket);
/// The profile's socket-boundary rule in words.
std::string rule_words(const VersionProfile& p);

/// Runs the GRS5xx checks of node `node` (an index into cluster.node_names; the cluster has
/// its ConfigModel) against its hardware.
void check_node(const Cluster& cluster, const VersionProfile& profile, std::uint32_t node, const HardwareInventory& hw,
                Reporter& out);

}  // namespace greslint::node_check
