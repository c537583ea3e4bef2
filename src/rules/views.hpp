// SPDX-License-Identifier: Apache-2.0
// What a check sees: one view per step of Slurm's processing. The model fills a view with
// the data Slurm holds at that step (and the facts greslint computed about it) and hands
// it to each check of the step's list in registry.cpp. Views only point at model data.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
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
  const Settings& settings;
  const Directive& d;
  Kind kind;
  /// The NodeName= list (Kind::nodes only); null too when NodeName= is one host written
  /// plainly (is_single_host), which every release reads as that one valid host.
  const HostlistResult* names;
  const NodeLine* line;         ///< the nodes it defines; null unless names is a valid list
  /// Names this line gives that a node already has, in order; only for this line's checks
  /// (a hostile file can repeat a million names). kNodeNamesStage only: kNodeNameLineStage
  /// runs before any line's names are in the table, and sees none (Analyzer::build_nodes).
  const std::vector<DuplicateNode>& duplicates;
  const std::vector<std::string>& node_names;  ///< the node table so far (kNodeNamesStage only, as duplicates)
  const KeyValue* tres_weights;  ///< TRESWeights=, the line's own or NodeName=DEFAULT's
};

/// One NodeAddr=, BcastAddr= or NodeHostname= list of a NodeName= line.
struct NodeAddressView {
  const VersionProfile& profile;
  const KeyValue& kv;
  /// The value as Slurm's hostlist_create reads it; null when it is one host written plainly
  /// (is_single_host), which every release reads as that one valid host.
  const HostlistResult* list;
  std::uint64_t node_count;  ///< names on the NodeName= value
  Span names_span;

  /// Whether Slurm can make a list of the value.
  bool valid() const { return !list || list->ok(); }
  /// The addresses the value names; only when valid().
  std::uint64_t address_count() const { return list ? list->list->size() : 1; }
};

/// One PartitionName= line as slurmctld resolves its Nodes=.
struct PartitionView {
  const Directive& d;
  const KeyValue& nodes;
  std::vector<std::string> unknown;  ///< names neither a node nor a NodeSet (the first 64)
  /// Why Nodes= is no hostlist for this release (Slurm's hostlist_create returns NULL);
  /// unset when it is one.
  std::optional<HostlistError> invalid;
};

// ----- The rest of slurmctld's start-up (docs/startup-checks.md) -----------------------------

/// slurm.conf's top-level values as read_config.c:_validate_and_set_defaults checks them,
/// after the whole file was parsed (whether or not parsing failed).
struct SlurmConfView {
  const VersionProfile& profile;
  const Settings& settings;
  const ConfigFile& slurm;  ///< for the record keys (SlurmctldHost), which are not settings
  const DirectiveIndex& index;  ///< slurm's records by key (index.records("PartitionName"))
  Span top;                 ///< slurm.conf's first line: where a finding about a missing key points
  /// 24.11+: the first NodeSet record whose name a NodeName line gives, and that line
  /// (read_config.c:_validate_conf_nodeset_vs_nodenames); null when none does.
  const Directive* nodeset_named_like_node = nullptr;
  const Directive* node_line_naming_it = nullptr;
  /// cgroup.conf, for the checks read_slurm_conf makes once it has read it; null elsewhere.
  const ConfigFile* cgroup = nullptr;
};

/// The SelectType plugin as select_g_init loads it.
struct SelectPluginView {
  const VersionProfile& profile;
  const Settings& settings;
  const KeyValue* select;   ///< SelectType=, or null for the release's default
  std::string select_type;  ///< as written, or the default
};

/// One NodeName line's nodes and corrected topology, for the select plugin's node init.
struct NodeTopology {
  std::string_view first_node;  ///< the first name the line defines (Slurm names it), in Cluster::node_names
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
  /// Per partition: its TRESBillingWeights=, its own or PartitionName=DEFAULT's; null without.
  std::vector<const KeyValue*> billing_weights;
  /// An earlier start-up step already stopped slurmctld (a parse error, a NodeName line whose
  /// names Slurm cannot make): what the table lacks may be in the lines it lost.
  bool slurmctld_failed = false;
};

/// cgroup.conf as cgroup.c reads it, at the start of read_slurm_conf.
struct CgroupConfView {
  const VersionProfile& profile;
  const ConfigFile& cgroup;
};

// ----- gres.conf as the model reads it, before any node class ------------------------------

/// One NodeName= record line of gres.conf, read once for every node (its hostlist parsed).
struct GresConfLineView {
  const VersionProfile& profile;
  const Directive& d;
  /// NodeName= as Slurm's hostlist_create reads it; null when NodeName= is one host name
  /// written plainly (is_single_host), which every release reads as that one valid host.
  const HostlistResult* node_names;
};

/// gres.conf lines that name nodes slurm.conf does not define: a group of lines that say the
/// same (the model groups them and finds the spelling hint, classes.cpp).
struct UnknownNodesView {
  const GresLine& line;                   ///< the group's first line
  const std::vector<std::string>& names;  ///< the unknown names of every line (at most 256)
  bool any_known;                         ///< the lines also name nodes slurm.conf has
  const std::string& hint;                ///< "; did you mean ...?" or empty
  const std::vector<Related>& echoes;     ///< the group's other lines (the last counts the rest)
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
  /// slurmctld walked these records itself when it loaded the CLOUD node's gres.conf at
  /// start-up (_gres_reconfig); AutoDetect there stops that load before the walk (GRS223).
  bool ctld_walked_at_startup = false;
  /// How many records _foreach_rebuild_topo reads before it stops: it takes each record's
  /// Cores=, then its Links=, and (24.11+) stops at a Cores= it cannot read or that splits a
  /// socket. records.size() when it reads them all.
  std::size_t walk_end() const;
};

// ----- The cluster as a whole: policy (GRS4xx) ---------------------------------------------
// Slurm starts with these mistakes and the GPU pool then misbehaves. The model runs these
// stages once, after every node class, when GresTypes has gpu and a NodeName line gives GPUs.

/// The nodes slurm.conf gives GPUs: those of the NodeName lines whose Gres= counts gpu.
struct GpuNodes {
  const std::vector<std::string>& names;      ///< every node (Cluster::node_names)
  const std::vector<std::uint32_t>& line_of;  ///< node -> index of its NodeName line
  const std::vector<NodeLine>& lines;         ///< the NodeName lines
  std::vector<bool> line_has_gpu;             ///< per NodeName line: its Gres= counts gpu
  Span first_gres;                            ///< the first GPU line's Gres=
  bool has_gpu(std::uint32_t node) const { return line_has_gpu[line_of[node]]; }
  /// Every GPU node, folded ("gpu[01-64]"); made on first use. Performance: copying and
  /// sorting every GPU node's name cost ~15 ms on 100,000 nodes for a valid configuration,
  /// which prints nothing.
  const std::string& folded() const;
  mutable std::optional<std::string> folded_cache = {};
};

/// How slurm.conf accounts GPU use (AccountingStorage*), as controller.c:_init_tres and the
/// association manager take it.
struct GpuAccounting {
  const KeyValue* storage_type;  ///< AccountingStorageType=
  const KeyValue* tres;          ///< AccountingStorageTRES=
  const KeyValue* enforce;       ///< AccountingStorageEnforce=
  bool slurmdbd;                 ///< AccountingStorageType is accounting_storage/slurmdbd
  bool gpu_tres;                 ///< AccountingStorageTRES has gres/gpu
  bool typed_gpu_tres;           ///< AccountingStorageTRES has a gres/gpu:TYPE
  /// AccountingStorageEnforce has limits, or safe or all, which imply it ("qos" alone only
  /// checks that a QOS exists).
  bool enforces_limits;
  /// GPU use is accounted, so gres/gpu limits have something to count.
  bool accounted() const { return slurmdbd && gpu_tres; }
};

/// What confines a job to its GPUs: the cgroup device constraint, with task/cgroup and
/// proctrack/cgroup (task_cgroup.c:init takes ConstrainDevices from cgroup.conf).
struct GpuIsolation {
  bool cgroup_conf;                   ///< cgroup.conf exists beside slurm.conf
  std::optional<KeyValue> constrain_devices;  ///< cgroup.conf's (last) ConstrainDevices=
  bool constrains_devices;            ///< ConstrainDevices is yes
  const KeyValue* task_plugin;        ///< TaskPlugin= (task/none without it)
  bool task_cgroup;                   ///< TaskPlugin loads task/cgroup
  const KeyValue* proctrack;          ///< ProctrackType= (proctrack/cgroup without it)
  bool proctrack_cgroup;              ///< ProctrackType is proctrack/cgroup
  bool isolated() const { return cgroup_conf && constrains_devices && task_cgroup && proctrack_cgroup; }
};

/// Which nodes the partitions offer, as slurmctld builds each partition's node bitmap.
/// Filled by the model's partition walk, after kGpuPartition ran for each partition.
struct PartitionCover {
  bool any_partition = false;  ///< a PartitionName line other than DEFAULT
  bool opaque = false;         ///< a partition uses a Feature= NodeSet, whose nodes are not resolved
  std::vector<bool> offered;   ///< per node: some partition's Nodes= names it
};

/// The cluster's GPU policy: what slurm.conf and cgroup.conf say about scheduling,
/// accounting and isolation of the GPU nodes.
struct PolicyView {
  const VersionProfile& profile;
  const Settings& settings;
  const ConfigFile& cgroup;
  const GpuNodes& gpus;
  const GpuAccounting& accounting;
  const GpuIsolation& isolation;
  bool slurmctld_failed;  ///< a start-up check already stopped slurmctld
  /// For kClusterPolicyNodes: the node classes, with the AutoDetect each has.
  const std::vector<NodeClass>& classes;
  const GresLines& gres_lines;  ///< gres.conf lines in record order
  const KeyValue* global_autodetect;        ///< gres.conf's AutoDetect= line; null without one
  const std::string& global_autodetect_value;  ///< its value as classes carry it
  const PartitionCover* partitions = nullptr;  ///< null until the partition walk (kClusterPolicyNodes has it)
  /// A setting's value, or the first GPU line's Gres= when slurm.conf lacks it.
  Span setting_span(const KeyValue* kv) const { return kv ? kv->value_span : gpus.first_gres; }
};

/// One PartitionName line (DEFAULT excluded) with a Nodes= of its own or inherited.
struct GpuPartitionView {
  const PolicyView& policy;
  const Directive& d;
  const KeyValue& nodes;  ///< its Nodes=, or PartitionName=DEFAULT's
  bool has_gpu;           ///< a node it offers has GPUs (Nodes=ALL and Feature= NodeSets count)
};

}  // namespace greslint::rules
