// SPDX-License-Identifier: Apache-2.0
// What a check sees: one view per step of Slurm's processing. The model fills a view with
// the data Slurm holds at that step (and the facts greslint computed about it) and hands
// it to each check of the step's list in registry.cpp. Views only point at model data.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/config.hpp"
#include "gres_parse.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/model_types.hpp"
#include "greslint/version.hpp"
#include "model/findings.hpp"
#include "model/gres_flags.hpp"
#include "model/shared_gres.hpp"
#include "rules/check.hpp"

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

// ----- The rest of slurmctld's start-up (docs/startup-checks.md) -----------------------------

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

// ----- A node class's slurm.conf Gres= (slurmd at start-up, slurmctld too) -----------------

/// One node line's Gres= as gres.c reads it: tokens filtered by name, then counted per name.
struct NodeGresView {
  const NodeLine& node;
  const std::vector<std::string>& grestypes;  ///< in Slurm's context order
  const std::vector<std::string_view>& dropped;  ///< tokens whose name GresTypes does not spell so
  const std::map<std::string, GresCount>& configured;  ///< per GresTypes name, from the kept tokens
};

// ----- slurmd reads gres.conf for a node class (slurm-semantics.md §5, §8) ------------------

/// The node class whose gres.conf load a check looks at.
struct GresLoad {
  const VersionProfile& profile;
  const NodeLine& node;
  const std::vector<std::string>& grestypes;  ///< in Slurm's context order
  /// A finding about this load. slurmctld runs the whole load itself for CLOUD nodes at
  /// start-up (_gres_reconfig), so there a fatal finding names slurmctld.
  DiagnosticBuilder report(model::Findings& out, const RuleInfo& rule, Span span, std::string message) const {
    DiagnosticBuilder b = out.report(rule, span, std::move(message));
    if (node.cloud && rule.effect == Effect::fatal) b.effect(Effect::fatal, Daemon::slurmctld);
    return b;
  }
  /// Whether GresTypes names `name` in any case (gres.conf's Name= compares so).
  bool in_grestypes_nocase(std::string_view name) const;
};

/// The node class's gres.conf as a whole: before its records are read (the file's AutoDetect=
/// line), and once they are (the node's records, in Slurm's order).
struct GresLoadView {
  const GresLoad& load;
  const KeyValue* global_autodetect;  ///< gres.conf's AutoDetect= line; null without one
  bool global_autodetect_known;       ///< its value is one this release knows
  const std::map<std::string, GresCount>& configured;  ///< slurm.conf Gres= per GresTypes name
  const std::vector<GresRecord>& records;  ///< Name= records first, then NodeName= ones; empty before they are read
  bool autodetect_active;                  ///< AutoDetect takes effect on the nodes
};

/// One gres.conf record line as _parse_gres_config reads it for the node class, key by key,
/// in two stages: up to File= (the model has read the name, type and Cores= into `record`
/// and parsed File=), then, once File= is expanded into `record`'s paths and count, the
/// flags, links, count and name (the fields from `flags` on are filled then).
struct GresRecordView {
  const GresLoad& load;
  const GresLine& line;
  const GresLineKeys& keys;
  const GresRecord& record;
  const std::optional<std::string>& node_autodetect;  ///< an earlier NodeName= line's AutoDetect= for these nodes
  bool autodetect_known;      ///< keys.autodetect's value is one this release knows
  bool cores_fit_cpus;        ///< Cores= is within the node's CPUs (slurmctld's check for CLOUD nodes)
  const HostlistResult* file_list;  ///< File= or MultipleFiles= parsed; null without either
  std::string_view after_head = {};  ///< the line's text after its first value (GRS202 quotes it)
  const KeyValue* flags = nullptr;  ///< Flags=
  model::PreviousFlags::Check flags_check = model::PreviousFlags::Check::ok;  ///< against the previous record of the name
  const KeyValue* links = nullptr;  ///< Links= (or Link=)
  std::string_view links_error = {};  ///< why Links= is invalid; empty when valid or absent
  const KeyValue* count = nullptr;  ///< Count=
  std::optional<std::uint64_t> count_value = {};  ///< Count= as Slurm reads it; nullopt: unreadable
};

/// One GRES name's gres.conf records for the node class as _validate_gres_conf and
/// _check_conf_mismatch see them (stage D), before the merge with slurm.conf.
struct GresNameView {
  const GresLoad& load;
  const std::string& name;                 ///< as GresTypes spells it
  const GresCount& configured;             ///< slurm.conf Gres= for this name
  const std::vector<GresRecord>& records;  ///< the node's records of the name in any case, in Slurm's order
  /// Reports a record that ends the load (at its line's first value) and returns the fatal.
  Outcome fatal_record(Findings& out, const RuleInfo& rule, const GresRecord& at, std::string message,
                       std::string slurm, std::string help) const;
};

/// One GRES name as its plugin loads the merged records (node_config_load, stage E).
struct GresPluginView {
  const GresLoad& load;
  const std::string& name;                 ///< as GresTypes spells it
  const std::vector<GresRecord>& records;  ///< merged with slurm.conf, before the plugin loads them
  /// mps and shard: how their plugin lays the records onto the GPUs' device files; null for
  /// every other name.
  const model::ShareOutcome* share;
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
