// SPDX-License-Identifier: Apache-2.0
// The cluster model: slurm.conf nodes and gres.conf records, grouped into node classes,
// and what slurmd and slurmctld will do with each class (slurm-semantics.md §8).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/id_map.hpp"
#include "greslint/model_types.hpp"
#include "greslint/report.hpp"
#include "greslint/version.hpp"

namespace greslint {

/// What `slurmd -G` would print for one record.
struct EffectiveGres {
  std::string name;
  std::optional<std::string> type;
  std::uint64_t count = 0;
  std::optional<std::string> files;
  std::optional<std::string> cores;
  std::optional<std::string> links;
  std::string flags;
};

enum class Verdict : std::uint8_t { ok, degraded, drain, slurmd_fatal, slurmctld_fatal };
std::string_view to_string(Verdict v) noexcept;

/// Nodes whose inputs say the same (topology, Gres=, the content of their gres.conf lines)
/// share one evaluation, whichever lines say it.
struct NodeClass {
  std::vector<std::uint32_t> nodes;  ///< indexes into Cluster::node_names
  Verdict verdict = Verdict::ok;
  std::string reason;
  std::vector<EffectiveGres> gres;
  /// For classes with GPUs: are jobs confined to their GPUs (cgroup device constraint),
  /// and is GPU use accounted so that gres/gpu limits apply? Unset for GPU-less classes.
  std::optional<bool> gpus_isolated;
  std::optional<bool> gpus_accounted;
  /// The topology slurm.conf gives these nodes after Slurm's own corrections (§3.2).
  std::uint32_t sockets = 1, cores_per_socket = 1, threads_per_core = 1, cpus = 1;
  /// The AutoDetect value in effect for these nodes (node-local, else global; empty if none).
  std::string autodetect;
  /// slurm.conf Gres= of these nodes as written, and where for the first of them (each
  /// node's own: Cluster::configured_gres_span).
  std::string configured_gres;
  Span configured_gres_span;
};

/// The class's reason as scontrol shows it for `nodes` (one name, or a folded list): Slurm
/// names the node itself in some reasons (docs/architecture.md, node placeholders).
std::string node_reason(const NodeClass& c, std::string_view nodes);

/// Which gres.conf NodeName= lines each node reads. Performance: no vector of lines per
/// node (200,000 allocations on 100,000 nodes); each node's list is an id in a trie,
/// (shorter list, last line) -> list. 0 is the empty list.
class NodeGresLines {
 public:
  /// `lines`: how many list entries to make room for (one per node a line names).
  void resize(std::uint32_t nodes, std::size_t lines) {
    list_of_.assign(nodes, 0);
    lists_.reserve(lines + 1);
    lists_.assign(1, {0, 0});
  }
  /// Appends gres.conf line `line` to node `node`'s list. `longer` remembers the lists made
  /// by appending this line (old list -> new list), so that the nodes of one line that read
  /// the same lines so far keep sharing a list: it serves one line only, since no other line
  /// can make the same lists, and it is not needed for a line that names one node.
  /// Inline: it runs once per node a NodeName= line names (an out-of-line call cost ~3% of
  /// matching 100,000 nodes).
  void append(std::uint32_t node, std::uint32_t line, IdMap* longer) {
    const std::uint32_t list = std::uint32_t(lists_.size());
    if (longer) {
      const auto [known, fresh] = longer->try_emplace(list_of_[node], list);
      if (!fresh) {
        list_of_[node] = known;
        return;
      }
    }
    lists_.emplace_back(list_of_[node], line);
    list_of_[node] = list;
  }
  /// The id of node `node`'s list: nodes with equal ids read the same lines.
  std::uint32_t list_id(std::uint32_t node) const { return list_of_[node]; }
  /// The NodeName= lines (indexes into ConfigModel::gres_lines) node `node` reads, in file order.
  std::vector<std::uint32_t> lines_of(std::uint32_t node) const;
  /// Appends to each node's list the lines `later` (lists of the same nodes, made from the
  /// lines that follow these) gives it. Nodes that read the same lines still share an id.
  void absorb(const NodeGresLines& later);

 private:
  std::vector<std::uint32_t> list_of_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> lists_;
};

/// The configuration as the model read it, kept for commands that look at one node's lines
/// (node-check). Pointers in it point into its own files.
struct ConfigModel {
  ConfigFile slurm, gres, cgroup;
  Settings settings;
  std::vector<std::string> grestypes;  ///< in Slurm's context order (shared names after gpu)
  std::vector<NodeLine> node_lines;
  GresLines gres_lines;  ///< slurmd's record order: every Name= line, then the NodeName= lines
  std::vector<const GresLine*> global_lines;  ///< the Name= lines, which every node reads
  NodeGresLines node_gres_lines;
  std::optional<KeyValue> global_autodetect;  ///< gres.conf's last top-level AutoDetect=

  /// The gres.conf record lines node `node` reads, in slurmd's record order (§5.2).
  std::vector<const GresLine*> gres_lines_of(std::uint32_t node) const;
};

/// A partition and the nodes slurmctld gives it: Nodes= with ALL, NodeSets and the
/// PartitionName=DEFAULT Nodes= resolved (indexes into Cluster::node_names, each once).
struct Partition {
  std::string name;
  std::vector<std::uint32_t> nodes;
};

/// The state and reason a DownNodes= line gives the nodes it names before they register
/// (slurmctld's _handle_all_downnodes).
struct DownNodesState {
  std::string state;  ///< as written; empty for State=UNKNOWN, which keeps the NodeName line's
  Span state_at;      ///< the State= value, else the DownNodes= value
  std::string reason; ///< Reason=, else "Set in slurm.conf"
};

/// Everything greslint learned about the configuration.
struct Cluster {
  std::vector<std::string> node_names;  ///< every slurm.conf node, in definition order
  std::vector<NodeClass> classes;
  std::vector<std::uint32_t> class_of;  ///< node index -> class index
  std::vector<Comment> comments;        ///< "# greslint:" comments of every file read
  std::vector<std::uint32_t> node_line_of;  ///< node index -> its slurm.conf NodeName line
  /// Nodes slurmctld starts with in state FUTURE, by the last DownNodes= line that sets their
  /// state or else their NodeName line's State=: a running slurmctld keeps them out of every
  /// command's view until their state changes (cases rw109, gm77).
  std::vector<bool> future_at_startup;
  /// What the DownNodes= lines set, per node: 0, or 1 + the index of its entry in down_nodes
  /// (the last line that names it; both empty when slurm.conf has no DownNodes= line).
  std::vector<std::uint32_t> down_nodes_of;
  std::vector<DownNodesState> down_nodes;
  std::vector<Span> line_gres_span;         ///< NodeName line -> where its Gres= was written
  /// What the model read; null when it stopped at its limits.
  std::shared_ptr<const ConfigModel> config;
  /// In slurm.conf order; a PartitionName given twice (GRS131, slurmctld exits) keeps the
  /// last line's nodes.
  std::vector<Partition> partitions;
  /// The line slurmctld exits with at start-up, before any node registers (empty: it
  /// starts). Every node's class then carries it as its reason; it is also the cluster's
  /// verdict when no node can be listed (an invalid NodeName= hostlist).
  std::string startup_fatal;

  /// Where node `node`'s Gres= was written (its own line, or the NodeName=DEFAULT it inherits).
  Span configured_gres_span(std::uint32_t node) const { return line_gres_span[node_line_of[node]]; }
};

struct LintInputs {
  std::string slurm_conf_path;
  std::string gres_conf_path;    ///< beside slurm.conf
  std::string cgroup_conf_path;  ///< beside slurm.conf
  /// Include prefixes to read from elsewhere (ReadOptions::prefix_map).
  std::vector<std::pair<std::string, std::string>> prefix_map;
  /// The cores the run's threads share; 0: the machine's. Tests compare 1 and 2.
  unsigned cores = 0;
};

/// Reads the files, builds the model, evaluates every node class, reports findings.
Cluster analyze(const LintInputs& inputs, const VersionProfile& profile, SourceManager& sources,
                Reporter& out);

/// The files' text, for a run that reads nothing from disk but Includes (tests, tools).
struct ConfigTexts {
  std::string slurm_conf;
  std::optional<std::string> gres_conf;    ///< nullopt: no gres.conf
  std::optional<std::string> cgroup_conf;  ///< nullopt: no cgroup.conf
  /// Where the files would be: their paths in findings, the base of relative Includes.
  std::string directory = "/etc/slurm";
};

/// analyze() on text held in memory.
Cluster analyze_text(const ConfigTexts& texts, const VersionProfile& profile, SourceManager& sources,
                     Reporter& out);

}  // namespace greslint
