// SPDX-License-Identifier: Apache-2.0
// The replay of Slurm: one Analyzer per run reads the files, builds the model and walks
// Slurm's steps in order, running each step's checks (rules/stages.hpp). Its members are
// defined by pipeline step, one file each (docs/architecture.md has the map):
//   analyze.cpp     run(): the order of the steps; analyze(), analyze_text()
//   inputs.cpp      reading slurm.conf, gres.conf, cgroup.conf (read_ahead.cpp: gres.conf on a thread
//                   from the start of the run; gres_records.cpp: its records, gathered there)
//   startup.cpp     slurm.conf start-up: GresTypes, NodeName lines
//   partitions.cpp  PartitionName lines and their nodes
//   startup_checks.cpp  the value checks, select plugin, cgroup.conf, node table
//   node_lines.cpp  a NodeName line's nodes and topology (Slurm's corrections)
//   gres_line_matching.cpp  which gres.conf lines apply to which node
//   classes.cpp     node classes
//   replay.cpp      the stages of one node class in order; B (Gres=), F (registration)
//   replay_records.cpp  stage C: each gres.conf line the class reads
//   replay_merge.cpp    stages D and E: records checked, merged, loaded by the plugins
//   gres_flags.cpp  Flags= as _parse_gres_config remembers them
//   policy.cpp      cluster policy (GRS4xx)
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gres_parse.hpp"
#include "greslint/model.hpp"
#include "model/findings.hpp"
#include "model/gres_records.hpp"
#include "model/limits.hpp"
#include "model/node_index.hpp"
#include "model/read_ahead.hpp"
#include "rules/check.hpp"
#include "task.hpp"
#include "rules/stages.hpp"
#include "rules/startup_words.hpp"
#include "rules/views.hpp"

namespace greslint::model {

/// What a node line's State= (if any) leaves a node in before it registers
/// (node_conf.c:state_str2int): a base state named exactly, else a word starting with CLOUD,
/// DRAIN or FAIL.
rules::HeldState held_state(const NodeLine& line);
rules::HeldState held_state(std::string_view state);

/// What a slurm.conf DownNodes= line does to a node before it registers
/// (slurmctld/read_config.c:_handle_downnodes_line): the state it sets (DOWN unless State=
/// says otherwise; UNKNOWN leaves it) and the reason (Reason=, else "Set in slurm.conf").
struct DownNodesOverride {
  rules::HeldState held = rules::HeldState::none;
  bool state_set = false;      ///< a State= other than UNKNOWN replaced the NodeName line's
  std::string_view state;      ///< as written ("DOWN" when the line gives none)
  Span state_at;               ///< the State= value, else the DownNodes= value
  std::string_view reason;
};

/// slurmctld's fate at start-up: the first fatal decides, unless a later one replaces it
/// (rules::Outcome::slurmctld_fatal_replacing).
struct StartupFate {
  bool fatal = false;
  std::string reason;
  void apply(const rules::Outcome& o) {
    if (o.kind() != rules::Outcome::Kind::slurmctld_fatal) return;
    if (fatal && !(o.replaces_earlier_reason() && reason == rules::kUnableToProcess)) return;
    fatal = true;
    reason = o.reason();
  }
};

class PreviousFlags;

/// gres.conf lines that say the same and name nodes slurm.conf lacks (GRS310's finding).
struct UnknownNames {
  std::uint32_t line;              ///< the first line of the group: the finding points there
  std::vector<std::string> names;  ///< of every line, at most 256
  std::vector<Related> echoes;     ///< the next lines of the group, their own names
  std::size_t hidden = 0;          ///< lines of the group past kShownEchoes + 1
  bool any = false;                ///< the lines also name nodes slurm.conf has
};

/// What the replay of one node class carries from stage to stage (replay.cpp).
struct ClassReplay {
  NodeClass& cls;
  const NodeLine& node;
  const std::vector<const GresLine*>& lines;  ///< the gres.conf lines the class reads
  Verdict load_fatal;  ///< what a fatal of slurmd's gres.conf load is (slurmctld's for CLOUD nodes)
  rules::GresLoad load;  ///< what the gres.conf load checks know of the class
  std::map<std::string, GresCount> conf = {};  ///< slurm.conf Gres= per GRES name (stage B)
  std::vector<GresRecord> records = {};        ///< in slurmd's record order (stage C)
  std::optional<std::string> node_autodetect = {};  ///< a NodeName= line's AutoDetect=
  bool autodetect_active = false;  ///< AutoDetect is configured for the node, with a value slurmd knows
  bool gpus_detected = false;      ///< and the gpu plugin, which detects, is loaded (gres_flags.hpp)
  std::map<std::string, std::vector<GresRecord>> merged = {};  ///< per name, after stage D
};

/// What Analyzer::reserve_nodes finds of a slurm.conf NodeName line before any is read: its
/// value is DEFAULT, ALL, one host written plainly (is_single_host), or a list to parse.
enum class NodeLineShape : std::uint8_t { defaults, reserved_name, single, list };

/// The NodeName=DEFAULT values so far, by lower-cased key.
using NodeDefaults = std::unordered_map<std::string, const KeyValue*>;

class Analyzer {
 public:
  Analyzer(const LintInputs& in, const ConfigTexts* texts, const VersionProfile& p, SourceManager& s, Reporter& out)
      : in_(in),
        texts_(texts),
        profile_(p),
        sources_(s),
        out_(out),
        cores_(in.cores != 0 ? in.cores : CoreBudget::machine_cores()),
        findings_(out) {}

  Cluster run();

 private:
  /// Hands what the model read to the Cluster (ConfigModel), for node-check.
  void keep_config();

  // ----- inputs.cpp ----------------------------------------------------------------
  ReadOptions read_options(KeyTable table) const;
  ConfigFile read(const std::string& path, const std::optional<std::string>* text, KeyTable table);
  void read_slurm_conf();
  /// Starts reading gres.conf on a second thread (ReadAhead), at the start of the run;
  /// place_gres_conf_read tells it which files come before it, read_gres_conf takes it over.
  void start_gres_conf_read();
  void place_gres_conf_read();
  void read_gres_conf();
  void read_cgroup_conf();
  // ----- startup.cpp ---------------------------------------------------------------
  void check_grestypes();
  void build_nodes();
  void apply_down_nodes();
  /// Whether slurmctld has node `node` CLOUD when it loads the CLOUD nodes' gres.conf: the
  /// DownNodes= lines' State= replaces the NodeName line's before that (_handle_all_downnodes,
  /// every release), so State=CLOUD there makes a node CLOUD and any other state but UNKNOWN
  /// makes it not (pending case gm75).
  bool cloud_at_startup(std::uint32_t node) const;
  /// Whether slurmctld starts with node `node` FUTURE: by the last DownNodes= line that sets
  /// its state, else by its NodeName line (Cluster::future_at_startup).
  bool future_at_startup(std::uint32_t node) const;
  /// The NodeName line node `node`'s class is evaluated with: its own, or a copy whose `cloud`
  /// follows cloud_at_startup (kept in startup_lines_).
  const NodeLine& startup_line(std::uint32_t node);
  /// The NodeLine of a line that repeated each tail first (node_line_of), by tail.
  struct NodeLinePrototype {
    std::uint32_t defaults_seen = 0;
    const Directive* d = nullptr;
    NodeLine line;
  };
  using NodeLinePrototypes = std::unordered_map<const RepeatedTail*, NodeLinePrototype>;
  struct NodeLinesSeen {
    std::vector<NodeLineShape> shapes;  ///< one per line, in order
    std::vector<std::uint32_t> defaults;  ///< the NodeName=DEFAULT lines, by index, in order
    /// Names the valid lines give in all, duplicates included; once past kMaxNodes, only
    /// that it is past.
    std::uint64_t names = 0;
  };
  /// The checks of a run of NodeName lines that need nothing the lines before them add to
  /// the node table, and what they found (build_nodes, startup.cpp).
  struct NodeLineRun;
  struct NodeLineChunk;
  /// The first pass of build_nodes over `lines`: `first` checks them from the front, and the
  /// chunks from the returned one on are the second thread's, in `chunks`.
  std::uint32_t check_node_lines(const std::vector<const Directive*>& lines, const NodeLinesSeen& seen,
                                 NodeLineRun& first, std::vector<std::unique_ptr<NodeLineChunk>>& chunks);
  void check_node_line(NodeLineRun& run, const Directive& d, std::uint32_t index, NodeLineShape shape);
  void check_addresses(NodeLineRun& run, const Directive& d, std::uint32_t index, const NodeLine& line,
                       std::uint64_t node_count);
  /// Adds line `index`'s names to the node table, `run` having checked the line.
  struct NodeLineCursor;
  void add_node_line(NodeLineCursor& at, const Directive& d, std::uint32_t index, NodeLineShape shape);
  // ----- partitions.cpp ------------------------------------------------------------
  /// Each PartitionName line: its Nodes= resolved as slurmctld does, checked, and kept
  /// in Cluster::partitions.
  void check_partitions();
  /// What check_partitions found of a PartitionName line whose Nodes= is a hostlist of node
  /// names only (no NodeSet, not ALL): the Cluster::partitions entry that holds its nodes,
  /// and how many names the hostlist makes. walk_partitions offers those nodes as they are.
  /// Performance: finding every name again was 3.3 ms of a 100,000-node run whose
  /// partitions list the nodes in another order than slurm.conf.
  struct ResolvedPartitionLine {
    std::uint32_t partition;
    std::uint64_t names;
  };
  /// Per PartitionName line (DirectiveIndex order), when it is such a line.
  std::vector<std::optional<ResolvedPartitionLine>> resolved_partition_lines_;
  /// The nodes of a NodeSet=... Feature= set: every node whose Features list names it.
  std::vector<std::uint32_t> nodes_with_feature(std::string_view feature) const;
  // ----- startup_checks.cpp -------------------------------------------------------
  void check_slurm_conf_records();
  void check_slurm_conf_values();
  void check_select_plugin();
  void check_accounting_tres();
  void check_cgroup_conf();
  void check_read_slurm_conf();
  const Directive* nodeset_named_like_node(const Directive** line) const;
  /// The node table as read_slurm_conf built it, for the two stages that check it.
  rules::NodeTableView node_table_view() const;
  void check_license_init();
  void check_priority_init();
  void check_node_table();
  void check_select_node_init();
  // ----- node_lines.cpp ------------------------------------------------------------
  static bool is_node_line(const Directive& d);
  NodeLinesSeen reserve_nodes(const std::vector<const Directive*>& lines);
  NodeLine node_line(const Directive& d, const NodeDefaults& defaults) const;
  /// node_line(), reusing what an earlier line with the same repeated tail gave under the
  /// same DEFAULT lines (`defaults_seen` counts the DEFAULT lines read so far).
  NodeLine node_line_of(const Directive& d, const NodeDefaults& defaults, std::uint32_t defaults_seen,
                        NodeLinePrototypes& prototypes) const;
  std::optional<LimitExceeded> over_limits(std::uint64_t names, Span where);
  /// The names of node_lines_[line] (`names_of`), or duplicates of nodes named before.
  void add_nodes(const NodeLine& names_of, const Hostlist& names, std::uint32_t line,
                 std::vector<DuplicateNode>& duplicates);
  /// add_nodes for a line that names one host as written (is_single_host); `where` is its name.
  void add_node(std::string_view host, Span where, std::uint32_t line, std::vector<DuplicateNode>& duplicates);
  /// One host of node_lines_[line], or a duplicate at `where`.
  void insert_node(std::string_view host, Span where, std::uint32_t line, std::vector<DuplicateNode>& duplicates);
  // ----- classes.cpp ---------------------------------------------------------------
  std::vector<std::uint32_t> node_line_contents() const;
  /// node_line_contents(), on another thread with a core of the budget for a cluster large
  /// enough to gain by it (found in place otherwise). Reads only node_lines_ and grestypes_.
  Task<std::vector<std::uint32_t>> find_node_line_contents() const;
  // ----- gres_line_matching.cpp -------------------------------------------------------
  void match_gres_lines();
  /// What matching a run of gres.conf lines makes (gres_line_matching.cpp).
  struct LineMatch;
  /// Matches lines `begin` to `end` to nodes into `m`.
  void match_range(std::uint32_t begin, std::uint32_t end, LineMatch& m);
  /// kGresConfUnknownNodes over each group, with its spelling hint.
  void check_unknown_names(std::vector<UnknownNames>& groups);
  /// `node_content`: node_line_contents().
  void form_classes(const std::vector<std::uint32_t>& node_content);
  void evaluate_classes();
  void echo_findings(const NodeClass& cls);
  Span translate(Span s, std::uint32_t from, std::uint32_t to) const;
  /// The NodeName= gres.conf lines that apply to node n, in file order.
  std::vector<std::uint32_t> lines_of(std::uint32_t n) const { return node_gres_lines_.lines_of(n); }
  /// Whether nodes a and b read the same lines (not only lines that say the same).
  bool same_lines(std::uint32_t a, std::uint32_t b) const {
    return node_line_of_[a] == node_line_of_[b] && node_gres_lines_.list_id(a) == node_gres_lines_.list_id(b);
  }
  // ----- replay.cpp: the stages in order, B and F -------------------------------------
  void evaluate(NodeClass& cls, const NodeLine& node, const std::vector<const GresLine*>& lines,
                const std::string& rep);
  void check_node_gres(ClassReplay& rp);
  void register_node(ClassReplay& rp, const std::string& rep);
  void list_effective_gres(ClassReplay& rp);
  // ----- replay_records.cpp: stage C, each gres.conf line the class reads ------------
  enum class LineRead : std::uint8_t { record, skip, stop };  ///< stop: slurmd (or slurmctld) exits
  /// False when the load ends in a fatal (the class's verdict says which).
  bool read_records(ClassReplay& rp);
  LineRead read_line(ClassReplay& rp, const GresLine& line, PreviousFlags& previous, GresRecord& r);
  bool known_autodetect(std::string_view value) const;
  rules::GresLoadView load_view(const ClassReplay& rp) const;
  /// Applies a gres.conf load check's outcome to the class; false when the load stops there.
  bool apply_load(ClassReplay& rp, const rules::Outcome& o);
  /// slurmctld loads a CLOUD node's gres.conf itself at start-up (_gres_reconfig): a line that
  /// load logs without naming a node is in the controller's log for every node alike.
  void note_ctld_load_log(const ClassReplay& rp, const rules::Outcome& o, std::size_t since) {
    const bool logged = o.kind() == rules::Outcome::Kind::degraded || o.kind() == rules::Outcome::Kind::skip_record;
    if (rp.node.cloud && logged && findings_.quotes_line_without_node(since)) ctld_startup_logged_ = true;
  }
  /// Runs a gres.conf load stage: stop at a fatal, skip when a check ends the record.
  template <class View>
  LineRead run_load_stage(ClassReplay& rp, const rules::Stage<View>& stage, const View& view) {
    for (const rules::Check<View>& check : stage) {
      const std::size_t before = findings_.reported_count();
      const rules::Outcome o = check.run(view, findings_);
      note_ctld_load_log(rp, o, before);
      if (!apply_load(rp, o)) return LineRead::stop;
      if (o.skips_rest()) return LineRead::skip;
    }
    return LineRead::record;
  }
  // ----- replay_merge.cpp: stages D and E --------------------------------------------
  bool check_names(ClassReplay& rp);
  void merge_with_slurm_conf(ClassReplay& rp);
  bool load_plugins(ClassReplay& rp);
  /// A CLOUD node's gres.conf load that stops slurmctld stops it for every node.
  void stop_at_first_cloud_load_fatal();
  /// Where a slurmctld step that comes after the CLOUD nodes' gres.conf loads in this release
  /// records what it does (ctld_, or after_cloud_loads_).
  StartupFate& fate_after_cloud_loads();
  /// Stage E for mps or shard: the plugin lays `name` onto the GPUs' device files
  /// (shared_gres.hpp). False when slurmd (or, for CLOUD nodes, slurmctld) exits there.
  bool share_gres_devices(ClassReplay& rp, const std::string& name);
  /// Stage F for one GRES name: the registration stage lists, their outcomes applied.
  void register_name(NodeClass& cls, rules::RegistrationView& view, std::optional<std::string>& drain_reason);
  /// The gpu a node registers, for validate_node_specs' RestrictedCoresPerGPU= step (GRS317).
  struct GpuRegistration {
    std::vector<GresRecord> records;  ///< what slurmd sends: its gpu records with File=
    bool any = false;                 ///< the node has a gpu in its GRES list
    bool detected = false;            ///< AutoDetect finds them
    bool shared = false;              ///< slurm.conf gives the node a shared GRES beside them
  };
  /// Stage F for the node as a whole, after its GRES names: its configured state (State=)
  /// against the registration; may set or clear the reason scontrol shows.
  void register_node_state(ClassReplay& rp, const std::string& rep, std::optional<std::string>& drain_reason,
                           const GpuRegistration& gpus);
  // ----- policy.cpp ----------------------------------------------------------------
  /// The cluster-policy stages (GRS4xx): scheduling, accounting, isolation of the GPU pool,
  /// the partitions that offer it.
  void check_policy();
  /// Which nodes the partitions offer; runs kGpuPartition on each partition on the way.
  rules::PartitionCover walk_partitions(const rules::PolicyView& policy);

  void fatal(NodeClass& cls, Verdict v, std::string reason) {
    if (cls.verdict == Verdict::slurmctld_fatal || cls.verdict == Verdict::slurmd_fatal) return;
    cls.verdict = v;
    cls.reason = std::move(reason);
  }
  void drain(NodeClass& cls, const std::string& reason) {
    if (cls.verdict >= Verdict::drain) return;
    cls.verdict = Verdict::drain;
    cls.reason = reason;
  }
  void degrade(NodeClass& cls) {
    if (cls.verdict == Verdict::ok) cls.verdict = Verdict::degraded;
  }
  /// Every host or device name the model makes from a hostlist counts against one budget.
  void spend(std::uint64_t names, Span where);
  LimitExceeded expansion_limit(std::uint64_t names, Span where) const;
  const KeyValue* setting(std::string_view key) const { return settings_.find(key); }
  bool in_grestypes_exact(std::string_view name) const;
  bool in_grestypes_nocase(std::string_view name) const;

  const LintInputs& in_;
  const ConfigTexts* texts_;  ///< null: read the files from disk
  const VersionProfile& profile_;
  SourceManager& sources_;
  Reporter& out_;
  /// The cores the run's threads share (ReadAhead, and the readers of large files); mutable
  /// because read_options() hands it out. Declared before every thread that holds it.
  mutable CoreBudget cores_;
  Findings findings_;
  ConfigFile slurm_;
  DirectiveIndex slurm_index_;  ///< slurm_'s settings and records by key
  ConfigFile gres_;
  /// Made by gres_ahead_'s thread, read after its finish(); declared first, so it outlives
  /// the thread.
  GresRecords gres_ahead_records_;
  std::optional<ReadAhead> gres_ahead_;
  ConfigFile cgroup_;
  Settings settings_;
  std::vector<std::string> grestypes_;  ///< in Slurm's context order (shared names after gpu)
  std::vector<NodeLine> node_lines_;
  GresLines gres_lines_;
  GresLineLists gres_hostlists_;  ///< GresLine::hostlist's lists
  Cluster cluster_;
  NodeIndex node_index_;  ///< over cluster_.node_names
  std::vector<std::uint32_t> node_line_of_;
  std::string global_autodetect_;
  /// gres.conf's last top-level AutoDetect= (a directive's head is made on demand: kept here).
  std::optional<KeyValue> global_autodetect_head_;
  const KeyValue* global_autodetect_kv_ = nullptr;  ///< points at it, or null
  StartupFate ctld_;
  /// What stops slurmctld after its CLOUD nodes' gres.conf loads, in a release that makes
  /// them before the partitions' node names are checked (cloud_loads_before_partitions):
  /// it applies only when no such load stopped slurmctld first (stop_at_first_cloud_load_fatal).
  StartupFate after_cloud_loads_;
  /// slurmctld logged a line at start-up that names no node (note_ctld_load_log(),
  /// check_node_gres()): every node is degraded.
  bool ctld_startup_logged_ = false;
  std::uint64_t expanded_ = 0;     ///< names made from hostlists so far (see spend())
  std::uint64_t named_nodes_ = 0;  ///< node names on every NodeName line so far, duplicates included
  // Node classes (classes.cpp).
  std::vector<const GresLine*> global_lines_;         ///< the Name= lines, which every node reads
  GresLineIds gres_contents_;  ///< GresRecords::contents of gres_lines_
  NodeGresLines node_gres_lines_;  ///< the NodeName= lines each node reads
  std::vector<std::uint32_t> content_list_of_;        ///< node -> id of what its gres.conf lines say
  std::vector<DownNodesOverride> down_overrides_;     ///< 1-based ids of down_of_
  std::vector<std::uint32_t> down_of_;                ///< node -> its DownNodes= override (0: none)
  /// NodeName lines whose CLOUD a DownNodes= line changed (startup_line); a deque, so the
  /// references the replay holds stay valid.
  std::deque<NodeLine> startup_lines_;
  /// check_node_table's view, which check_select_node_init sees again: nothing between them
  /// changes the table, and making it walks every node (a per-node slurm.conf has 100,000).
  std::optional<rules::NodeTableView> node_table_;
};

}  // namespace greslint::model
