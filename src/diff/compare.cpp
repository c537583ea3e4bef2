// SPDX-License-Identifier: Apache-2.0
// Comparing two snapshots node by node. Nodes of one model class share their verdict, so
// the work is done per pair of classes (old class, new class), not per node: a 100,000-node
// cluster has a few hundred pairs.
#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "diff/change_report.hpp"
#include "greslint/config.hpp"
#include "greslint/fingerprint.hpp"
#include "greslint/hostlist.hpp"
#include "util.hpp"

namespace greslint::diff {
namespace {

constexpr std::uint32_t kAbsent = 0xFFFFFFFF;

/// What a node registers, per name and type in slurmd's order ("gpu:a100:4,shard:8"):
/// two device lines of one type are one entry.
std::string gres_text(const NodeClass& c) {
  std::vector<std::pair<std::string, std::uint64_t>> totals;
  for (const EffectiveGres& g : c.gres) {
    std::string key = g.name + (g.type ? ":" + *g.type : "");
    auto it = std::find_if(totals.begin(), totals.end(), [&](const auto& t) { return t.first == key; });
    if (it == totals.end()) totals.emplace_back(std::move(key), g.count);
    else it->second += g.count;
  }
  std::string out;
  for (const auto& [key, count] : totals) out += fmt::format("{}{}:{}", out.empty() ? "" : ",", key, count);
  return out.empty() ? "(none)" : out;
}

/// `path` with "." and "dir/.." segments removed, lexically (the files need not exist).
std::string lexically_normal(const std::string& path) {
  std::vector<std::string_view> parts;
  std::string_view rest(path);
  const bool absolute = !rest.empty() && rest[0] == '/';
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == ".." && !parts.empty() && parts.back() != "..") parts.pop_back();
    else if (part != ".." || !absolute) parts.push_back(part);
  }
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + std::string(parts[i]);
  return out.empty() ? "." : out;
}

/// Node name -> index, answered first by guessing the entry after the previous hit:
/// partitions and the other side's node list mostly run in definition order, so the hash
/// table is the fallback, not the rule (it was a quarter of a 100,000-node diff).
class NodeIndex {
 public:
  explicit NodeIndex(const std::vector<std::string>& names) : names_(names) {}
  std::optional<std::uint32_t> find(std::string_view name) {
    if (next_ < names_.size() && names_[next_] == name) return next_++;
    if (index_.empty() && !names_.empty()) {  // built on the first miss only
      index_.reserve(names_.size());
      for (std::uint32_t i = 0; i < names_.size(); ++i) index_.emplace(names_[i], i);
    }
    auto it = index_.find(name);
    if (it == index_.end()) return std::nullopt;
    next_ = it->second + 1;
    return it->second;
  }

 private:
  const std::vector<std::string>& names_;
  std::unordered_map<std::string_view, std::uint32_t> index_;
  std::uint32_t next_ = 0;
};

bool registers(Verdict v) { return v == Verdict::ok || v == Verdict::degraded; }

/// Usable GPUs of one class by type ("" for untyped).
std::map<std::string, std::uint64_t> usable_gpus(const NodeClass& c) {
  std::map<std::string, std::uint64_t> out;
  if (!registers(c.verdict)) return out;
  for (const EffectiveGres& g : c.gres)
    if (iequals(g.name, "gpu")) out[g.type.value_or("")] += g.count;
  return out;
}

/// partition name ("" = cluster) -> type -> GPUs, in partition order.
using GpuTable = std::vector<std::pair<std::string, std::map<std::string, std::uint64_t>>>;

GpuTable gpu_table(const Snapshot& s) {
  GpuTable table;
  if (!s.analysis) return table;
  const Cluster& c = s.analysis->cluster;
  std::vector<std::map<std::string, std::uint64_t>> per_class;
  per_class.reserve(c.classes.size());
  for (const NodeClass& cls : c.classes) per_class.push_back(usable_gpus(cls));
  auto add_nodes = [&](const std::string& name, auto&& nodes) {
    std::vector<std::uint64_t> members(c.classes.size(), 0);  // nodes per class
    for (std::uint32_t n : nodes) ++members[c.class_of[n]];
    std::map<std::string, std::uint64_t> sum;
    for (std::size_t k = 0; k < members.size(); ++k)
      if (members[k])
        for (const auto& [type, count] : per_class[k]) sum[type] += count * members[k];
    table.emplace_back(name, std::move(sum));
  };
  for (const Partition& p : c.partitions) add_nodes(p.name, p.nodes);
  std::vector<std::uint32_t> all(c.node_names.size());
  for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  add_nodes("", all);
  return table;
}

std::vector<GpuRow> gpu_rows(const Snapshot& before, const Snapshot& after) {
  const GpuTable b = gpu_table(before), a = gpu_table(after);
  std::vector<GpuRow> rows;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  auto add = [&](const GpuTable& t, bool is_after) {
    for (const auto& [partition, types] : t)
      for (const auto& [type, count] : types) {
        auto [it, fresh] = index.emplace(std::make_pair(partition, type), rows.size());
        if (fresh) rows.push_back(GpuRow{partition, type, 0, 0});
        (is_after ? rows[it->second].after : rows[it->second].before) += count;
      }
  };
  add(a, true);
  add(b, false);
  // Partitions in the new file's order (then the old file's), the cluster total last;
  // types sorted within a partition.
  std::map<std::string, std::size_t> rank;
  for (const GpuRow& row : rows) rank.emplace(row.partition, row.partition.empty() ? SIZE_MAX : rank.size());
  std::stable_sort(rows.begin(), rows.end(), [&](const GpuRow& x, const GpuRow& y) {
    return std::make_pair(rank[x.partition], x.type) < std::make_pair(rank[y.partition], y.type);
  });
  return rows;
}

NodeVerdict verdict_of(const Snapshot& s, std::uint32_t cls) {
  if (cls == kAbsent) return {};
  const NodeClass& c = s.analysis->cluster.classes[cls];
  return NodeVerdict{true, c.verdict, c.reason, &c};
}

void summarise(const Snapshot& s, SideSummary& out) {
  out.label = s.label;
  out.exists = s.analysis != nullptr;
  if (!s.analysis) return;
  out.slurm_version = s.analysis->version.version.str();
  const Cluster& c = s.analysis->cluster;
  out.nodes = c.node_names.size();
  for (const NodeClass& cls : c.classes) out.by_verdict[std::size_t(cls.verdict)] += cls.nodes.size();
}

void compare_findings(const Snapshot& before, const Snapshot& after, ChangeReport& r) {
  std::unordered_map<std::string_view, std::size_t> old_index;
  if (before.analysis)
    for (std::size_t i = 0; i < before.analysis->fingerprints.size(); ++i)
      old_index.emplace(before.analysis->fingerprints[i], i);
  std::vector<bool> kept(before.analysis ? before.analysis->findings.size() : 0, false);
  // A message that names the release it describes ("slurmctld 24.11 cannot read ...") says
  // the same under the next one: compare it with the release named replaced.
  const std::string from = before.analysis ? before.analysis->version.version.str() : "";
  const std::string to = after.analysis ? after.analysis->version.version.str() : "";
  auto as_of = [&](std::string text) {
    if (from.empty() || to.empty() || from == to) return text;
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
    return text;
  };
  if (after.analysis)
    for (std::size_t i = 0; i < after.analysis->findings.size(); ++i) {
      const std::string& fp = after.analysis->fingerprints[i];
      const Diagnostic& d = after.analysis->findings[i];
      auto it = old_index.find(fp);
      if (it == old_index.end()) {
        r.introduced.push_back({fp, &d, &after, {}});
        continue;
      }
      kept[it->second] = true;
      const Diagnostic& old = before.analysis->findings[it->second];
      if (as_of(old.message) != d.message || as_of(old.slurm_message) != d.slurm_message || old.severity != d.severity)
        r.reworded.push_back({fp, &d, &after, old.message});
    }
  for (std::size_t i = 0; i < kept.size(); ++i)
    if (!kept[i]) r.fixed.push_back({before.analysis->fingerprints[i], &before.analysis->findings[i], &before, {}});
}

}  // namespace

std::size_t ChangeReport::regressed_nodes() const {
  std::size_t n = 0;
  for (const VerdictChange& v : verdicts)
    if (v.regression()) n += v.count;
  return n;
}

ChangeReport compare(const Snapshot& before, const Snapshot& after) {
  ChangeReport r;
  summarise(before, r.before);
  summarise(after, r.after);
  static const Cluster kEmpty;
  const Cluster& b = before.analysis ? before.analysis->cluster : kEmpty;
  const Cluster& a = after.analysis ? after.analysis->cluster : kEmpty;

  // Pair every node with itself on the other side, then group by (old class, new class).
  // Nodes are kept as (side, index) until a group turns out to change: most never do.
  NodeIndex old_index(b.node_names);
  std::vector<bool> matched(b.node_names.size(), false);
  struct Members {
    std::vector<std::uint32_t> after_nodes, before_only;
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, Members> pairs;
  for (std::uint32_t i = 0; i < a.node_names.size(); ++i) {
    std::uint32_t old_class = kAbsent;
    if (auto old = old_index.find(a.node_names[i])) {
      matched[*old] = true;
      old_class = b.class_of[*old];
    }
    pairs[{old_class, a.class_of[i]}].after_nodes.push_back(i);
  }
  for (std::uint32_t i = 0; i < b.node_names.size(); ++i)
    if (!matched[i]) pairs[{b.class_of[i], kAbsent}].before_only.push_back(i);
  auto names_of = [&](const Members& m, std::vector<std::string>& dest) {
    for (std::uint32_t n : m.after_nodes) dest.push_back(a.node_names[n]);
    for (std::uint32_t n : m.before_only) dest.push_back(b.node_names[n]);
  };

  // Different class pairs can tell the same story; fold their nodes into one line.
  using VerdictKey = std::tuple<bool, Verdict, std::string, bool, Verdict, std::string>;
  struct Group {
    std::vector<std::string> nodes;
    NodeVerdict before, after;  // of any one class pair: they read alike
  };
  std::map<VerdictKey, Group> verdicts;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> gres;
  for (const auto& [key, members] : pairs) {
    const NodeVerdict nb = verdict_of(before, key.first), na = verdict_of(after, key.second);
    if (nb.present != na.present || nb.verdict != na.verdict || nb.reason != na.reason) {
      Group& g = verdicts[{nb.present, nb.verdict, nb.reason, na.present, na.verdict, na.reason}];
      g.before = nb;
      g.after = na;
      names_of(members, g.nodes);
      continue;
    }
    std::string gb = gres_text(b.classes[key.first]), ga = gres_text(a.classes[key.second]);
    if (gb != ga) names_of(members, gres[{std::move(gb), std::move(ga)}]);
  }
  for (auto& [key, group] : verdicts) {
    VerdictChange v;
    v.count = group.nodes.size();
    v.nodes = fold_hostnames(std::move(group.nodes));
    v.before = std::move(group.before);
    v.after = std::move(group.after);
    r.verdicts.push_back(std::move(v));
  }
  // Worst outcome first: what stops nodes is what a reviewer must see.
  std::stable_sort(r.verdicts.begin(), r.verdicts.end(), [](const VerdictChange& x, const VerdictChange& y) {
    return std::make_tuple(!x.regression(), !x.after.present, -int(x.after.verdict)) <
           std::make_tuple(!y.regression(), !y.after.present, -int(y.after.verdict));
  });
  for (auto& [key, nodes] : gres) {
    GresChange g;
    g.count = nodes.size();
    g.nodes = fold_hostnames(std::move(nodes));
    g.before = key.first;
    g.after = key.second;
    r.gres.push_back(std::move(g));
  }
  r.gpus = gpu_rows(before, after);
  compare_findings(before, after, r);
  return r;
}

int exit_code(const ChangeReport& report, FailLevel level) {
  if (level == FailLevel::never) return 0;  // reports for dashboards and artifacts
  if (report.regressed_nodes() > 0) return 1;
  std::vector<Diagnostic> introduced;
  for (const FindingChange& f : report.introduced) introduced.push_back(*f.finding);
  return exit_code_for(introduced, level);
}

std::string verdict_text(const NodeVerdict& v, const std::string& nodes) {
  if (!v.present) return "absent";
  const std::string reason = v.node_class ? node_reason(*v.node_class, nodes) : v.reason;
  std::string out(to_string(v.verdict));
  if (!reason.empty()) out += " \"" + sanitize_for_output(reason) + "\"";
  return out;
}

std::string finding_location(const FindingChange& f) {
  const Diagnostic& d = *f.finding;
  if (!d.span.valid() || !f.side->analysis) return "-";
  const Analysis& an = *f.side->analysis;
  const LineCol lc = an.sources.line_col(d.span.file, d.span.begin);
  const std::string name = fingerprint_path(an.sources.path(d.span.file), dirname_of(an.slurm_conf));
  const std::string shown = name.empty() || name[0] == '/' ? name : lexically_normal(join_path(f.side->display_dir, name));
  return fmt::format("{}:{}:{}", sanitize_for_output(shown), lc.line, lc.column);
}

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "text") return OutputFormat::text;
  if (name == "json") return OutputFormat::json;
  if (name == "markdown" || name == "md") return OutputFormat::markdown;
  return std::nullopt;
}

}  // namespace greslint::diff
