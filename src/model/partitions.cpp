// SPDX-License-Identifier: Apache-2.0
// PartitionName lines as slurmctld builds its partitions (read_config.c:
// _build_single_partitionline_info, then build_part_bitmap): Nodes= names nodes, NodeSets
// (substituted by nodespec_to_hostlist) or ALL, and a partition without Nodes= takes
// PartitionName=DEFAULT's. The nodes are kept for the commands that count a partition's
// GPUs (diff, upgrade); names that are no node go to the partition checks (GRS108).
#include <algorithm>
#include <unordered_map>

#include "model/analyzer.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {
namespace {

/// NodeSet name -> its line. A set has Feature= (the nodes whose Features name it),
/// Nodes= (a hostlist, or ALL), or both.
std::unordered_map<std::string, const Directive*> nodesets_of(const DirectiveIndex& slurm) {
  std::unordered_map<std::string, const Directive*> sets;
  for (const Directive* n : slurm.records("NodeSet")) sets[std::string(n->head().value)] = n;
  return sets;
}

bool names_feature(std::string_view features, std::string_view feature) {
  const auto words = split_commas_view(features);
  return std::find(words.begin(), words.end(), feature) != words.end();
}

}  // namespace

std::vector<std::uint32_t> Analyzer::nodes_with_feature(std::string_view feature) const {
  // Features of each NodeName line, after NodeName=DEFAULT inheritance (slurm.conf order).
  std::vector<bool> line_has(node_lines_.size(), false);
  std::string defaults;
  std::size_t line = 0;
  for (const Directive* node_line : slurm_index_.records("NodeName")) {
    const Directive& d = *node_line;
    const KeyValue* kv = d.find("Features");
    if (!kv) kv = d.find("Feature");
    if (iequals(d.head().value, "DEFAULT")) {
      if (kv) defaults = kv->value;
      continue;
    }
    if (line < node_lines_.size() && node_lines_[line].d == &d)
      line_has[line++] = names_feature(kv ? std::string_view(kv->value) : std::string_view(defaults), feature);
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t n = 0; n < node_line_of_.size(); ++n)
    if (line_has[node_line_of_[n]]) out.push_back(n);
  return out;
}

void Analyzer::check_partitions() {
  const auto nodesets = nodesets_of(slurm_index_);
  const std::uint32_t node_count = static_cast<std::uint32_t>(cluster_.node_names.size());
  std::string default_nodes;
  const std::vector<const Directive*>& lines = slurm_index_.records("PartitionName");
  resolved_partition_lines_.assign(lines.size(), std::nullopt);
  for (std::size_t line_number = 0; line_number < lines.size(); ++line_number) {
    const Directive& d = *lines[line_number];
    const KeyValue* nodes = d.find("Nodes");
    if (iequals(d.head().value, "DEFAULT")) {
      if (nodes) default_nodes = nodes->value;
      continue;
    }
    Partition part{std::string(d.head().value), {}};
    std::vector<bool> member(node_count, false);
    auto add = [&](std::uint32_t n) {
      if (!member[n]) part.nodes.push_back(n);
      member[n] = true;
    };
    std::optional<rules::PartitionView> view;
    if (nodes && d.complete) view.emplace(rules::PartitionView{d, *nodes, {}, std::nullopt});
    NodeIndex::Near near;
    auto look_up = [&](const std::string& host) {
      const std::uint32_t n = node_index_.find_near(cluster_.node_names, host, near);
      if (n != NodeIndex::kNone) add(n);
      else if (view && view->unknown.size() < 64) view->unknown.push_back(host);
    };
    const std::string_view spec = nodes ? std::string_view(nodes->value) : std::string_view(default_nodes);
    const Span where = nodes ? nodes->value_span : Span{};
    bool names_only = false;  // a hostlist of node names only (resolved_partition_lines_)
    std::uint64_t names = 0;
    if (iequals(spec, "ALL")) {
      for (std::uint32_t n = 0; n < node_count; ++n) add(n);
      view.reset();  // every node: none unknown
    } else if (auto list = parse_hostlist(spec, where, profile_); list.ok()) {
      names = list.list->size();
      spend(names, where);
      names_only = true;
      list.list->for_each([&](const std::string& host, const HostRange&) {
        auto set = nodesets.find(host);
        if (set == nodesets.end()) return look_up(host);
        names_only = false;
        // nodespec_to_hostlist: the set's Feature= nodes, then its Nodes= (from 23.11
        // Nodes=ALL is every node; before, "ALL" is looked up as a node name).
        if (const KeyValue* feature = set->second->find("Feature"))
          for (std::uint32_t n : nodes_with_feature(feature->value)) add(n);
        const KeyValue* set_nodes = set->second->find("Nodes");
        if (!set_nodes) return;
        if (profile_.version() >= kSlurm2311 && iequals(set_nodes->value, "ALL")) {
          for (std::uint32_t n = 0; n < node_count; ++n) add(n);
          return;
        }
        auto members = parse_hostlist(set_nodes->value, set_nodes->value_span, profile_);
        if (!members.ok()) return;
        spend(members.list->size(), set_nodes->value_span);
        members.list->for_each([&](const std::string& m, const HostRange&) { look_up(m); });
      });
    } else if (view) {
      // nodespec_to_hostlist returns nothing: the partition's bitmap fails like an unknown name.
      view->invalid = list.errors.empty() ? HostlistError{where, "not a valid hostlist", false} : list.errors.front();
    }
    if (view)
      for (const auto& check : rules::kPartitionStage) fate_after_cloud_loads().apply(check.run(*view, findings_));
    auto same = std::find_if(cluster_.partitions.begin(), cluster_.partitions.end(),
                             [&](const Partition& p) { return p.name == part.name; });
    const auto at = std::uint32_t(same - cluster_.partitions.begin());
    if (same != cluster_.partitions.end()) {
      *same = std::move(part);
      // The lines before of that name no longer hold their nodes there.
      for (auto& earlier : resolved_partition_lines_)
        if (earlier && earlier->partition == at) earlier.reset();
    } else {
      cluster_.partitions.push_back(std::move(part));
    }
    if (names_only) resolved_partition_lines_[line_number] = ResolvedPartitionLine{at, names};
  }
}

}  // namespace greslint::model
