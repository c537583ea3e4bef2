// SPDX-License-Identifier: Apache-2.0
// Node classes: nodes whose slurm.conf line and gres.conf lines say the same are alike for
// slurmd and slurmctld, so the replay evaluates each class once, whichever lines say it.
#include <algorithm>
#include <array>
#include <functional>
#include <future>
#include <optional>
#include <system_error>
#include <tuple>
#include <unordered_map>

#include "gres_parse.hpp"
#include "greslint/text_hash.hpp"
#include "model/analyzer.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::model {

namespace {

/// Whether a NodeName=DEFAULT line gave line `l` its Gres= (findings then point there).
bool gres_elsewhere(const NodeLine& l) {
  const Span own = l.d->span;
  return l.gres_span.valid() && !(l.gres_span.file == own.file && l.gres_span.begin >= own.begin && l.gres_span.end <= own.end);
}

/// The last lines of distinct content, and their ids: a file written node by node in no order
/// of type (an inventory's export, a shuffled host list) alternates between a few.
/// Performance: comparing only with the line before built and hashed a key for 7 lines in 10
/// of a shuffled file of four node types (the bench's `unsorted`), 4 ms of its run.
class RecentContents {
 public:
  /// The id of a line `same` as `l`, if one is among the last.
  template <class Same>
  std::optional<std::uint32_t> find(const NodeLine& l, const Same& same) const {
    for (const auto& [line, id] : lines_)
      if (line && same(l, *line)) return id;
    return std::nullopt;
  }
  void add(const NodeLine& l, std::uint32_t id) {
    lines_[next_] = {&l, id};
    next_ = (next_ + 1) % lines_.size();
  }

 private:
  std::array<std::pair<const NodeLine*, std::uint32_t>, 8> lines_{};
  std::size_t next_ = 0;
};

}  // namespace

/// An id per slurm.conf node line for what evaluate() reads of it: the topology after Slurm's
/// corrections, CLOUD, Gres= as written and, when a NodeName=DEFAULT line gave it, where
/// (findings point there). The names the line defines count only when a Gres= token names a
/// GRES that GresTypes lacks: Slurm's log line for that quotes them.
std::vector<std::uint32_t> Analyzer::node_line_contents() const {
  std::unordered_map<std::string, std::uint32_t> ids;
  std::vector<std::uint32_t> out;
  out.reserve(node_lines_.size());
  std::string key;
  auto append = [&](std::uint32_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  // Whether a Gres= names a GRES GresTypes lacks, per Gres= text: a file written node by node
  // repeats a few Gres= texts, and splitting each line's was a tenth of this loop.
  // The text asked last is compared before the map: most lines ask about their own Gres=
  // twice or more (same_key), and hashing it each time cost more than the rest of same_key.
  std::unordered_map<std::string_view, bool> gres_unknown;
  std::pair<std::string_view, bool> last_asked{};
  auto names_unknown_gres = [&](std::string_view gres) {
    if (last_asked.first.data() && last_asked.first == gres) return last_asked.second;
    auto [it, fresh] = gres_unknown.try_emplace(gres, false);
    if (fresh)
      for (std::string_view tok : split_commas(gres))
        if (!in_grestypes_exact(tok.substr(0, tok.find(':')))) {
          it->second = true;
          break;
        }
    last_asked = *it;
    return it->second;
  };
  // Whether line `l` makes the same key as line `p`, compared field by field: lines of a file
  // written node by node do, and building and hashing the key of each was most of this loop.
  auto same_key = [&](const NodeLine& l, const NodeLine& p) {
    const bool elsewhere = gres_elsewhere(l);
    // The same State= text (or none on both): the same held state, found once.
    if (l.state_span.valid() != p.state_span.valid() || (l.state_span.valid() && l.state != p.state)) return false;
    return l.topo.boards == p.topo.boards && l.topo.sockets == p.topo.sockets && l.topo.cores == p.topo.cores &&
           l.topo.threads == p.topo.threads && l.topo.cpus == p.topo.cpus && l.cloud == p.cloud &&
           l.restricted_cores_per_gpu == p.restricted_cores_per_gpu && l.spec_cores == p.spec_cores &&
           l.gres_span.size() == p.gres_span.size() && elsewhere == gres_elsewhere(p) &&
           (!elsewhere || (l.gres_span.file == p.gres_span.file && l.gres_span.begin == p.gres_span.begin)) &&
           l.gres == p.gres && l.reason == p.reason &&
           (grestypes_.empty() || l.gres.empty() || !names_unknown_gres(l.gres) || l.names_text() == p.names_text());
  };
  RecentContents recent;
  for (const NodeLine& l : node_lines_) {
    if (!out.empty() && same_key(l, *(&l - 1))) {
      out.push_back(out.back());
      continue;
    }
    if (const auto id = recent.find(l, same_key)) {
      out.push_back(*id);
      continue;
    }
    key.clear();
    const rules::HeldState held = held_state(l);
    for (std::uint32_t v : {l.topo.boards, l.topo.sockets, l.topo.cores, l.topo.threads, l.topo.cpus,
                            std::uint32_t(l.cloud), std::uint32_t(held), l.gres_span.size(), l.restricted_cores_per_gpu,
                            std::uint32_t(l.spec_cores)})
      append(v);
    if (gres_elsewhere(l)) {
      append(l.gres_span.file.index);
      append(l.gres_span.begin);
    }
    key += l.gres;
    // Its Reason= is what scontrol shows of a held node, and of a node that registration
    // drains (drain_nodes keeps a reason the node has).
    if (held != rules::HeldState::none || !l.reason.empty()) {
      key.push_back('\0');
      key += l.reason;
    }
    if (!grestypes_.empty() && !l.gres.empty() && names_unknown_gres(l.gres)) {
      key.push_back('\0');
      key += l.names_text();
    }
    out.push_back(ids.try_emplace(key, std::uint32_t(ids.size())).first->second);
    recent.add(l, out.back());
  }
  return out;
}

Task<std::vector<std::uint32_t>> Analyzer::find_node_line_contents() const {
  // Below this many lines the thread's start costs about what it saves (a line is ~400
  // instructions here).
  constexpr std::size_t kLinesForAThread = 4096;
  // On a free core only: started before the partitions are checked, it is done by the time
  // matching the gres.conf lines looks for a core to split in two (analyze.cpp).
  if (node_lines_.size() >= kLinesForAThread && cores_.try_take()) {
    try {
      return start_task(&cores_, [this] {
        const CoreBudget::Held core(&cores_, std::adopt_lock);
        return node_line_contents();
      });
    } catch (const std::system_error&) {
      cores_.give();  // no thread to be had: found in place, below
    }
  }
  std::promise<std::vector<std::uint32_t>> here;
  here.set_value(node_line_contents());
  return Task<std::vector<std::uint32_t>>(here.get_future(), {});
}

}  // namespace greslint::model

namespace greslint {

std::vector<std::uint32_t> NodeGresLines::lines_of(std::uint32_t node) const {
  std::vector<std::uint32_t> lines;
  for (std::uint32_t list = list_of_[node]; list != 0; list = lists_[list].first) lines.push_back(lists_[list].second);
  std::reverse(lines.begin(), lines.end());
  return lines;
}

std::vector<const GresLine*> ConfigModel::gres_lines_of(std::uint32_t node) const {
  std::vector<const GresLine*> lines = global_lines;
  for (std::uint32_t li : node_gres_lines.lines_of(node)) lines.push_back(&gres_lines[li]);
  return lines;
}

}  // namespace greslint

namespace greslint::model {

/// Node classes: nodes whose slurm.conf line and gres.conf lines say the same, numbered in the
/// order of their first node. Slurm's behaviour follows from what the lines say, not from
/// which lines they are: per-node lines that say the same make one class, evaluated once,
/// as a rack line does.
void Analyzer::form_classes(const std::vector<std::uint32_t>& node_content) {
  const auto node_count = std::uint32_t(cluster_.node_names.size());
  ///< (node content << 32 | lines content) -> class, per DownNodes= override (down_of_)
  std::vector<IdMap> class_index(down_overrides_.size() + 1);
  cluster_.class_of.resize(node_count);
  for (std::uint32_t n = 0; n < node_count; ++n) {
    const std::uint32_t down = n < down_of_.size() ? down_of_[n] : 0;
    const auto [cls, fresh] = class_index[down].try_emplace(
        (std::uint64_t(node_content[node_line_of_[n]]) << 32) | content_list_of_[n], std::uint32_t(cluster_.classes.size()));
    if (fresh) cluster_.classes.emplace_back();
    cluster_.classes[cls].nodes.push_back(n);
    cluster_.class_of[n] = cls;
  }
  cluster_.node_line_of = node_line_of_;
  cluster_.future_at_startup.resize(node_count);
  for (std::uint32_t n = 0; n < node_count; ++n) cluster_.future_at_startup[n] = future_at_startup(n);
  if (!down_overrides_.empty()) {
    cluster_.down_nodes_of = down_of_;
    for (const DownNodesOverride& o : down_overrides_)
      cluster_.down_nodes.push_back({o.state_set ? std::string(o.state) : std::string(), o.state_at, std::string(o.reason)});
  }
  cluster_.line_gres_span.reserve(node_lines_.size());
  for (const NodeLine& l : node_lines_) cluster_.line_gres_span.push_back(l.gres_span);
}

void Analyzer::evaluate_classes() {
  // Evaluated in (node line, lines) order of each class's first node, as when the classes were
  // a std::map with that key: a finding merged across classes takes its help from the last
  // class and its related notes from every class in turn, so the order is part of the output.
  std::vector<std::uint32_t> order(cluster_.classes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t na = cluster_.classes[a].nodes.front(), nb = cluster_.classes[b].nodes.front();
    if (node_line_of_[na] != node_line_of_[nb]) return node_line_of_[na] < node_line_of_[nb];
    const auto la = lines_of(na), lb = lines_of(nb);
    if (la != lb) return la < lb;
    return down_of_[na] < down_of_[nb];  // the same lines, another DownNodes= override
  });
  std::vector<const GresLine*> lines;
  for (std::uint32_t ci : order) {
    NodeClass& cls = cluster_.classes[ci];
    const std::uint32_t rep = cls.nodes.front();
    // slurmctld stopped before any node registers; only its own loads of CLOUD nodes'
    // gres.conf may come before a later step's fatal (after_cloud_loads_).
    const bool stopped = ctld_.fatal || (after_cloud_loads_.fatal && !cloud_at_startup(rep));
    if (stopped) {
      cls.verdict = Verdict::slurmctld_fatal;
      cls.reason = ctld_.fatal ? ctld_.reason : after_cloud_loads_.reason;
      continue;
    }
    lines = global_lines_;
    for (std::uint32_t li : lines_of(rep)) lines.push_back(&gres_lines_[li]);  // ConfigModel::gres_lines_of
    Findings::ClassScope scope(findings_, cls.nodes);
    evaluate(cls, startup_line(rep), lines, cluster_.node_names[rep]);
    if (findings_.reported()) echo_findings(cls);
  }
}

/// The class's findings were reported on the lines of its first node. Other nodes of the class
/// may read other lines that say the same (one NodeName= line per node): each finding names
/// those lines too, the first kShownEchoes as related notes, the others as a count.
void Analyzer::echo_findings(const NodeClass& cls) {
  const std::uint32_t rep = cls.nodes.front();
  // Sites: nodes that read the same lines, in the order of their first node.
  struct Site {
    std::uint32_t first;
    std::vector<std::uint32_t> nodes;
  };
  std::vector<Site> sites;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_hash;
  for (std::uint32_t n : cls.nodes) {
    if (same_lines(n, rep)) continue;
    if (!sites.empty() && same_lines(n, sites.back().first)) {
      sites.back().nodes.push_back(n);
      continue;
    }
    const std::uint64_t h = (std::uint64_t(node_line_of_[n]) << 32) | node_gres_lines_.list_id(n);
    std::vector<std::size_t>& candidates = by_hash[h];
    auto known = std::find_if(candidates.begin(), candidates.end(), [&](std::size_t s) { return same_lines(n, sites[s].first); });
    if (known != candidates.end()) {
      sites[*known].nodes.push_back(n);
      continue;
    }
    candidates.push_back(sites.size());
    sites.push_back(Site{n, {n}});
  }
  if (sites.empty()) return;
  for (const Site& site : sites)
    findings_.echo([&](Span s) { return translate(s, rep, site.first); }, [&] {
      std::vector<std::string> names;
      for (std::uint32_t n : site.nodes) names.push_back(cluster_.node_names[n]);
      return "the same for " + fold_hostnames(std::move(names));
    });
}

/// Where span `s` on the lines node `from` reads sits on the lines node `to` reads, when both
/// say the same (one class): the same key of the corresponding line. Spans on lines both
/// nodes read (Name= lines, NodeName=DEFAULT, settings) stay where they are.
Span Analyzer::translate(Span s, std::uint32_t from, std::uint32_t to) const {
  auto within = [](Span inner, Span outer) {
    return inner.file == outer.file && inner.begin >= outer.begin && inner.end <= outer.end;
  };
  const NodeLine& a = node_lines_[node_line_of_[from]];
  const NodeLine& b = node_lines_[node_line_of_[to]];
  if (within(s, a.d->span)) {
    if (s.begin == a.names_span().begin && s.end == a.names_span().end) return b.names_span();
    if (within(s, a.gres_span))
      return Span{b.gres_span.file, b.gres_span.begin + (s.begin - a.gres_span.begin),
                  b.gres_span.begin + (s.end - a.gres_span.begin)};
    return b.d->span;
  }
  const std::vector<std::uint32_t> from_lines = lines_of(from), to_lines = lines_of(to);
  for (auto ap = from_lines.begin(), ae = from_lines.end(), bp = to_lines.begin(); ap != ae; ++ap, ++bp) {
    const Directive& da = *gres_lines_[*ap].d;
    if (!within(s, da.span)) continue;
    const Directive& db = *gres_lines_[*bp].d;
    const KeyValue& ha = da.head();
    const KeyValue& hb = db.head();
    if (within(s, ha.key_span)) return hb.key_span;
    if (within(s, ha.value_span)) return hb.value_span;
    return Span{db.span.file, hb.value_span.end + (s.begin - ha.value_span.end), hb.value_span.end + (s.end - ha.value_span.end)};
  }
  return s;
}

}  // namespace greslint::model
