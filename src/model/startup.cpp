// SPDX-License-Identifier: Apache-2.0
// slurm.conf start-up, as slurmctld reads it: GresTypes (gres.c:gres_init), each NodeName
// line (read_config.c, node_conf.c). The model builds the
// nodes; the checks of rules/stages.hpp decide whether slurmctld starts.
#include <algorithm>
#include <array>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <fmt/format.h>

#include "gres_parse.hpp"
#include "huge_pages.hpp"
#include "model/analyzer.hpp"
#include "rules/stages.hpp"
#include "task.hpp"
#include "util.hpp"

namespace greslint::model {

void Analyzer::check_grestypes() {
  const KeyValue* kv = setting("GresTypes");
  if (!kv) return;
  rules::GresTypesView view{profile_, settings_, *kv, {}, {}, {}, ctld_.fatal};
  for (std::string_view n : split_commas(kv->value)) {
    std::string name(n);
    if (name.empty()) continue;
    const bool seen = std::find(view.names.begin(), view.names.end(), name) != view.names.end() ||
                      std::find(view.shared.begin(), view.shared.end(), name) != view.shared.end();
    if (seen) view.duplicates.push_back(std::move(name));
    else (name == "mps" || name == "shard" ? view.shared : view.names).push_back(std::move(name));
  }
  for (const auto& check : rules::kGresTypesStage) {
    view.slurmctld_failed = ctld_.fatal;  // gres_init stops at its first fatal
    ctld_.apply(check.run(view, findings_));
  }
  // Slurm moves mps and shard after gpu, whatever the order written.
  grestypes_ = view.names;
  grestypes_.insert(grestypes_.end(), view.shared.begin(), view.shared.end());
}

namespace {

/// TRESWeights= as NodeName line `d` has it: its own, or NodeName=DEFAULT's.
const KeyValue* tres_weights(const Directive& d, const NodeDefaults& defaults) {
  if (const KeyValue* own = d.find("TRESWeights")) return own;
  if (defaults.empty()) return nullptr;
  const auto it = defaults.find("tresweights");
  return it != defaults.end() ? it->second : nullptr;
}

/// A NodeName=DEFAULT line's values, from it on (each line sees the DEFAULT lines before it).
void take_defaults(const Directive& d, NodeDefaults& defaults) {
  for (const KeyValue& kv : d.rest()) defaults[to_lower(kv.spec->name)] = &kv;
}

/// How many names a NodeName line gives its nodes (0: it defines none): one for a host written
/// plainly, else its parsed `list`'s, if valid.
std::uint64_t names_given(NodeLineShape shape, const HostlistResult* list) {
  if (shape == NodeLineShape::single) return 1;
  return list && list->ok() ? list->list->size() : 0;
}

rules::NodeNameLineView::Kind kind_of(NodeLineShape shape) {
  using Kind = rules::NodeNameLineView::Kind;
  switch (shape) {
    case NodeLineShape::defaults: return Kind::defaults;
    case NodeLineShape::reserved_name: return Kind::reserved_name;
    case NodeLineShape::single:
    case NodeLineShape::list: break;
  }
  return Kind::nodes;
}

}  // namespace

/// One run of NodeName lines, checked before the node table is built (check_node_line): the
/// NodeLine of each line that names nodes, the lists parsed, the DEFAULT values met, and the
/// outcomes, which add_node_line applies in the order a pass line by line applied them.
struct Analyzer::NodeLineRun {
  NodeLineRun(Reporter& out, std::vector<NodeLine>& lines_) : findings(out), lines(lines_) {}
  Findings findings;
  std::vector<NodeLine>& lines;       ///< the NodeLine of each line that names nodes, in order
  std::deque<HostlistResult> lists;   ///< the NodeName= of each NodeLineShape::list line, in order
  /// Outcomes that stop slurmctld, with their line's index, in order (apply() ignores others).
  std::vector<std::pair<std::uint32_t, rules::Outcome>> fatal;
  NodeDefaults defaults;
  std::uint32_t defaults_seen = 0;
  NodeLinePrototypes prototypes;
  /// The last repeated tail found to hold no NodeAddr=, BcastAddr= or NodeHostname=: the
  /// lines that share it have none either (a file written node by node shares one tail).
  const RepeatedTail* tail_without_addresses = nullptr;

  /// A NodeName=DEFAULT line, for the lines after it.
  void take_defaults(const Directive& d) {
    model::take_defaults(d, defaults);
    ++defaults_seen;
  }
  void note(std::uint32_t index, rules::Outcome o) {
    if (o.kind() == rules::Outcome::Kind::slurmctld_fatal) fatal.emplace_back(index, std::move(o));
  }
};

/// Where add_node_line is in a run's lists and outcomes.
struct Analyzer::NodeLineCursor {
  NodeLineRun* run = nullptr;
  std::size_t list = 0;
  std::size_t fatal = 0;
  std::uint32_t line = 0;  ///< the next line's index in node_lines_
  NodeDefaults defaults;   ///< the DEFAULT values met so far, for the views of kNodeNamesStage
  std::vector<DuplicateNode> duplicates;
};

namespace {

/// build_nodes' first pass in chunks of lines: the model's thread takes them from the front,
/// and a second thread, once a core is free, from the back. Performance: the core the
/// gres.conf read holds is often freed a few milliseconds into the pass, when two fixed
/// halves could no longer be started.
class NodeLineChunks {
 public:
  explicit NodeLineChunks(std::uint32_t chunks) : back_(chunks) {}
  /// The next chunk from the front, or none left.
  std::optional<std::uint32_t> front() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (front_ == back_) return std::nullopt;
    return front_++;
  }
  /// The next chunk from the back, or none left.
  std::optional<std::uint32_t> back() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (front_ == back_) return std::nullopt;
    return --back_;
  }
  /// Whether more than one chunk is left: worth a second thread.
  bool many_left() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return back_ - front_ > 1;
  }
  /// The first chunk the back took, once none is left.
  std::uint32_t split() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return back_;
  }

 private:
  std::mutex mutex_;
  std::uint32_t front_ = 0;
  std::uint32_t back_;
};

#ifdef GRESLINT_SPLIT_EVERY_FILE
// scripts/refactor-oracle.py compares this build with one pass on every input: chunks of two
// lines, and the second thread whatever the cores.
constexpr std::uint32_t kNodeLinesPerChunk = 2;
constexpr bool kAlwaysSecondThread = true;
#else
constexpr std::uint32_t kNodeLinesPerChunk = 4096;
constexpr bool kAlwaysSecondThread = false;
#endif

}  // namespace

/// A chunk of lines the second thread checked: its run, with findings and NodeLines of its own.
struct Analyzer::NodeLineChunk {
  Reporter out;
  std::vector<NodeLine> lines;
  NodeLineRun run{out, lines};
};

/// slurmctld reads every NodeName line in order (read_config.c:_parse_nodename), then makes
/// each line's nodes (node_conf.c:expand_nodeline_info), refusing a name given twice. Most of
/// that needs only the line and the DEFAULT lines before it: it is done first, in chunks on
/// two cores once one is free (check_node_lines); then the names go into the table in order
/// (add_node_line), which also applies each line's outcomes in the order a pass line by line
/// met them. Performance: a slurm.conf written node by node has 100,000 NodeName lines, and
/// building their nodes took 25 ms with the other core idle.
void Analyzer::build_nodes() {
  // A configuration Slurm refuses still names its nodes: each of them carries the fatal.
  std::vector<const Directive*> lines = slurm_index_.records("NodeName");
  if (slurm_.failed)
    for (const Directive& d : slurm_.recovered)
      if (is_node_line(d)) lines.push_back(&d);
  const NodeLinesSeen seen = reserve_nodes(lines);
  node_lines_.reserve(lines.size());  // one per line that names nodes, at most; grown by doubling, up to half was slack
  // The heap grew for these tables (16 MB of node lines at 100,000 nodes written one line
  // each): in huge pages before they are filled, as the reader's lines are.
  advise_heap_growth();
  const auto count = std::uint32_t(lines.size());
  NodeLineRun first(out_, node_lines_);
  NodeLineCursor at;
  at.run = &first;
  // Past greslint's limits the model stops at a line, after that line's checks: no line
  // after it may be checked. Then each line is checked and added in turn.
  const bool within_limits = named_nodes_ + seen.names <= kMaxNodes && expanded_ + seen.names <= kMaxExpandedNames;
  if (!within_limits) {
    for (std::uint32_t i = 0; i < count; ++i) {
      check_node_line(first, *lines[i], i, seen.shapes[i]);
      add_node_line(at, *lines[i], i, seen.shapes[i]);
    }
    return;
  }
  std::vector<std::unique_ptr<NodeLineChunk>> chunks;
  const std::uint32_t split = check_node_lines(lines, seen, first, chunks);
  for (std::uint32_t c = split; c < chunks.size(); ++c) {
    out_.absorb(std::move(chunks[c]->out));
    std::move(chunks[c]->lines.begin(), chunks[c]->lines.end(), std::back_inserter(node_lines_));
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    if (i % kNodeLinesPerChunk == 0 && i / kNodeLinesPerChunk >= split) {
      at.run = &chunks[i / kNodeLinesPerChunk]->run;
      at.list = at.fatal = 0;
    }
    add_node_line(at, *lines[i], i, seen.shapes[i]);
  }
}

std::uint32_t Analyzer::check_node_lines(const std::vector<const Directive*>& lines, const NodeLinesSeen& seen,
                                         NodeLineRun& first, std::vector<std::unique_ptr<NodeLineChunk>>& chunks) {
  const auto count = std::uint32_t(lines.size());
  const std::uint32_t chunk_count = (count + kNodeLinesPerChunk - 1) / kNodeLinesPerChunk;
  chunks.resize(chunk_count);
  // A chunk of the second thread starts with the DEFAULT lines before it, their pairs made
  // here: a line's pairs are made by whichever thread asks first.
  for (const std::uint32_t i : seen.defaults) static_cast<void>(lines[i]->rest());
  auto check = [&](NodeLineRun& run, std::uint32_t chunk) {
    const std::uint32_t end = std::min(count, (chunk + 1) * kNodeLinesPerChunk);
    for (std::uint32_t i = chunk * kNodeLinesPerChunk; i < end; ++i) check_node_line(run, *lines[i], i, seen.shapes[i]);
  };
  NodeLineChunks order(chunk_count);
  Task<void> second;
  auto start_second = [&] {
    CoreBudget* const cores = kAlwaysSecondThread ? nullptr : &cores_;
    if (!kAlwaysSecondThread && !cores_.try_take()) return;
    try {
      second = start_task(cores, [&, cores] {
        const CoreBudget::Held core(cores, std::adopt_lock);
        while (const std::optional<std::uint32_t> chunk = order.back()) {
          auto mine = std::make_unique<NodeLineChunk>();
          mine->lines.reserve(kNodeLinesPerChunk);
          const std::uint32_t begin = *chunk * kNodeLinesPerChunk;
          for (const std::uint32_t i : seen.defaults) {
            if (i >= begin) break;
            mine->run.take_defaults(*lines[i]);
          }
          check(mine->run, *chunk);
          chunks[*chunk] = std::move(mine);
        }
      });
    } catch (const std::system_error&) {
      if (cores) cores->give();  // no thread to be had: all of it here
    }
  };
  while (const std::optional<std::uint32_t> chunk = order.front()) {
    if (!second.valid() && order.many_left()) start_second();
    check(first, *chunk);
  }
  if (second.valid()) second.get();
  return order.split();
}

void Analyzer::check_node_line(NodeLineRun& run, const Directive& d, std::uint32_t index, NodeLineShape shape) {
  const HostlistResult* list = nullptr;
  if (shape == NodeLineShape::list) list = &run.lists.emplace_back(parse_hostlist(d.head_value(), d.head_value_span(), profile_));
  const std::uint64_t count = names_given(shape, list);
  std::optional<NodeLine> line;
  if (count != 0) line = node_line_of(d, run.defaults, run.defaults_seen, run.prototypes);
  // The names are added after: a NodeName line's own checks need none of them.
  static const std::vector<DuplicateNode> kNoDuplicates;
  const rules::NodeNameLineView view{profile_, settings_, d, kind_of(shape), list, line ? &*line : nullptr,
                                     kNoDuplicates, cluster_.node_names, tres_weights(d, run.defaults)};
  for (const auto& check : rules::kNodeNameLineStage) run.note(index, check.run(view, run.findings));
  if (line) check_addresses(run, d, index, *line, count);
  if (shape == NodeLineShape::defaults) run.take_defaults(d);
  if (line) run.lines.push_back(std::move(*line));
}

void Analyzer::add_node_line(NodeLineCursor& at, const Directive& d, std::uint32_t index, NodeLineShape shape) {
  NodeLineRun& run = *at.run;
  const HostlistResult* list = shape == NodeLineShape::list ? &run.lists[at.list++] : nullptr;
  const std::uint64_t count = names_given(shape, list);
  const NodeLine* line = count != 0 ? &node_lines_[at.line] : nullptr;
  // Past greslint's limits the checks still run on this line, then the model stops.
  std::optional<LimitExceeded> stop = line ? over_limits(count, d.head_value_span()) : std::nullopt;
  at.duplicates.clear();
  if (line && !stop) {
    if (list) add_nodes(*line, *list->list, at.line, at.duplicates);
    else add_node(d.head_value(), d.head_value_span(), at.line, at.duplicates);
  }
  for (; at.fatal < run.fatal.size() && run.fatal[at.fatal].first == index; ++at.fatal)
    ctld_.apply(run.fatal[at.fatal].second);
  if (line) {
    const rules::NodeNameLineView view{profile_, settings_, d, kind_of(shape), list, line,
                                       at.duplicates, cluster_.node_names, tres_weights(d, at.defaults)};
    for (const auto& check : rules::kNodeNamesStage) ctld_.apply(check.run(view, findings_));
    ++at.line;
  }
  if (stop) throw *stop;
  if (shape == NodeLineShape::defaults) take_defaults(d, at.defaults);
}

// expand_nodeline_info makes every list of the line (NodeAddr, BcastAddr, NodeHostname, in
// that order) before it compares any count with the names, so a list Slurm cannot make
// stops it before a count that does not fit.
void Analyzer::check_addresses(NodeLineRun& run, const Directive& d, std::uint32_t index, const NodeLine& line,
                               std::uint64_t node_count) {
  struct List {
    KeyValue kv;
    std::optional<HostlistResult> parsed;  ///< unset for one host written plainly
  };
  // Performance: three lookups by name per line were 4% of reading a slurm.conf written node
  // by node; lines that repeat a tail without these keys are answered once per tail.
  if (d.repeated_tail() && d.repeated_tail() == run.tail_without_addresses && d.pairs_before_tail() == 0 &&
      d.pairs_after_tail() == 0)
    return;
  // Copies (value_of): a line that repeats a tail after its own NodeAddr= keeps its other
  // pairs unmade, six of 72 bytes for each node of an inventory-written slurm.conf.
  // Performance: a node's own address (NodeAddr=10.3.17.4) is one host written plainly; its
  // hostlist, made and freed in a vector of its own, was ~1,300 instructions of every node of
  // an inventory-written slurm.conf (callgrind: 130 M of the run's 1,263 M). Such a value
  // needs no list.
  std::array<List, 3> lists;
  std::size_t made = 0;
  for (std::string_view key : {"NodeAddr", "BcastAddr", "NodeHostname"})
    if (std::optional<KeyValue> kv = d.value_of(key)) {
      List& l = lists[made++];
      l.kv = *kv;
      if (!is_single_host(kv->value)) l.parsed = parse_hostlist(kv->value, kv->value_span, profile_);
    }
  if (made == 0 && d.pairs_before_tail() == 0) run.tail_without_addresses = d.repeated_tail();
  for (const auto* stage : {&rules::kNodeAddressStage, &rules::kNodeAddressCountStage})
    for (std::size_t i = 0; i < made; ++i) {
      const List& l = lists[i];
      const rules::NodeAddressView view{profile_, l.kv, l.parsed ? &*l.parsed : nullptr, node_count,
                                        line.names_span()};
      for (const auto& check : *stage) run.note(index, check.run(view, run.findings));
    }
}

}  // namespace greslint::model
