// SPDX-License-Identifier: Apache-2.0
// Which gres.conf NodeName= lines each node reads, and what they say: every line's names
// found in slurm.conf's node table, in two runs of lines at once when a core is free.
#include <fmt/format.h>
#include <optional>
#include <unordered_map>
#include <utility>

#include "model/analyzer.hpp"
#include "rules/rules.hpp"
#include "two_parts.hpp"

namespace greslint::model {

// Named, not anonymous: Analyzer::LineMatch holds them (GCC's -Wsubobject-linkage in a
// unity build, where this file is not the main file).
namespace line_matching {

/// What the lines a node reads say, as an id: a trie of (list so far, next line's content) ->
/// longer list, 0 the empty list. Nodes whose lines say the same get one id, whichever lines
/// they are.
class ContentLists {
 public:
  std::uint32_t extend(std::uint32_t list, std::uint32_t content) {
    const auto [id, fresh] = ids_.try_emplace((std::uint64_t(list) << 32) | content, std::uint32_t(links_.size() + 1));
    if (fresh) links_.emplace_back(list, content);
    return id;
  }
  /// `base` extended by what `later`'s list `list` says, in order.
  std::uint32_t extend_by(std::uint32_t base, const ContentLists& later, std::uint32_t list) {
    scratch_.clear();
    for (; list != 0; list = later.links_[list - 1].first) scratch_.push_back(later.links_[list - 1].second);
    for (auto content = scratch_.rbegin(); content != scratch_.rend(); ++content) base = extend(base, *content);
    return base;
  }
  /// For each list of `later`, the id here of a list that says the same. Each of later's
  /// lists extends one made before it, so in the order they were made the shorter is known.
  std::vector<std::uint32_t> absorb(const ContentLists& later) {
    std::vector<std::uint32_t> here(later.links_.size() + 1, 0);
    for (std::size_t i = 0; i < later.links_.size(); ++i)
      here[i + 1] = extend(here[later.links_[i].first], later.links_[i].second);
    return here;
  }

 private:
  IdMap ids_;                                                   ///< (list << 32 | content) -> the longer list
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links_;  ///< list - 1 -> (shorter list, content)
  std::vector<std::uint32_t> scratch_;
};

/// A line that names nodes slurm.conf lacks (GRS310), kept until the lines before it are in.
struct UnknownNamesLine {
  std::uint32_t line;
  std::uint32_t content;
  bool any;  ///< the line also names nodes slurm.conf has
  Span names_at;
  std::vector<std::string> names;
};

}  // namespace line_matching

namespace {

using line_matching::UnknownNamesLine;

/// GRS310's groups: one finding per group of lines that say the same (their content id) and
/// name nodes slurm.conf lacks, apart as they also name nodes it has or not.
struct UnknownNameGroups {
  std::vector<UnknownNames> groups;
  IdMap group_of;  ///< (content << 1 | any known) -> group

  void add(UnknownNamesLine&& l) {
    const auto [id, fresh] =
        group_of.try_emplace((std::uint64_t(l.content) << 1) | (l.any ? 1 : 0), std::uint32_t(groups.size()));
    if (fresh) {
      groups.push_back(UnknownNames{l.line, std::move(l.names), {}, 0, l.any});
      return;
    }
    UnknownNames& group = groups[id];
    if (group.echoes.size() < kShownEchoes)
      group.echoes.push_back(Related{l.names_at, "this line also names " + fold_hostnames(l.names)});
    else
      ++group.hidden;
    for (std::string& u : l.names)
      if (group.names.size() < 256) group.names.push_back(std::move(u));
  }
};

}  // namespace

/// The tables one run of lines fills. The first run fills the model's own; a later run, on
/// another thread, fills tables of its own, added to the first's once both are done
/// (match_gres_lines).
struct Analyzer::LineMatch {
  std::vector<std::uint32_t>& content_of;  ///< node -> its ContentLists id
  NodeGresLines& lists;
  line_matching::ContentLists contents;
  std::vector<std::uint32_t> last_line;                  ///< node -> the last line that named it
  std::vector<line_matching::UnknownNamesLine> unknown;  ///< in line order
  /// A later run counts the names it makes here, not in expanded_, and stops short of
  /// `budget` (over_budget): only a run in one piece knows where spend() would throw.
  bool later = false;
  std::uint64_t spent = 0;
  std::uint64_t budget = 0;
  bool over_budget = false;

  LineMatch(std::vector<std::uint32_t>& content_of_, NodeGresLines& lists_, std::uint32_t nodes)
      : content_of(content_of_), lists(lists_), last_line(nodes, NodeIndex::kNone) {}
};

/// Which gres.conf lines apply to which node: each NodeName= line is expanded once.
/// Performance: no vector of lines per node (200,000 allocations on 100,000 nodes). Each
/// node's lines are an id in a trie, (list so far, next line) -> longer list, and so is what
/// they say (ContentLists): nodes whose lines say the same get one content id, whichever
/// NodeName= the lines name. 0 is the empty list. A file written one line per GPU has
/// 800,000 lines at 100,000 nodes: matched in one piece they were 11-13 ms with the other
/// core idle, so two runs of lines are matched at once and put together.
void Analyzer::match_gres_lines() {
  const auto node_count = std::uint32_t(cluster_.node_names.size());
  const auto line_count = std::uint32_t(gres_lines_.size());
  content_list_of_.assign(node_count, 0);
  // Room for an entry per line: a file written node by node has one per line; a list of
  // several nodes adds more, grown past this once.
  node_gres_lines_.resize(node_count, line_count);
  LineMatch first(content_list_of_, node_gres_lines_, node_count);
  // The later run starts where a node's run of lines does, so that most nodes are named by
  // one run only: theirs is then taken as it is.
  std::uint32_t middle = line_count / 2;
  for (int step = 0; step < 64 && middle < line_count && gres_lines_[middle].same_host_as_previous; ++step) ++middle;
  std::vector<std::uint32_t> later_contents;
  NodeGresLines later_lists;
  std::optional<LineMatch> later;
  const std::uint64_t later_budget = kMaxExpandedNames - expanded_;  // read here: the first run spends
  // Below this many lines a thread costs about what it saves.
  constexpr std::size_t kLinesForTwoRuns = 16384;
  const int runs =
      in_two_parts_at(&cores_, line_count, middle, kLinesForTwoRuns, [&](std::size_t begin, std::size_t end, int part) {
        if (part == 0) return match_range(std::uint32_t(begin), std::uint32_t(end), first);
        later_contents.assign(node_count, 0);
        later_lists.resize(node_count, end - begin);
        later.emplace(later_contents, later_lists, node_count);
        later->later = true;
        later->budget = later_budget;
        match_range(std::uint32_t(begin), std::uint32_t(end), *later);
      });
  if (runs == 2) {
    if (later->over_budget || expanded_ + later->spent > kMaxExpandedNames) {
      // Past the budget: matched again after the first run, to stop where one piece stops.
      match_range(middle, line_count, first);
    } else {
      expanded_ += later->spent;
      node_gres_lines_.absorb(later_lists);
      const std::vector<std::uint32_t> alone = first.contents.absorb(later->contents);
      // A node both runs name: what its first lines say, extended by what its later ones say,
      // found once per pair of lists.
      std::unordered_map<std::uint64_t, std::uint32_t> joined;
      for (std::uint32_t n = 0; n < node_count; ++n) {
        const std::uint32_t list = later_contents[n];
        if (list == 0) continue;
        std::uint32_t& own = content_list_of_[n];
        if (own == 0) {
          own = alone[list];
          continue;
        }
        const auto [at, fresh] = joined.try_emplace((std::uint64_t(own) << 32) | list, 0);
        if (fresh) at->second = first.contents.extend_by(own, later->contents, list);
        own = at->second;
      }
      for (UnknownNamesLine& u : later->unknown) first.unknown.push_back(std::move(u));
    }
  }
  UnknownNameGroups unknown_groups;
  for (UnknownNamesLine& u : first.unknown) unknown_groups.add(std::move(u));
  check_unknown_names(unknown_groups.groups);
}

void Analyzer::match_range(std::uint32_t begin, std::uint32_t end, LineMatch& m) {
  const std::vector<std::string>& node_names = cluster_.node_names;
  const GresLineIds& content = gres_contents_;
  IdMap line_lists;  ///< a node's list before this line -> after it
  // The last node found, across lines: files written node by node name the next node on
  // the next line (see NodeIndex::find_near).
  NodeIndex::Near near;
  // The host the line before named alone, and its node (names are unique in the node table).
  // Performance: a file written one line per GPU names each node on eight lines running;
  // finding the name again, and the list's growth, were half of matching its 800,000 lines.
  std::string_view last_host;
  std::uint32_t last_host_node = NodeIndex::kNone;
  // The names a line makes count against the model's budget (spend()); a later run's, as
  // LineMatch says.
  auto may_spend = [&](std::uint64_t names, Span where) {
    if (!m.later) {
      spend(names, where);
      return true;
    }
    if (m.spent + names >= m.budget) {
      m.over_budget = true;
      return false;
    }
    m.spent += names;
    return true;
  };
  for (std::uint32_t li = begin; li < end; ++li) {
    const GresLine& g = gres_lines_[li];
    if (!g.node_scoped || !g.nodes_valid) continue;
    std::vector<std::string> unknown;
    bool any = false;
    // Node n reads this line (once, however often the line names it).
    auto add = [&](std::uint32_t n, IdMap* shared_lists) {
      any = true;
      if (m.last_line[n] == li) return;  // named twice on this line
      m.last_line[n] = li;
      m.lists.append(n, li, shared_lists);
      m.content_of[n] = m.contents.extend(m.content_of[n], content[li]);
    };
    const bool within_budget = m.later ? m.spent + 1 < m.budget : expanded_ < kMaxExpandedNames;
    if (g.same_host_as_previous && last_host_node != NodeIndex::kNone && within_budget) {
      // The node the line before named alone: found without reading the line's directive.
      ++(m.later ? m.spent : expanded_);
      add(last_host_node, nullptr);
      continue;
    }
    const GresLineNodes nodes = nodes_of(g, gres_hostlists_);
    if (!may_spend(nodes.size(), g.d->head_value_span())) return;
    if (!g.hostlist) {
      const std::string_view host = g.d->head_value();
      if (last_host_node == NodeIndex::kNone || host != last_host) {
        last_host = host;
        last_host_node = node_index_.find_near(node_names, host, near);
      }
      if (last_host_node != NodeIndex::kNone) {
        add(last_host_node, nullptr);
        continue;
      }
      unknown.emplace_back(host);
    } else {
      last_host_node = NodeIndex::kNone;
      line_lists.clear();
      IdMap* shared_lists = nodes.size() > 1 ? &line_lists : nullptr;
      nodes.for_each([&](const std::string& host) {
        const std::uint32_t n = node_index_.find_near(node_names, host, near);
        if (n == NodeIndex::kNone) {
          if (unknown.size() < 256) unknown.push_back(host);
          return;
        }
        add(n, shared_lists);
      });
    }
    if (!unknown.empty()) m.unknown.push_back({li, content[li], any, g.d->head().value_span, std::move(unknown)});
  }
}

// Each group of lines that name unknown nodes: the spelling hint (a name slurm.conf has in
// another case or zero padding), the count of lines past those shown, then kGresConfUnknownNodes.
void Analyzer::check_unknown_names(std::vector<UnknownNames>& groups) {
  const std::vector<std::string>& node_names = cluster_.node_names;
  std::optional<SpellingHints> hints;
  for (UnknownNames& group : groups) {
    std::string hint;
    if (!hints) hints.emplace(node_names);
    for (const std::string& u : group.names) {
      const std::uint32_t n = hints->find(u);
      if (n == NodeIndex::kNone) continue;
      hint =
          fmt::format("; did you mean {}? gres.conf must spell the slurm.conf NodeName exactly (case and zero padding)",
                      node_names[n]);
      break;
    }
    if (group.hidden) {
      group.echoes.back().message += more_lines(group.hidden, "do the same");
      group.echoes.back().more = std::uint32_t(group.hidden);
    }
    const rules::UnknownNodesView view{gres_lines_[group.line], group.names, group.any, hint, group.echoes};
    for (const auto& check : rules::kGresConfUnknownNodesStage) check.run(view, findings_);
  }
}

}  // namespace greslint::model

namespace greslint {

void NodeGresLines::absorb(const NodeGresLines& later) {
  // later's list i > 0 is list i + offset here; those that start from no line (every list
  // of a node only later names) mean the same here.
  const auto offset = std::uint32_t(lists_.size() - 1);
  lists_.reserve(lists_.size() + later.lists_.size() - 1);
  for (std::size_t i = 1; i < later.lists_.size(); ++i) {
    const auto [shorter, line] = later.lists_[i];
    lists_.emplace_back(shorter == 0 ? 0 : shorter + offset, line);
  }
  // A node both name: its own list, then later's lines, made once per pair of lists, so
  // that nodes that read the same lines share one list.
  std::unordered_map<std::uint64_t, std::uint32_t> joined;
  std::vector<std::uint32_t> lines;
  for (std::size_t n = 0; n < list_of_.size(); ++n) {
    const std::uint32_t list = later.list_of_[n];
    if (list == 0) continue;
    std::uint32_t& own = list_of_[n];
    if (own == 0) {
      own = list + offset;
      continue;
    }
    const auto [at, fresh] = joined.try_emplace((std::uint64_t(own) << 32) | list, 0);
    if (fresh) {
      lines.clear();
      for (std::uint32_t l = list; l != 0; l = later.lists_[l].first) lines.push_back(later.lists_[l].second);
      std::uint32_t longer = own;
      for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
        lists_.emplace_back(longer, *line);
        longer = std::uint32_t(lists_.size() - 1);
      }
      at->second = longer;
    }
    own = at->second;
  }
}

}  // namespace greslint
