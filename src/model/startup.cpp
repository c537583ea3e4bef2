// SPDX-License-Identifier: Apache-2.0
// slurm.conf start-up, as slurmctld reads it: GresTypes (gres.c:gres_init), each NodeName
// line (read_config.c, node_conf.c). The model builds the
// nodes; the checks of rules/stages.hpp decide whether slurmctld starts.
#include <algorithm>
#include <array>
#include <fmt/format.h>

#include "gres_parse.hpp"
#include "huge_pages.hpp"
#include "model/analyzer.hpp"
#include "rules/stages.hpp"
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

void Analyzer::build_nodes() {
  // A configuration Slurm refuses still names its nodes: each of them carries the fatal.
  std::vector<const Directive*> lines = slurm_index_.records("NodeName");
  if (slurm_.failed)
    for (const Directive& d : slurm_.recovered)
      if (is_node_line(d)) lines.push_back(&d);
  reserve_nodes(lines);
  node_lines_.reserve(lines.size());  // one per line that names nodes, at most; grown by doubling, up to half was slack
  // The heap grew for these tables (16 MB of node lines at 100,000 nodes written one line
  // each): in huge pages before they are filled, as the reader's lines are.
  advise_heap_growth();
  NodeDefaults defaults;  // NodeName=DEFAULT lines accumulate; each line sees them as they are then
  std::uint32_t defaults_seen = 0;
  std::vector<DuplicateNode> duplicates;
  HostlistResult names;
  for (const Directive* d : lines) {
    using Kind = rules::NodeNameLineView::Kind;
    const std::string_view value = d->head().value;
    const Kind kind = iequals(value, "DEFAULT") ? Kind::defaults : iequals(value, "ALL") ? Kind::reserved_name : Kind::nodes;
    // A line written per node names one host as written: a valid list of itself, added
    // without making a Hostlist (a tenth of reading a slurm.conf written node by node).
    const bool single = kind == Kind::nodes && is_single_host(value);
    const HostlistResult* list = nullptr;
    if (kind == Kind::nodes && !single) {
      names = parse_hostlist(value, d->head().value_span, profile_);
      list = &names;
    }
    std::optional<NodeLine> line;
    if (single || (list && list->ok() && !list->list->empty())) line = node_line_of(*d, defaults, defaults_seen);
    const std::uint64_t count = !line ? 0 : single ? 1 : list->list->size();
    // Past greslint's limits the checks still run on this line, then the model stops.
    std::optional<LimitExceeded> stop = line ? over_limits(count, d->head().value_span) : std::nullopt;
    duplicates.clear();
    if (line && !stop) {
      if (single) add_node(value, d->head().value_span, duplicates);
      else add_nodes(*line, *list->list, duplicates);
    }
    const KeyValue* weights = d->find("TRESWeights");
    if (!weights && !defaults.empty())
      if (auto it = defaults.find("tresweights"); it != defaults.end()) weights = it->second;
    const rules::NodeNameLineView view{profile_,  settings_,          *d,
                                       kind,      list,               line ? &*line : nullptr,
                                       duplicates, cluster_.node_names,
                                       weights};
    for (const auto& check : rules::kNodeNameLineStage) ctld_.apply(check.run(view, findings_));
    if (line) {
      check_addresses(*d, *line, count);
      for (const auto& check : rules::kNodeNamesStage) ctld_.apply(check.run(view, findings_));
    }
    if (stop) throw *stop;
    if (kind == Kind::defaults) {
      for (const KeyValue& kv : d->rest()) defaults[to_lower(kv.spec->name)] = &kv;
      ++defaults_seen;
    }
    if (line) node_lines_.push_back(std::move(*line));
  }
}

// expand_nodeline_info makes every list of the line (NodeAddr, BcastAddr, NodeHostname, in
// that order) before it compares any count with the names, so a list Slurm cannot make
// stops it before a count that does not fit.
void Analyzer::check_addresses(const Directive& d, const NodeLine& line, std::uint64_t node_count) {
  struct List {
    KeyValue kv;
    std::optional<HostlistResult> parsed;  ///< unset for one host written plainly
  };
  // Performance: three lookups by name per line were 4% of reading a slurm.conf written node
  // by node; lines that repeat a tail without these keys are answered once per tail.
  if (d.repeated_tail() && d.repeated_tail() == tail_without_addresses_ && d.pairs_before_tail() == 0) return;
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
  if (made == 0 && d.pairs_before_tail() == 0) tail_without_addresses_ = d.repeated_tail();
  for (const auto* stage : {&rules::kNodeAddressStage, &rules::kNodeAddressCountStage})
    for (std::size_t i = 0; i < made; ++i) {
      const List& l = lists[i];
      const rules::NodeAddressView view{profile_, l.kv, l.parsed ? &*l.parsed : nullptr, node_count,
                                        line.names_span};
      for (const auto& check : *stage) ctld_.apply(check.run(view, findings_));
    }
}

}  // namespace greslint::model
