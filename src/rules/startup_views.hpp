// SPDX-License-Identifier: Apache-2.0
// What the start-up checks of docs/startup-checks.md see. Each view is one step of
// slurmctld's start-up: the values read_config.c checks once slurm.conf is parsed, the
// select plugin it loads, what read_slurm_conf builds from the node and partition lines,
// and cgroup.conf. Views only point at model data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/model_types.hpp"
#include "greslint/version.hpp"

namespace greslint::rules {

/// slurm.conf's top-level values as read_config.c:_validate_and_set_defaults checks them,
/// after the whole file was parsed (whether or not parsing failed).
struct SlurmConfView {
  const VersionProfile& profile;
  const Settings& settings;
  const ConfigFile& slurm;  ///< for the record keys (SlurmctldHost), which are not settings
  Span top;                 ///< slurm.conf's first line: where a finding about a missing key points
};

/// Whether `file` has a record line starting with `key` (case-insensitive).
bool has_record(const ConfigFile& file, std::string_view key);

/// The SelectType plugin as select_g_init loads it.
struct SelectPluginView {
  const VersionProfile& profile;
  const Settings& settings;
  const KeyValue* select;   ///< SelectType=, or null for the release's default
  std::string select_type;  ///< as written, or the default
};

/// One NodeName line's nodes and corrected topology, for the select plugin's node init.
struct NodeTopology {
  std::string first_node;  ///< the first name the line defines (Slurm names it)
  const NodeLine* line;
};

/// What read_slurm_conf built from the NodeName and PartitionName lines.
struct NodeTableView {
  const VersionProfile& profile;
  const Settings& settings;
  Span top;                                   ///< slurm.conf's first line
  std::string slurm_conf_path;                ///< as slurmctld names it in its messages
  std::uint64_t node_count;                   ///< distinct nodes defined
  std::vector<NodeTopology> lines;            ///< NodeName lines in file order
  std::vector<const Directive*> partitions;   ///< PartitionName lines (DEFAULT excluded)
};

/// cgroup.conf as cgroup.c reads it, at the start of read_slurm_conf.
struct CgroupConfView {
  const VersionProfile& profile;
  const ConfigFile& cgroup;
};

}  // namespace greslint::rules
