// SPDX-License-Identifier: Apache-2.0
// Builds the cluster model and replays, per node class, what slurmd (stages B-E) and
// slurmctld (stage F) do with it. Section numbers refer to slurm-semantics.md.
#include "greslint/model.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <functional>
#include <iterator>
#include <map>
#include <tuple>
#include <unordered_map>

#include "gres_parse.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint {

std::string_view to_string(Verdict v) noexcept {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::degraded: return "degraded";
    case Verdict::drain: return "drain";
    case Verdict::slurmd_fatal: return "slurmd-fatal";
    case Verdict::slurmctld_fatal: return "slurmctld-fatal";
  }
  return "ok";
}

namespace {

/// greslint's own stops (docs/robustness.md): the model turns hostlists into names, and one
/// token can name 2^31 hosts (Slurm's int), a line can hold many such tokens, a file many
/// lines. No real cluster comes near either limit.
constexpr std::uint64_t kMaxNodes = std::uint64_t(1) << 20;          ///< slurm.conf nodes
constexpr std::uint64_t kMaxExpandedNames = std::uint64_t(1) << 24;  ///< names made from hostlists, one run

/// Thrown past those limits; analyze() turns it into one finding at `span` (none when the
/// message is empty: the reader has reported a file it stopped reading).
struct LimitExceeded {
  Span span;
  std::string message;
};

constexpr std::string_view kNodesToken = "\x01NODES\x01";
/// Stands for the one node a Slurm log line or drain reason names; replaced per node.
constexpr std::string_view kNodeToken = "\x02NODE\x02";

struct Topology {
  std::uint32_t boards = 1, sockets = 1, cores = 1, threads = 1, cpus = 1;
  std::uint32_t core_count() const { return sockets * cores; }
};

struct NodeLine {
  const Directive* d = nullptr;
  std::string names_text;
  Span names_span;
  Topology topo;
  std::string gres;  ///< as written (after DEFAULT inheritance)
  Span gres_span;
  bool cloud = false;
};

struct GresLine {
  const Directive* d = nullptr;
  bool node_scoped = false;        ///< NodeName= record (else a global Name= record)
  std::optional<Hostlist> nodes;   ///< nullopt: invalid hostlist, matches nothing (C19)
  std::uint32_t file_order = 0;
};

/// One gres.conf record as slurmd holds it for one node.
struct Record {
  const GresLine* line = nullptr;
  std::string name;
  std::optional<std::string> type;
  std::uint64_t count = 0;
  std::optional<std::string> files;  ///< File= or MultipleFiles= string
  std::vector<std::string> paths;
  bool multiple_files = false;
  std::optional<std::string> cores;
  std::optional<std::vector<std::uint32_t>> core_bits;
  std::optional<std::string> links;
  std::string flags;
  Span origin;  ///< for records slurmd makes up (no gres.conf line): the slurm.conf Gres= value
  Span span_of(std::string_view key) const {
    if (!line) return origin;
    if (const KeyValue* kv = line->d->find(key)) return kv->value_span;
    return line->d->head().value_span;
  }
};

/// node_conf.c:state_str2int: a base state name, or anything starting with CLOUD, DRAIN or FAIL.
bool valid_node_state(std::string_view state) {
  static const char* const kBase[] = {"UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE"};
  if (std::any_of(std::begin(kBase), std::end(kBase), [&](const char* k) { return iequals(state, k); })) return true;
  for (std::string_view prefix : {"CLOUD", "DRAIN", "FAIL"})
    if (state.size() >= prefix.size() && iequals(state.substr(0, prefix.size()), prefix)) return true;
  return false;
}

/// gres_build_id: the hash Slurm identifies GRES plugins (and types) by.
std::uint32_t gres_build_id(std::string_view name) {
  std::uint32_t id = 0;
  for (std::size_t i = 0; i < name.size(); ++i) id += std::uint32_t(static_cast<unsigned char>(name[i])) << ((i % 4) * 8);
  return id;
}

std::uint64_t parse_uint(const KeyValue* kv, std::uint64_t fallback) {
  if (!kv) return fallback;
  return std::strtoull(kv->value.c_str(), nullptr, 0);
}

/// Node name -> index into Cluster::node_names, for every lookup of a node by name (the
/// duplicate NodeName check, partitions, gres.conf lines).
/// Performance: this replaces std::unordered_map<std::string, ...> (built twice). On a
/// 100,000-node cluster those maps were ~45% of `greslint lint`: a heap node per name, a
/// pointer chase and a cache miss per probe, rehashing as they grew. Here one flat array of
/// (hash, node) slots with linear probing; the names stay in node_names, nothing is copied.
class NodeIndex {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;

  /// The node called `name` (exact, case-sensitive), or kNone.
  std::uint32_t find(const std::vector<std::string>& names, std::string_view name) const {
    if (slots_.empty()) return kNone;
    const std::uint32_t h = hash(name);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.node == kNone) return kNone;
      if (s.hash == h && names[s.node] == name) return s.node;
    }
  }
  /// find(), trying first the node after `previous` (and updating it): gres.conf and partition
  /// hostlists mostly name nodes in slurm.conf order, and comparing with the next name of
  /// node_names (contiguous memory) saves the probe, a likely cache miss in a 2 MB table.
  /// Names are unique in node_names, so an equal name is the answer.
  std::uint32_t find_near(const std::vector<std::string>& names, std::string_view name, std::uint32_t& previous) const {
    const std::uint32_t next = previous + 1;  // kNone + 1 == 0: the first node
    if (next < names.size() && names[next] == name) return previous = next;
    const std::uint32_t found = find(names, name);
    if (found != kNone) previous = found;
    return found;
  }
  /// Makes room for `n` names at once (growing rehashes every name).
  void reserve(std::size_t n) {
    std::size_t want = 1024;
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) rehash(want);
  }
  /// Indexes names[node] unless a node of that name is indexed; returns the node that has it.
  std::uint32_t insert(const std::vector<std::string>& names, std::uint32_t node) {
    if ((count_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 1024 : slots_.size() * 2);
    const std::uint32_t h = hash(names[node]);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.node == kNone) {
        s = Slot{h, node};
        ++count_;
        return node;
      }
      if (s.hash == h && names[s.node] == names[node]) return s.node;
    }
  }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t node = kNone;
  };
  static std::uint32_t hash(std::string_view s) noexcept {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(s));
  }
  void rehash(std::size_t capacity) {  // a power of two
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.node == kNone) continue;
      std::size_t i = s.hash & mask_;
      while (slots_[i].node != kNone) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

/// "did you mean" for a gres.conf name slurm.conf does not define: the first slurm.conf node
/// (in definition order) that equals it ignoring case, or that has the same text before its
/// first digit, the same number there and a different length (zero padding differs).
/// Performance: replaces a scan of every node name for each of up to 256 unknown names per
/// gres.conf line (25 million comparisons per line on 100,000 nodes when no name is close);
/// the two tables are built once, only when some gres.conf name is unknown.
class SpellingHints {
 public:
  explicit SpellingHints(const std::vector<std::string>& names) {
    for (std::uint32_t i = 0; i < names.size(); ++i) {
      const std::string& n = names[i];
      lower_.emplace(to_lower(n), i);
      const std::size_t digit = n.find_first_of(kDigits);
      if (digit == std::string::npos) continue;
      std::vector<Sized>& firsts = numbered_[key(n.substr(0, digit), std::strtoull(n.c_str() + digit, nullptr, 10))];
      if (std::none_of(firsts.begin(), firsts.end(), [&](const Sized& s) { return s.size == n.size(); }))
        firsts.push_back(Sized{n.size(), i});
    }
  }
  /// The node `u` is probably a misspelling of, or NodeIndex::kNone.
  std::uint32_t find(const std::string& u) const {
    std::uint32_t best = NodeIndex::kNone;
    if (auto it = lower_.find(to_lower(u)); it != lower_.end()) best = it->second;
    const std::size_t digit = u.find_first_of(kDigits);
    auto it = numbered_.find(key(u.substr(0, digit), std::strtoull(u.c_str() + std::min(u.size(), digit), nullptr, 10)));
    if (it != numbered_.end())
      for (const Sized& s : it->second)
        if (s.size != u.size()) best = std::min(best, s.node);
    return best;
  }

 private:
  static constexpr const char* kDigits = "0123456789";
  /// First node of each length among the names with one (prefix, number).
  struct Sized {
    std::size_t size;
    std::uint32_t node;
  };
  /// prefix, a NUL (host names never hold one: the parsers stop there), then the number.
  static std::string key(std::string prefix, unsigned long long number) {
    prefix.push_back('\0');
    prefix += std::to_string(number);
    return prefix;
  }
  std::unordered_map<std::string, std::uint32_t> lower_;  ///< lower-cased name -> first node
  std::unordered_map<std::string, std::vector<Sized>> numbered_;
};

class Analyzer {
 public:
  Analyzer(const LintInputs& in, const VersionProfile& p, SourceManager& s, Reporter& out)
      : in_(in), profile_(p), sources_(s), out_(out) {}

  Cluster run();

 private:
  // ----- slurm.conf ---------------------------------------------------------------
  void read_slurm_conf();
  void build_nodes();
  void check_grestypes();
  // ----- gres.conf ----------------------------------------------------------------
  void read_gres_conf();
  // ----- per node class -----------------------------------------------------------
  /// GRS4xx: accounting, isolation and scheduling of the GPU pool (model_policy.inc).
  void check_policy();
  void evaluate(NodeClass& cls, const NodeLine& node, const std::vector<const GresLine*>& lines,
                const std::string& rep);

  struct Pending {
    Diagnostic d;
    std::vector<std::uint32_t> nodes;
  };
  DiagnosticBuilder report_for(const RuleInfo& rule, Span span, std::string message);
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
  void spend(const Hostlist& list, Span where) {
    expanded_ += list.size();
    if (expanded_ > kMaxExpandedNames)
      throw LimitExceeded{where, fmt::format("greslint stops here: this list names {} hosts or files, which takes the "
                                             "names it expands in one run past its limit of {}",
                                             list.size(), kMaxExpandedNames)};
  }
  const KeyValue* setting(std::string_view key) const {
    auto it = settings_.find(to_lower(key));
    return it == settings_.end() ? nullptr : it->second;
  }
  bool in_grestypes_exact(std::string_view name) const {
    return std::find(grestypes_.begin(), grestypes_.end(), name) != grestypes_.end();
  }
  bool in_grestypes_nocase(std::string_view name) const {
    return std::any_of(grestypes_.begin(), grestypes_.end(), [&](const std::string& g) { return iequals(g, name); });
  }

  const LintInputs& in_;
  const VersionProfile& profile_;
  SourceManager& sources_;
  Reporter& out_;
  ConfigFile slurm_;
  ConfigFile gres_;
  ConfigFile cgroup_;
  std::unordered_map<std::string, const KeyValue*> settings_;
  std::vector<std::string> grestypes_;  ///< in Slurm's context order (shared names after gpu)
  std::vector<NodeLine> node_lines_;
  std::vector<GresLine> gres_lines_;
  Cluster cluster_;
  NodeIndex node_index_;  ///< over cluster_.node_names
  std::vector<std::uint32_t> node_line_of_;
  std::string global_autodetect_;
  const KeyValue* global_autodetect_kv_ = nullptr;
  bool ctld_fatal_ = false;
  std::string ctld_reason_;
  std::uint64_t expanded_ = 0;  ///< names made from hostlists so far (see spend())
  // Diagnostics found while evaluating a class are merged across classes.
  std::map<std::tuple<std::string_view, std::uint16_t, std::uint32_t, std::string>, Pending> pending_;
  const std::vector<std::uint32_t>* current_nodes_ = nullptr;
};

DiagnosticBuilder Analyzer::report_for(const RuleInfo& rule, Span span, std::string message) {
  message = clip_text(std::move(message));  // before it becomes a key: a value can be 10 MB
  auto key = std::make_tuple(rule.id, span.file.index, span.begin, message);
  auto it = pending_.find(key);
  if (it == pending_.end()) {
    Pending p;
    p.d.rule = &rule;
    p.d.severity = rule.severity;
    p.d.effect = rule.effect;
    p.d.daemon = rule.daemon;
    p.d.span = span;
    p.d.message = std::move(message);
    it = pending_.emplace(std::move(key), std::move(p)).first;
  }
  if (current_nodes_) it->second.nodes.insert(it->second.nodes.end(), current_nodes_->begin(), current_nodes_->end());
  return DiagnosticBuilder(it->second.d);
}

void Analyzer::read_slurm_conf() {
  ReadOptions opts;
  opts.table = KeyTable::slurm_conf;
  opts.slurm_conf_dir = dirname_of(in_.slurm_conf_path);
  slurm_ = read_config_file(in_.slurm_conf_path, opts, profile_, sources_, out_);
  if (slurm_.truncated) throw LimitExceeded{};
  for (const Directive& d : slurm_.directives)
    if (d.kind == Directive::Kind::setting) settings_[to_lower(d.head().spec->name)] = &d.head();
  if (slurm_.failed) {
    ctld_fatal_ = true;
    ctld_reason_ = "Unable to process configuration file";
  }
}

void Analyzer::check_grestypes() {
  const KeyValue* kv = setting("GresTypes");
  if (!kv) return;
  std::vector<std::string> names;
  std::vector<std::string> shared;
  for (std::string_view n : split_commas(kv->value)) {
    std::string name(n);
    if (name.empty()) continue;
    if (std::find(names.begin(), names.end(), name) != names.end() ||
        std::find(shared.begin(), shared.end(), name) != shared.end()) {
      out_.report(rules::GRS112, kv->value_span, fmt::format("GresTypes lists {} twice", name))
          .slurm(fmt::format("Duplicate plugin {} ignored", name))
          .help("list each GRES name once");
      continue;
    }
    (name == "mps" || name == "shard" ? shared : names).push_back(name);
  }
  const bool has_gpu = std::find(names.begin(), names.end(), "gpu") != names.end();
  if (!shared.empty() && !has_gpu) {
    out_.report(rules::GRS111, kv->value_span,
                fmt::format("GresTypes has {} but not gpu; shared GRES needs gres/gpu", shared.front()))
        .slurm("GresTypes: gres/'shared' requires that gres/gpu also be configured")
        .help("add gpu to GresTypes (GresTypes=gpu," + shared.front() + ")");
    ctld_fatal_ = true;
    ctld_reason_ = "GresTypes: gres/'shared' requires that gres/gpu also be configured";
  }
  std::vector<std::string> all = names;
  all.insert(all.end(), shared.begin(), shared.end());
  for (std::size_t i = 0; i < all.size() && !ctld_fatal_; ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j)
      if (gres_build_id(all[i]) == gres_build_id(all[j])) {
        std::string slurm = fmt::format("Gres: Duplicate plugin_id {} for gres/{} and gres/{}, change gres name for one of them",
                                        gres_build_id(all[i]), all[i], all[j]);
        out_.report(rules::GRS113, kv->value_span,
                    fmt::format("GRES names {} and {} hash to the same plugin id {}", all[i], all[j], gres_build_id(all[i])))
            .slurm(slurm)
            .help("rename one of them");
        ctld_fatal_ = true;
        ctld_reason_ = slurm;
        break;
      }
  // Slurm moves mps and shard after gpu, whatever the order written.
  grestypes_ = names;
  grestypes_.insert(grestypes_.end(), shared.begin(), shared.end());
  if (!shared.empty()) {
    const KeyValue* select = setting("SelectType");
    bool cons_tres = select ? iequals(select->value, "select/cons_tres") : profile_.cons_tres_is_default();
    if (!cons_tres && !ctld_fatal_) {
      auto b = out_.report(rules::GRS114, select ? select->value_span : kv->value_span,
                           fmt::format("GresTypes has {} but SelectType is {}", shared.front(),
                                       select ? select->value : "not set (the " + profile_.version().str() + " default is select/linear)"))
                   .slurm("Use of shared gres requires the use of select/cons_tres")
                   .help("set SelectType=select/cons_tres");
      if (select) b.related(kv->value_span, "shared GRES configured here");
      ctld_fatal_ = true;
      ctld_reason_ = "Use of shared gres requires the use of select/cons_tres";
    }
  }
}

void Analyzer::build_nodes() {
  // NodeName=DEFAULT lines accumulate; each node line sees the defaults as they are then.
  std::unordered_map<std::string, const KeyValue*> defaults;
  auto get = [&](const Directive& d, std::string_view key) -> const KeyValue* {
    if (const KeyValue* kv = d.find(key)) return kv;
    auto it = defaults.find(to_lower(key));
    return it == defaults.end() ? nullptr : it->second;
  };
  // A configuration Slurm refuses still names its nodes: each of them carries the fatal.
  std::vector<const Directive*> node_lines;
  for (const Directive& d : slurm_.directives) node_lines.push_back(&d);
  if (slurm_.failed)
    for (const Directive& d : slurm_.recovered) node_lines.push_back(&d);
  auto is_node_line = [](const Directive& d) {
    return d.kind == Directive::Kind::record && iequals(d.head().spec->name, "NodeName");
  };
  // Performance: every NodeName= hostlist is parsed before any node is added, so that
  // node_names, node_line_of_ and the index are sized once for the whole cluster; grown node
  // by node they were copied and page-faulted several times over (~10% of a 100,000-node run).
  std::vector<HostlistResult> node_lists;
  std::uint64_t node_total = 0;
  for (const Directive* dp : node_lines) {
    const Directive& d = *dp;
    if (!is_node_line(d) || iequals(d.head().value, "DEFAULT") || iequals(d.head().value, "ALL")) continue;
    node_lists.push_back(parse_hostlist(d.head().value, d.head().value_span, profile_));
    if (node_lists.back().ok()) node_total += node_lists.back().list->size();
    if (node_total > kMaxNodes) break;  // the loop below stops at this line (LimitExceeded)
  }
  // Capped: one token can name 2^31 hosts, and past kMaxNodes the model stops anyway.
  const std::size_t expected = std::size_t(std::min<std::uint64_t>(node_total, kMaxNodes));
  cluster_.node_names.reserve(expected);
  node_line_of_.reserve(expected);
  node_index_.reserve(expected);
  std::size_t next_list = 0;
  std::uint64_t named_nodes = 0;  // node names on every line so far, duplicates included
  for (const Directive* dp : node_lines) {
    const Directive& d = *dp;
    if (!is_node_line(d)) continue;
    const KeyValue& head = d.head();
    if (iequals(head.value, "DEFAULT")) {
      for (std::string_view forbidden : {"NodeHostname", "NodeAddr", "BcastAddr"})
        if (const KeyValue* kv = d.find(forbidden)) {
          out_.report(rules::GRS104, kv->key_span, fmt::format("{} is not allowed on NodeName=DEFAULT", kv->spec->name))
              .slurm(fmt::format("{} not allowed with NodeName=DEFAULT", kv->spec->name))
              .help(fmt::format("move {} to the lines that name the nodes", kv->spec->name));
          ctld_fatal_ = true;
          ctld_reason_ = "Unable to process configuration file";
        }
      for (std::size_t i = 1; i < d.pairs.size(); ++i) defaults[to_lower(d.pairs[i].spec->name)] = &d.pairs[i];
      continue;
    }
    if (iequals(head.value, "ALL")) {
      out_.report(rules::GRS103, head.value_span, fmt::format("NodeName={} is a reserved word", head.value))
          .slurm(fmt::format("'{}' is a reserved word disallowed for use with NodeName", head.value))
          .help("rename the node");
      ctld_fatal_ = true;
      ctld_reason_ = fmt::format("'{}' is a reserved word disallowed for use with NodeName", head.value);
      continue;
    }
    NodeLine line;
    line.d = &d;
    line.names_text = head.value;
    line.names_span = head.value_span;
    // NodeAddr defaults to the NodeName string and its list is built first (A8).
    const KeyValue* addr = d.find("NodeAddr");
    HostlistResult names = std::move(node_lists[next_list++]);
    if (!names.ok() || names.list->empty()) {
      std::string slurm = names.ok() ? "Empty NodeName in config."
                                     : fmt::format("Unable to create {} list from {}", addr ? "NodeName" : "NodeAddr", head.value);
      out_.report(rules::GRS105, names.errors.empty() ? head.value_span : names.errors.front().span,
                           fmt::format("NodeName={} is not a valid hostlist{}", head.value,
                                       names.errors.empty() ? "" : ": " + names.errors.front().message))
                   .slurm(slurm)
                   .help("fix the bracket expression (e.g. gpu[01-16])");
      ctld_fatal_ = true;
      ctld_reason_ = slurm;
      continue;
    }
    const std::uint64_t count = names.list->size();
    for (std::string_view key : {"NodeAddr", "NodeHostname"}) {
      const KeyValue* kv = d.find(key);
      if (!kv) continue;
      auto l = parse_hostlist(kv->value, kv->value_span, profile_);
      if (!l.ok()) {
        std::string slurm = fmt::format("Unable to create {} list from {}", kv->spec->name, kv->value);
        out_.report(rules::GRS105, kv->value_span, fmt::format("{}={} is not a valid hostlist", kv->spec->name, kv->value))
            .slurm(slurm)
            .help("fix the bracket expression");
        ctld_fatal_ = true;
        ctld_reason_ = slurm;
      } else if (l.list->size() != count && l.list->size() > 1) {
        std::string slurm = fmt::format("{} count must equal that of NodeName records {} there must be no more than one",
                                        kv->spec->name, profile_.version() < kSlurm2302 ? "of" : "or");
        out_.report(rules::GRS106, kv->value_span,
                    fmt::format("{}={} names {} addresses for {} nodes", kv->spec->name, kv->value, l.list->size(), count))
            .slurm(slurm)
            .related(head.value_span, fmt::format("{} nodes here", count))
            .help(fmt::format("give exactly {} entries, or one", count));
        ctld_fatal_ = true;
        ctld_reason_ = slurm;
      }
    }
    // Topology, §3.2.
    Topology& t = line.topo;
    const KeyValue* cpus_kv = d.find("CPUs");
    if (!cpus_kv) { auto it = defaults.find("cpus"); if (it != defaults.end()) cpus_kv = it->second; }
    if (!cpus_kv) cpus_kv = get(d, "Procs");
    const KeyValue* sockets_kv = get(d, "Sockets");
    const KeyValue* spb_kv = get(d, "SocketsPerBoard");
    t.boards = std::uint32_t(parse_uint(get(d, "Boards"), 1));
    t.cores = std::uint32_t(parse_uint(get(d, "CoresPerSocket"), 1));
    t.threads = std::uint32_t(parse_uint(get(d, "ThreadsPerCore"), 1));
    std::uint32_t spb = std::uint32_t(parse_uint(spb_kv, 1));
    t.sockets = std::uint32_t(parse_uint(sockets_kv, 1));
    t.cpus = std::uint32_t(parse_uint(cpus_kv, 1));
    auto reset = [&](const KeyValue* kv, std::string text) {
      out_.report(rules::GRS101, kv ? kv->value_span : head.value_span, text)
          .slurm(fmt::format("NodeNames={} {}", head.value, text))
          .help("write the topology the hardware has (slurmd -C prints it)");
    };
    if (t.cores == 0) { reset(get(d, "CoresPerSocket"), "CoresPerSocket=0 is invalid, reset to 1"); t.cores = 1; }
    if (cpus_kv && t.cpus == 0) { reset(cpus_kv, "CPUs=0 is invalid, reset to 1"); t.cpus = 1; }
    if (t.threads == 0) { reset(get(d, "ThreadsPerCore"), "ThreadsPerCore=0 is invalid, reset to 1"); t.threads = 1; }
    if (spb_kv && spb == 0) { reset(spb_kv, "SocketsPerBoards=0 is invalid, reset to 1"); spb = 1; }
    if (sockets_kv && t.sockets == 0) { reset(sockets_kv, "Sockets=0 is invalid, reset to 1"); t.sockets = 1; }
    if (t.boards == 0) { reset(get(d, "Boards"), "Boards=0 is invalid, reset to 1"); t.boards = 1; }
    if (sockets_kv && spb_kv) {
      reset(sockets_kv, fmt::format("Sockets={} and SocketsPerBoard={} is invalid , using SocketsPerBoard",
                                    t.sockets, spb));
      t.sockets = t.boards * spb;
    } else if (!sockets_kv) {
      if (spb_kv) t.sockets = t.boards * spb;
      else if (cpus_kv && t.cpus / (t.cores * t.threads) >= 1 && t.cpus % (t.cores * t.threads) == 0)
        t.sockets = t.cpus / (t.cores * t.threads);
      else t.sockets = t.boards;
    }
    if (!cpus_kv) t.cpus = t.sockets * t.cores * t.threads;
    if (t.sockets < t.boards) {
      reset(get(d, "Boards"), fmt::format("Sockets({}) < Boards({}) resetting Boards=1", t.sockets, t.boards));
      t.boards = 1;
    }
    if (t.cpus != t.sockets && t.cpus != t.sockets * t.cores && t.cpus != t.sockets * t.cores * t.threads) {
      reset(cpus_kv, fmt::format("CPUs={} match no Sockets, Sockets*CoresPerSocket or "
                                 "Sockets*CoresPerSocket*ThreadsPerCore. Resetting CPUs.", t.cpus));
      t.cpus = t.sockets * t.cores * t.threads;
    }
    if (const KeyValue* g = get(d, "Gres")) {
      line.gres = g->value;
      line.gres_span = g->value_span;
    }
    if (const KeyValue* st = get(d, "State")) {
      line.cloud = icontains(st->value, "CLOUD");
      if (!valid_node_state(st->value)) {
        std::string slurm = fmt::format("Invalid state {} from {}", st->value, head.value);
        out_.report(rules::GRS107, st->value_span, fmt::format("State={} is not a node state Slurm knows", st->value))
            .slurm(slurm)
            .help("use UNKNOWN, IDLE, DOWN, DRAIN, FAIL, FUTURE or CLOUD (one state; no  combinations)");
        if (!ctld_fatal_) { ctld_fatal_ = true; ctld_reason_ = slurm; }
      }
    }
    // Duplicates count too: six million `NodeName=a` lines are one node for Slurm, but six
    // million lines for greslint to hold (they took 29 s and 3.9 GB before this limit).
    named_nodes += names.list->size();
    if (named_nodes > kMaxNodes)
      throw LimitExceeded{head.value_span,
                          fmt::format("greslint stops here: this line names {} nodes, which takes slurm.conf past "
                                      "its limit of {} node names",
                                      names.list->size(), kMaxNodes)};
    spend(*names.list, head.value_span);
    const auto line_index = std::uint32_t(node_lines_.size());
    node_lines_.push_back(std::move(line));
    names.list->for_each([&](const std::string& host, const HostRange& r) {
      const auto node = std::uint32_t(cluster_.node_names.size());
      cluster_.node_names.push_back(host);
      if (node_index_.insert(cluster_.node_names, node) != node) {
        cluster_.node_names.pop_back();
        std::string slurm = profile_.duplicate_node_message_is_hostname()
                                ? fmt::format("Duplicated NodeHostName {} in config file", host)
                                : fmt::format("Duplicated NodeName {} in the config file", host);
        out_.report(rules::GRS102, r.item, fmt::format("node {} is defined twice", host))
            .slurm(slurm)
            .nodes(host)
            .help("define each node on exactly one NodeName line");
        if (!ctld_fatal_) { ctld_fatal_ = true; ctld_reason_ = slurm; }
        return;
      }
      node_line_of_.push_back(line_index);
    });
  }
  // Partitions must name known nodes (A14).
  std::unordered_map<std::string, bool> nodesets;
  for (const Directive& n : slurm_.directives)
    if (n.kind == Directive::Kind::record && iequals(n.head().spec->name, "NodeSet")) nodesets[n.head().value] = true;
  for (const Directive& d : slurm_.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().spec->name, "PartitionName") || !d.complete) continue;
    const KeyValue* nodes = d.find("Nodes");
    if (!nodes || iequals(nodes->value, "ALL") || iequals(d.head().value, "DEFAULT")) continue;
    auto l = parse_hostlist(nodes->value, nodes->value_span, profile_);
    if (!l.ok()) continue;
    std::vector<std::string> unknown;
    std::uint32_t previous = NodeIndex::kNone;
    spend(*l.list, nodes->value_span);
    l.list->for_each([&](const std::string& host, const HostRange&) {
      if (node_index_.find_near(cluster_.node_names, host, previous) == NodeIndex::kNone && !nodesets.count(host) &&
          unknown.size() < 64)
        unknown.push_back(host);
    });
    if (!unknown.empty()) {
      std::string slurm = fmt::format("Invalid node names in partition {}", d.head().value);
      out_.report(rules::GRS108, nodes->value_span,
                  fmt::format("partition {} names nodes that no NodeName line defines: {}", d.head().value,
                              fold_hostnames(unknown)))
          .slurm(slurm)
          .help("add the nodes to a NodeName line, or remove them from Nodes=");
      if (!ctld_fatal_) { ctld_fatal_ = true; ctld_reason_ = slurm; }
    }
  }
}

void Analyzer::read_gres_conf() {
  ReadOptions opts;
  opts.table = KeyTable::gres_conf;
  opts.slurm_conf_dir = dirname_of(in_.slurm_conf_path);
  if (const KeyValue* c = setting("ClusterName")) opts.cluster_name = c->value;
  gres_ = read_config_file(in_.gres_conf_path, opts, profile_, sources_, out_);
  if (gres_.truncated) throw LimitExceeded{};
  std::uint32_t order = 0;
  std::vector<GresLine> global, scoped;
  for (const Directive& d : gres_.directives) {
    if (d.kind == Directive::Kind::setting) {
      if (iequals(d.head().spec->name, "AutoDetect")) {
        global_autodetect_ = d.head().value;
        global_autodetect_kv_ = &d.head();
      }
      continue;
    }
    GresLine g;
    g.d = &d;
    g.file_order = order++;
    if (iequals(d.head().key, "NodeName")) {
      g.node_scoped = true;
      auto l = parse_hostlist(d.head().value, d.head().value_span, profile_);
      if (l.ok()) g.nodes = std::move(*l.list);
      else
        out_.report(rules::GRS216, d.head().value_span,
                    fmt::format("NodeName={} is not a valid hostlist, so Slurm skips this line on every node",
                                d.head().value))
            .slurm(!l.errors.empty() && l.errors.front().slurm_logs ? l.errors.front().message : std::string())
            .help("fix the bracket expression; it must name slurm.conf NodeNames exactly");
      scoped.push_back(std::move(g));
    } else {
      global.push_back(std::move(g));
    }
  }
  // Slurm's record list: every Name= record, then every NodeName= record.
  gres_lines_ = std::move(global);
  // Moved, not copied: each line owns its parsed hostlist (thousands of lines on a large cluster).
  gres_lines_.insert(gres_lines_.end(), std::make_move_iterator(scoped.begin()), std::make_move_iterator(scoped.end()));
}

Cluster Analyzer::run() {
  read_slurm_conf();
  check_grestypes();
  build_nodes();
  const bool have_gres_types = !grestypes_.empty();
  if (have_gres_types) read_gres_conf();
  {
    ReadOptions opts;
    opts.table = KeyTable::cgroup_conf;
    opts.slurm_conf_dir = dirname_of(in_.slurm_conf_path);
    cgroup_ = read_config_file(in_.cgroup_conf_path, opts, profile_, sources_, out_);
    if (cgroup_.truncated) throw LimitExceeded{};
    if (cgroup_.failed && !ctld_fatal_) {
      ctld_fatal_ = true;
      ctld_reason_ = fmt::format("Could not open/read/parse cgroup.conf file {}", in_.cgroup_conf_path);
    }
  }

  // Which gres.conf lines apply to which node: expand each NodeName= line once.
  // Performance: a node's lines are not kept in a vector per node (200,000 allocations on
  // 100,000 nodes, then a std::map keyed by those vectors to group the nodes). Each list is an
  // id in a trie of lists, (list so far, next line) -> longer list, so equal lists get equal
  // ids; 0 is the empty list.
  const std::vector<std::string>& node_names = cluster_.node_names;
  const auto node_count = std::uint32_t(node_names.size());
  std::vector<std::uint32_t> list_of(node_count, 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> lists{{0, 0}};  ///< id -> (shorter list, last line)
  std::unordered_map<std::uint64_t, std::uint32_t> longer;              ///< (list << 32 | line) -> id
  std::vector<std::uint32_t> last_line(node_count, NodeIndex::kNone);
  std::optional<SpellingHints> hints;
  for (std::uint32_t li = 0; li < gres_lines_.size(); ++li) {
    const GresLine& g = gres_lines_[li];
    if (!g.node_scoped) continue;
    if (!g.nodes) continue;
    std::vector<std::string> unknown;
    bool any = false;
    spend(*g.nodes, g.d->head().value_span);
    std::uint32_t previous = NodeIndex::kNone;
    g.nodes->for_each([&](const std::string& host, const HostRange&) {
      const std::uint32_t n = node_index_.find_near(node_names, host, previous);
      if (n == NodeIndex::kNone) {
        if (unknown.size() < 256) unknown.push_back(host);
        return;
      }
      any = true;
      if (last_line[n] == li) return;  // named twice on this line
      last_line[n] = li;
      auto [it, fresh] = longer.emplace((std::uint64_t(list_of[n]) << 32) | li, std::uint32_t(lists.size()));
      if (fresh) lists.emplace_back(list_of[n], li);
      list_of[n] = it->second;
    });
    if (!unknown.empty()) {
      std::string hint;
      if (!hints) hints.emplace(node_names);
      for (const std::string& u : unknown) {
        const std::uint32_t n = hints->find(u);
        if (n == NodeIndex::kNone) continue;
        hint = fmt::format("; did you mean {}? gres.conf must spell the slurm.conf NodeName exactly (case and zero padding)",
                           node_names[n]);
        break;
      }
      out_.report(rules::GRS310, g.d->head().value_span,
                  fmt::format("gres.conf names {} node{} that slurm.conf does not define: {}{}", unknown.size(),
                              unknown.size() == 1 ? "" : "s", fold_hostnames(unknown), hint))
          .help(any ? "remove the unknown names, or define them in slurm.conf"
                    : "this line applies to no node; use the slurm.conf NodeName spelling");
    }
  }

  // Node classes: same node line and same applicable gres.conf lines, numbered in the order
  // of their first node.
  std::unordered_map<std::uint64_t, std::uint32_t> class_index;  ///< (node line << 32 | list) -> class
  std::vector<std::pair<std::uint32_t, std::uint32_t>> class_key;  ///< class -> (node line, list)
  cluster_.class_of.resize(node_count);
  for (std::uint32_t n = 0; n < node_count; ++n) {
    auto [it, fresh] = class_index.emplace((std::uint64_t(node_line_of_[n]) << 32) | list_of[n],
                                           std::uint32_t(cluster_.classes.size()));
    if (fresh) {
      cluster_.classes.emplace_back();
      class_key.emplace_back(node_line_of_[n], list_of[n]);
    }
    cluster_.classes[it->second].nodes.push_back(n);
    cluster_.class_of[n] = it->second;
  }
  // Evaluated in (node line, lines) order, as when the classes were a std::map with that key:
  // a finding merged across classes takes its help from the last class and its related
  // notes from every class in turn, so the order is part of the output.
  struct Order {
    std::uint32_t node_line;
    std::vector<std::uint32_t> lines;
    std::uint32_t cls;
  };
  std::vector<Order> order;
  order.reserve(class_key.size());
  for (std::uint32_t ci = 0; ci < class_key.size(); ++ci) {
    Order o{class_key[ci].first, {}, ci};
    for (std::uint32_t list = class_key[ci].second; list != 0; list = lists[list].first) o.lines.push_back(lists[list].second);
    std::reverse(o.lines.begin(), o.lines.end());
    order.push_back(std::move(o));
  }
  std::sort(order.begin(), order.end(), [](const Order& a, const Order& b) {
    return std::tie(a.node_line, a.lines) < std::tie(b.node_line, b.lines);
  });
  for (const Order& o : order) {
    NodeClass& cls = cluster_.classes[o.cls];
    if (ctld_fatal_) {
      cls.verdict = Verdict::slurmctld_fatal;
      cls.reason = ctld_reason_;
      continue;
    }
    std::vector<const GresLine*> lines;
    for (const GresLine& g : gres_lines_)
      if (!g.node_scoped) lines.push_back(&g);
    for (std::uint32_t li : o.lines) lines.push_back(&gres_lines_[li]);
    current_nodes_ = &cls.nodes;
    evaluate(cls, node_lines_[o.node_line], lines, cluster_.node_names[cls.nodes.front()]);
    current_nodes_ = nullptr;
  }
  check_policy();
  for (const ConfigFile* f : {&slurm_, &gres_, &cgroup_})
    cluster_.comments.insert(cluster_.comments.end(), f->comments.begin(), f->comments.end());
  // Hand the merged findings over, with their nodes folded.
  for (auto& [key, p] : pending_) {
    if (!p.nodes.empty()) {
      std::vector<std::string> names;
      names.reserve(p.nodes.size());
      for (std::uint32_t n : p.nodes) names.push_back(cluster_.node_names[n]);
      p.d.nodes = fold_hostnames(std::move(names));
    }
    for (std::string* s : {&p.d.message, &p.d.help, &p.d.slurm_message}) {
      std::size_t at;
      while ((at = s->find(kNodesToken)) != std::string::npos) s->replace(at, kNodesToken.size(), p.d.nodes);
      // Slurm names one node per log line; a grouped finding shows the group.
      while ((at = s->find(kNodeToken)) != std::string::npos) s->replace(at, kNodeToken.size(), p.d.nodes);
    }
    out_.add(std::move(p.d));  // the per-rule limit applies to merged findings too
  }
  return std::move(cluster_);
}

#include "model_eval.inc"
#include "model_policy.inc"

}  // namespace

Cluster analyze(const LintInputs& inputs, const VersionProfile& profile, SourceManager& sources, Reporter& out) {
  Analyzer a(inputs, profile, sources, out);
  try {
    return a.run();
  } catch (const LimitExceeded& e) {
    // What Slurm does with such a configuration is beyond a model: report where greslint
    // stopped, and no nodes.
    if (e.message.empty()) return Cluster{};
    out.report(rules::GRS008, e.span, e.message)
        .effect(Effect::none, Daemon::none)
        .help(fmt::format("greslint models at most {} nodes and makes at most {} names from hostlists per run",
                          kMaxNodes, kMaxExpandedNames));
    return Cluster{};
  }
}

}  // namespace greslint
