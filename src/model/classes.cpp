// SPDX-License-Identifier: Apache-2.0
// Node classes: the nodes of one NodeName line to which the same gres.conf lines apply are
// alike for slurmd and slurmctld, so the replay evaluates each class once.
#include <algorithm>
#include <fmt/format.h>
#include <tuple>
#include <unordered_map>

#include "model/analyzer.hpp"
#include "rules/rules.hpp"

namespace greslint::model {

// Performance: a node's lines are not kept in a vector per node (200,000 allocations on
// 100,000 nodes, then a std::map keyed by those vectors to group the nodes). Each list is an
// id in a trie of lists, (list so far, next line) -> longer list, so equal lists get equal
// ids; 0 is the empty list.
Analyzer::LineLists Analyzer::apply_gres_lines() {
  const std::vector<std::string>& node_names = cluster_.node_names;
  const auto node_count = std::uint32_t(node_names.size());
  LineLists l;
  l.list_of.assign(node_count, 0);
  std::unordered_map<std::uint64_t, std::uint32_t> longer;  ///< (list << 32 | line) -> id
  std::vector<std::uint32_t> last_line(node_count, NodeIndex::kNone);
  std::optional<SpellingHints> hints;
  for (std::uint32_t li = 0; li < gres_lines_.size(); ++li) {
    const GresLine& g = gres_lines_[li];
    if (!g.node_scoped || !g.nodes) continue;
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
      auto [it, fresh] = longer.emplace((std::uint64_t(l.list_of[n]) << 32) | li, std::uint32_t(l.lists.size()));
      if (fresh) l.lists.emplace_back(l.list_of[n], li);
      l.list_of[n] = it->second;
    });
    if (unknown.empty()) continue;
    if (!hints) hints.emplace(node_names);
    report_unknown_gres_nodes(g, unknown, any, *hints);
  }
  return l;
}

void Analyzer::report_unknown_gres_nodes(const GresLine& g, const std::vector<std::string>& unknown, bool any,
                                         const SpellingHints& hints) {
  std::string hint;
  for (const std::string& u : unknown) {
    const std::uint32_t n = hints.find(u);
    if (n == NodeIndex::kNone) continue;
    hint = fmt::format("; did you mean {}? gres.conf must spell the slurm.conf NodeName exactly (case and zero padding)",
                       cluster_.node_names[n]);
    break;
  }
  out_.report(rules::GRS310, g.d->head().value_span,
              fmt::format("gres.conf names {} node{} that slurm.conf does not define: {}{}", unknown.size(),
                          unknown.size() == 1 ? "" : "s", fold_hostnames(unknown), hint))
      .help(any ? "remove the unknown names, or define them in slurm.conf"
                : "this line applies to no node; use the slurm.conf NodeName spelling");
}

// Classes are numbered in the order of their first node; the order they are evaluated in
// is returned.
std::vector<Analyzer::ClassOrder> Analyzer::form_classes(const LineLists& l) {
  const auto node_count = std::uint32_t(cluster_.node_names.size());
  std::unordered_map<std::uint64_t, std::uint32_t> class_index;    ///< (node line << 32 | list) -> class
  std::vector<std::pair<std::uint32_t, std::uint32_t>> class_key;  ///< class -> (node line, list)
  cluster_.class_of.resize(node_count);
  for (std::uint32_t n = 0; n < node_count; ++n) {
    auto [it, fresh] = class_index.emplace((std::uint64_t(node_line_of_[n]) << 32) | l.list_of[n],
                                           std::uint32_t(cluster_.classes.size()));
    if (fresh) {
      cluster_.classes.emplace_back();
      class_key.emplace_back(node_line_of_[n], l.list_of[n]);
    }
    cluster_.classes[it->second].nodes.push_back(n);
    cluster_.class_of[n] = it->second;
  }
  // Evaluated in (node line, lines) order, as when the classes were a std::map with that key:
  // a finding merged across classes takes its help from the last class and its related
  // notes from every class in turn, so the order is part of the output.
  std::vector<ClassOrder> order;
  order.reserve(class_key.size());
  for (std::uint32_t ci = 0; ci < class_key.size(); ++ci) {
    ClassOrder o{class_key[ci].first, {}, ci};
    for (std::uint32_t list = class_key[ci].second; list != 0; list = l.lists[list].first)
      o.lines.push_back(l.lists[list].second);
    std::reverse(o.lines.begin(), o.lines.end());
    order.push_back(std::move(o));
  }
  std::sort(order.begin(), order.end(), [](const ClassOrder& a, const ClassOrder& b) {
    return std::tie(a.node_line, a.lines) < std::tie(b.node_line, b.lines);
  });
  return order;
}

}  // namespace greslint::model
