// SPDX-License-Identifier: Apache-2.0
// What a check sees: one view per step of Slurm's processing. The model fills a view with
// the data Slurm holds at that step (and the facts greslint computed about it) and hands
// it to each check of the step's list in registry.cpp. Views only point at model data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gres_parse.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/model_types.hpp"
#include "greslint/version.hpp"

namespace greslint::rules {

// ----- slurm.conf start-up (slurmctld; slurmd reads the same file) ------------------------

/// GresTypes as gres.c:gres_init loads its plugins.
struct GresTypesView {
  const VersionProfile& profile;
  const Settings& settings;
  const KeyValue& gres_types;
  std::vector<std::string> names;       ///< non-shared names, first occurrences, as written
  std::vector<std::string> shared;      ///< mps and shard, which Slurm loads after gpu
  std::vector<std::string> duplicates;  ///< names listed again, in order (Slurm skips them)
  bool slurmctld_failed;                ///< an earlier start-up step already stopped slurmctld
};

/// One slurm.conf NodeName= line as read_config.c builds its nodes.
struct NodeNameLineView {
  enum class Kind : std::uint8_t { defaults, reserved_name, nodes };
  const VersionProfile& profile;
  const Directive& d;
  Kind kind;
  const HostlistResult* names;  ///< the NodeName= list (Kind::nodes only)
  const NodeLine* line;         ///< the nodes it defines; null unless names is a valid list
  /// Names this line gives that a node already has, in order; only for this line's checks
  /// (a hostile file can repeat a million names).
  const std::vector<DuplicateNode>& duplicates;
  const std::vector<std::string>& node_names;
};

/// One NodeAddr= or NodeHostname= list of a NodeName= line.
struct NodeAddressView {
  const VersionProfile& profile;
  const KeyValue& kv;
  const HostlistResult& list;
  std::uint64_t node_count;  ///< names on the NodeName= value
  Span names_span;
};

/// One PartitionName= line as slurmctld resolves its Nodes=.
struct PartitionView {
  const Directive& d;
  const KeyValue& nodes;
  std::vector<std::string> unknown;  ///< names neither a node nor a NodeSet (the first 64)
};

// ----- Registration: slurmctld validates what slurmd reports (§6.F) ------------------------

/// One GRES name of a node class as slurmctld's gres_node_config_validate sees it.
struct RegistrationView {
  const VersionProfile& profile;
  const NodeLine& node;
  const std::string& rep;                   ///< the node Slurm's log lines name
  const std::string& name;                  ///< as GresTypes spells it
  const GresCount& configured;              ///< slurm.conf Gres= for this name
  const std::vector<GresRecord>& records;   ///< what slurmd sends for this name, misspelled ones dropped
  const std::vector<GresRecord>& misspelled;  ///< dropped by slurmctld: Name= not spelled as in GresTypes (F7)
  const std::vector<GresRecord>& read;      ///< every record slurmd read from gres.conf for the node
  std::uint64_t reported;                   ///< the count slurmctld sees (F1)
  bool autodetect_gpu;                      ///< gpu under AutoDetect: File-less records are detected devices
  bool shared_on_node;                      ///< mps or shard configured on the node
  bool config_overrides;                    ///< SlurmdParameters=config_overrides
  bool drained;                             ///< an earlier check already drains the node
};

}  // namespace greslint::rules
