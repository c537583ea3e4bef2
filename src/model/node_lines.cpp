// SPDX-License-Identifier: Apache-2.0
// The nodes of a slurm.conf NodeName line: their topology as Slurm corrects it (§3.2) and
// their names in the cluster's node index.
#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <unordered_map>
#include <fmt/format.h>

#include "model/analyzer.hpp"
#include "util.hpp"

namespace greslint::model {
namespace {

std::uint64_t parse_uint(const KeyValue* kv, std::uint64_t fallback) {
  if (!kv) return fallback;
  // Plain decimal digits without a leading zero, too few to overflow, read here: what
  // strtoull gives them, without copying the value to terminate it (three per node line of
  // a slurm.conf written node by node). Anything else (0x.., 010, signs, blanks) is its.
  const std::string_view v = kv->value;
  if (!v.empty() && v.size() <= 19 && (v[0] != '0' || v.size() == 1) &&
      std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    std::uint64_t n = 0;
    for (const char c : v) n = n * 10 + std::uint64_t(c - '0');
    return n;
  }
  return std::strtoull(std::string(v).c_str(), nullptr, 0);
}

/// A key of the line, else of the DEFAULT lines before it.
const KeyValue* get(const Directive& d, const NodeDefaults& defaults, std::string_view key) {
  if (const KeyValue* kv = d.find(key)) return kv;
  if (defaults.empty()) return nullptr;  // a file without DEFAULT lines: no key to lower-case and hash
  auto it = defaults.find(to_lower(key));
  return it == defaults.end() ? nullptr : it->second;
}

/// Slurm's corrections of a topology that does not add up, in the order
/// read_config.c:_parse_nodename makes them.
class TopologyReader {
 public:
  TopologyReader(const Directive& d, const NodeDefaults& defaults, NodeLine& line)
      : d_(d), defaults_(defaults), line_(line), t_(line.topo) {}

  void run() {
    // CPUs= of the line itself, else of DEFAULT, else the old name Procs=.
    cpus_ = d_.find("CPUs");
    if (!cpus_ && !defaults_.empty()) {
      auto it = defaults_.find("cpus");
      if (it != defaults_.end()) cpus_ = it->second;
    }
    if (!cpus_) cpus_ = get(d_, defaults_, "Procs");
    sockets_ = get(d_, defaults_, "Sockets");
    spb_kv_ = get(d_, defaults_, "SocketsPerBoard");
    t_.boards = std::uint32_t(parse_uint(get(d_, defaults_, "Boards"), 1));
    t_.cores = std::uint32_t(parse_uint(get(d_, defaults_, "CoresPerSocket"), 1));
    t_.threads = std::uint32_t(parse_uint(get(d_, defaults_, "ThreadsPerCore"), 1));
    spb_ = std::uint32_t(parse_uint(spb_kv_, 1));
    t_.sockets = std::uint32_t(parse_uint(sockets_, 1));
    t_.cpus = std::uint32_t(parse_uint(cpus_, 1));
    reset_zeros();
    derive_sockets();
    if (!cpus_) t_.cpus = t_.sockets * t_.cores * t_.threads;
    if (t_.sockets < t_.boards) {
      reset(get(d_, defaults_, "Boards"), fmt::format("Sockets({}) < Boards({}) resetting Boards=1", t_.sockets, t_.boards));
      t_.boards = 1;
    }
    if (t_.cpus != t_.sockets && t_.cpus != t_.sockets * t_.cores && t_.cpus != t_.sockets * t_.cores * t_.threads) {
      reset(cpus_, fmt::format("CPUs={} match no Sockets, Sockets*CoresPerSocket or "
                               "Sockets*CoresPerSocket*ThreadsPerCore. Resetting CPUs.", t_.cpus));
      t_.cpus = t_.sockets * t_.cores * t_.threads;
    }
  }

 private:
  void reset(const KeyValue* kv, std::string text) {
    line_.topology_resets.push_back(TopologyReset{kv ? kv->value_span : Span{}, std::move(text)});
  }

  void reset_zeros() {
    if (t_.cores == 0) { reset(get(d_, defaults_, "CoresPerSocket"), "CoresPerSocket=0 is invalid, reset to 1"); t_.cores = 1; }
    if (cpus_ && t_.cpus == 0) { reset(cpus_, "CPUs=0 is invalid, reset to 1"); t_.cpus = 1; }
    if (t_.threads == 0) { reset(get(d_, defaults_, "ThreadsPerCore"), "ThreadsPerCore=0 is invalid, reset to 1"); t_.threads = 1; }
    if (spb_kv_ && spb_ == 0) { reset(spb_kv_, "SocketsPerBoards=0 is invalid, reset to 1"); spb_ = 1; }
    if (sockets_ && t_.sockets == 0) { reset(sockets_, "Sockets=0 is invalid, reset to 1"); t_.sockets = 1; }
    if (t_.boards == 0) { reset(get(d_, defaults_, "Boards"), "Boards=0 is invalid, reset to 1"); t_.boards = 1; }
  }

  void derive_sockets() {
    if (sockets_ && spb_kv_) {
      reset(sockets_, fmt::format("Sockets={} and SocketsPerBoard={} is invalid , using SocketsPerBoard", t_.sockets, spb_));
      t_.sockets = t_.boards * spb_;
    } else if (!sockets_) {
      if (spb_kv_) t_.sockets = t_.boards * spb_;
      else if (cpus_ && t_.cpus / (t_.cores * t_.threads) >= 1 && t_.cpus % (t_.cores * t_.threads) == 0)
        t_.sockets = t_.cpus / (t_.cores * t_.threads);
      else t_.sockets = t_.boards;
    }
  }

  const Directive& d_;
  const NodeDefaults& defaults_;
  NodeLine& line_;
  Topology& t_;
  const KeyValue* cpus_ = nullptr;
  const KeyValue* sockets_ = nullptr;
  const KeyValue* spb_kv_ = nullptr;
  std::uint32_t spb_ = 1;
};

/// state_str2int: a State= that is no base state name is CLOUD when it starts with CLOUD, in
/// any case; DRAIN+CLOUD is UNKNOWN+DRAIN, for which slurmctld loads no gres.conf.
bool is_cloud_state(std::string_view state) {
  return state.size() >= 5 && iequals(state.substr(0, 5), "CLOUD");
}

}  // namespace

bool Analyzer::is_node_line(const Directive& d) {
  return d.kind == Directive::Kind::record && iequals(d.head().spec->name, "NodeName");
}

Analyzer::NodeLinesSeen Analyzer::reserve_nodes(const std::vector<const Directive*>& lines) {
  // Performance: node_names, node_line_of_ and the index are sized once for the whole cluster;
  // grown node by node they were copied and page-faulted several times over (~10% of a
  // 100,000-node run). No parsed list is kept (a file written node by node kept 100,000 of
  // them, ~30 MB, until the last line was read): a plain name is one node and is not parsed.
  NodeLinesSeen seen;
  seen.shapes.reserve(lines.size());
  for (const Directive* d : lines) {
    const std::string_view value = d->head_value();
    if (iequals(value, "DEFAULT")) {
      seen.shapes.push_back(NodeLineShape::defaults);
      seen.defaults.push_back(std::uint32_t(seen.shapes.size() - 1));
      continue;
    }
    if (iequals(value, "ALL")) {
      seen.shapes.push_back(NodeLineShape::reserved_name);
      continue;
    }
    const bool single = is_single_host(value);
    seen.shapes.push_back(single ? NodeLineShape::single : NodeLineShape::list);
    if (seen.names > kMaxNodes) continue;  // build_nodes stops at or before this line (LimitExceeded)
    if (single) {
      ++seen.names;
    } else if (const HostlistResult l = parse_hostlist(value, d->head_value_span(), profile_); l.ok()) {
      seen.names += l.list->size();
    }
  }
  // Capped: one token can name 2^31 hosts, and past kMaxNodes the model stops anyway.
  const std::size_t expected = std::size_t(std::min<std::uint64_t>(seen.names, kMaxNodes));
  cluster_.node_names.reserve(expected);
  node_line_of_.reserve(expected);
  node_index_.reserve(expected);
  return seen;
}

// A slurm.conf written node by node holds 100,000 of them: each byte here is 0.1 MB.
static_assert(sizeof(NodeLine) <= 128, "a NodeLine grew past 128 bytes");

NodeLine Analyzer::node_line_of(const Directive& d, const NodeDefaults& defaults, std::uint32_t defaults_seen,
                                NodeLinePrototypes& prototypes) const {
  const RepeatedTail* tail = d.repeated_tail();
  if (!tail) return node_line(d, defaults);
  auto [it, first] = prototypes.try_emplace(tail);
  NodeLinePrototype& proto = it->second;
  if (first || proto.defaults_seen != defaults_seen) {
    proto = NodeLinePrototype{defaults_seen, &d, node_line(d, defaults)};
    return proto.line;
  }
  // Slurm's corrections name the values they correct: rare enough to derive again.
  if (!proto.line.topology_resets.empty()) return node_line(d, defaults);
  // The same text after the name, under the same DEFAULT lines: the same line, but for where
  // it is written. What the prototype took from its own tail moves onto this line's.
  const Directive& p = *proto.d;
  const std::uint32_t from = p.tail_begin(), to = d.tail_begin(), end = p.span.end;
  auto move_span = [&](Span s) {
    if (s.file != p.span.file || s.begin < from || s.end > end) return s;
    return Span{d.span.file, s.begin - from + to, s.end - from + to};
  };
  auto move_view = [&](std::string_view v) {
    const char* text = p.tail_text();
    if (v.data() < text || v.data() + v.size() > text + (end - from)) return v;
    return std::string_view(d.tail_text() + (v.data() - text), v.size());
  };
  NodeLine line = proto.line;
  line.d = &d;
  line.gres = move_view(line.gres);
  line.gres_span = move_span(line.gres_span);
  line.state = move_view(line.state);
  line.state_span = move_span(line.state_span);
  line.restricted_cores_span = move_span(line.restricted_cores_span);
  return line;
}

NodeLine Analyzer::node_line(const Directive& d, const NodeDefaults& defaults) const {
  NodeLine line;
  line.d = &d;
  TopologyReader(d, defaults, line).run();
  if (const KeyValue* g = get(d, defaults, "Gres")) {
    line.gres = g->value;
    line.gres_span = g->value_span;
  }
  if (const KeyValue* state = get(d, defaults, "State")) {
    line.state = state->value;
    line.state_span = state->value_span;
  }
  if (const KeyValue* reason = get(d, defaults, "Reason")) line.reason = reason->value;
  if (const KeyValue* restricted = get(d, defaults, "RestrictedCoresPerGPU")) {
    line.restricted_cores_per_gpu = std::uint32_t(parse_uint(restricted, 0));
    line.restricted_cores_span = restricted->value_span;
  }
  line.spec_cores = get(d, defaults, "CoreSpecCount") || get(d, defaults, "CpuSpecList");
  line.cloud = line.state_span.valid() && is_cloud_state(line.state);
  return line;
}

rules::HeldState held_state(const NodeLine& line) {
  if (!line.state_span.valid()) return rules::HeldState::none;
  return held_state(line.state);
}

rules::HeldState held_state(std::string_view s) {
  if (iequals(s, "DOWN")) return rules::HeldState::down;
  auto starts = [&](std::string_view prefix) { return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix); };
  // The base names are compared first: CLOUD... is IDLE+CLOUD, whatever follows.
  for (std::string_view base : {"UNKNOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE"})
    if (iequals(s, base)) return rules::HeldState::none;
  if (starts("CLOUD")) return rules::HeldState::none;
  if (starts("DRAIN")) return rules::HeldState::drain;
  if (starts("FAIL")) return rules::HeldState::fail;
  return rules::HeldState::none;
}

std::optional<LimitExceeded> Analyzer::over_limits(std::uint64_t names, Span where) {
  // Duplicates count too: six million `NodeName=a` lines are one node for Slurm, but six
  // million lines for greslint to hold (they took 29 s and 3.9 GB before this limit).
  named_nodes_ += names;
  if (named_nodes_ > kMaxNodes)
    return LimitExceeded{where, fmt::format("greslint stops here: this line names {} nodes, which takes slurm.conf past "
                                            "its limit of {} node names",
                                            names, kMaxNodes)};
  if (expanded_ + names > kMaxExpandedNames) return expansion_limit(names, where);
  return std::nullopt;
}

void Analyzer::insert_node(std::string_view host, Span where, std::uint32_t line, std::vector<DuplicateNode>& duplicates) {
  const auto node = std::uint32_t(cluster_.node_names.size());
  cluster_.node_names.emplace_back(host);
  if (const std::uint32_t first = node_index_.insert(cluster_.node_names, node); first != node) {
    cluster_.node_names.pop_back();
    duplicates.push_back(DuplicateNode{first, where, node});
    return;
  }
  node_line_of_.push_back(line);
}

void Analyzer::add_node(std::string_view host, Span where, std::uint32_t line, std::vector<DuplicateNode>& duplicates) {
  spend(1, where);
  insert_node(host, where, line, duplicates);
}

void Analyzer::add_nodes(const NodeLine& names_of, const Hostlist& names, std::uint32_t line,
                         std::vector<DuplicateNode>& duplicates) {
  spend(names.size(), names_of.names_span());
  names.for_each([&](const std::string& host, const HostRange& r) { insert_node(host, r.item, line, duplicates); });
}


// slurmctld/read_config.c:_handle_all_downnodes: each DownNodes= line, in file order, sets the
// state and reason of the nodes it names. A State= that state_str2int refuses makes Slurm log
// "Invalid State" and skip the line; a name slurm.conf lacks is logged and skipped. Later
// lines win; State=UNKNOWN leaves the state and still replaces the reason.
void Analyzer::apply_down_nodes() {
  down_of_.assign(cluster_.node_names.size(), 0);
  // Interned: nodes under the same override share its id (and so, all else equal, a class).
  std::unordered_map<std::string, std::uint32_t> ids;
  auto intern = [&](const DownNodesOverride& o) {
    std::string key = fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", int(o.held), o.state_set, o.state,
                                  o.state_at.file.index, o.state_at.begin, o.state_at.end, o.reason);
    auto [it, fresh] = ids.emplace(std::move(key), std::uint32_t(down_overrides_.size() + 1));
    if (fresh) down_overrides_.push_back(o);
    return it->second;
  };
  for (const Directive* line : slurm_index_.records("DownNodes")) {
    const Directive& d = *line;
    DownNodesOverride o;
    o.state = "DOWN";
    o.state_at = d.head().value_span;
    if (const KeyValue* st = d.find("State")) {
      o.state = st->value;
      o.state_at = st->value_span;
    }
    const std::string_view s = o.state;
    auto starts = [&](std::string_view p) { return s.size() >= p.size() && iequals(s.substr(0, p.size()), p); };
    const bool known = iequals(s, "DOWN") || iequals(s, "UNKNOWN") || iequals(s, "IDLE") || iequals(s, "ALLOCATED") ||
                       iequals(s, "ERROR") || iequals(s, "MIXED") || iequals(s, "FUTURE") || starts("CLOUD") ||
                       starts("DRAIN") || starts("FAIL");
    if (!known) continue;
    o.held = held_state(s);
    o.state_set = !iequals(s, "UNKNOWN");
    const KeyValue* reason = d.find("Reason");
    o.reason = reason ? reason->value : std::string_view("Set in slurm.conf");
    const HostlistResult names = parse_hostlist(d.head().value, d.head().value_span, profile_);
    if (!names.list) continue;
    spend(names.list->size(), d.head().value_span);
    names.list->for_each([&](const std::string& host, const HostRange&) {
      const std::uint32_t n = node_index_.find(cluster_.node_names, host);
      if (n == NodeIndex::kNone) return;
      DownNodesOverride merged = o;
      if (!o.state_set && down_of_[n] != 0) {  // UNKNOWN keeps what an earlier line set
        const DownNodesOverride& before = down_overrides_[down_of_[n] - 1];
        merged.held = before.held;
        merged.state_set = before.state_set;
        merged.state = before.state;
        merged.state_at = before.state_at;
      }
      down_of_[n] = intern(merged);
    });
  }
}

bool Analyzer::cloud_at_startup(std::uint32_t node) const {
  if (node < down_of_.size() && down_of_[node] != 0) {
    const DownNodesOverride& o = down_overrides_[down_of_[node] - 1];
    if (o.state_set) return is_cloud_state(o.state);
  }
  return node_lines_[node_line_of_[node]].cloud;
}

bool Analyzer::future_at_startup(std::uint32_t node) const {
  if (node < down_of_.size() && down_of_[node] != 0) {
    const DownNodesOverride& o = down_overrides_[down_of_[node] - 1];
    if (o.state_set) return iequals(o.state, "FUTURE");  // the one spelling apply_down_nodes takes
  }
  const NodeLine& l = node_lines_[node_line_of_[node]];
  return l.state_span.valid() && l.state.size() >= 6 && iequals(l.state.substr(0, 6), "FUTURE");
}

const NodeLine& Analyzer::startup_line(std::uint32_t node) {
  const NodeLine& line = node_lines_[node_line_of_[node]];
  const bool cloud = cloud_at_startup(node);
  if (cloud == line.cloud) return line;
  NodeLine& copy = startup_lines_.emplace_back(line);
  copy.cloud = cloud;
  return copy;
}

}  // namespace greslint::model
