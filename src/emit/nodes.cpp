// SPDX-License-Identifier: Apache-2.0
// `greslint nodes` output: each node's effective GRES and Slurm's verdict, as JSON (one
// object per node) or as a table that folds nodes Slurm treats alike into one row.
#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <map>

#include "emit/emit_detail.hpp"

namespace greslint {

namespace emit_detail {
namespace {

constexpr std::uint64_t kNodesSchemaVersion = 1;
/// The NODES column is cut here (at a range boundary): one list of a thousand ranges would
/// otherwise push every other column off the screen.
constexpr std::size_t kMaxNodesColumn = 40;

void optional_string(JsonWriter& w, const std::optional<std::string>& s) {
  if (s)
    w.string(*s);
  else
    w.null();
}

void optional_bool(JsonWriter& w, const std::optional<bool>& b) {
  if (b)
    w.boolean(*b);
  else
    w.null();
}

void gres_json(JsonWriter& w, const EffectiveGres& g) {
  w.begin_object();
  w.key("name").string(g.name);
  w.key("type");
  optional_string(w, g.type);
  w.key("count").number(g.count);
  w.key("files");
  optional_string(w, g.files);
  w.key("cores");
  optional_string(w, g.cores);
  w.key("links");
  optional_string(w, g.links);
  w.key("flags").string(g.flags);
  w.end_object();
}

void nodes_json(const NodesReport& report, std::ostream& out) {
  const Cluster& c = *report.cluster;
  JsonWriter w(out);
  w.begin_object();
  w.key("schema").number(kNodesSchemaVersion);
  w.key("tool").begin_object();
  w.key("name").string("greslint");
  w.key("version").string(GRESLINT_VERSION);
  w.end_object();
  w.key("slurm_version").string(report.slurm_version.str());
  w.key("version_source").string_or_null(report.version_source);
  w.key("cluster").begin_object();
  w.key("verdict").string(to_string(report.verdict.verdict));
  w.key("reason").string_or_null(report.verdict.reason);
  w.end_object();
  w.key("nodes").begin_array();
  for (std::uint32_t n : report.nodes) {
    const NodeClass& cls = c.classes[c.class_of[n]];
    w.begin_object();
    w.key("node").string(c.node_names[n]);
    w.key("verdict").string(to_string(cls.verdict));
    w.key("reason").string(node_reason(cls, c.node_names[n]));
    w.key("gres").begin_array();
    for (const EffectiveGres& g : cls.gres) gres_json(w, g);
    w.end_array();
    w.key("gpus_isolated");
    optional_bool(w, cls.gpus_isolated);
    w.key("gpus_accounted");
    optional_bool(w, cls.gpus_accounted);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

/// Node classes that print the same (verdict, GRES, isolation, reason) share one row.
struct RowGroup {
  const NodeClass* cls;
  std::vector<std::string> names;
};

std::string row_key(const NodeClass& cls) {
  std::string key =
      fmt::format("{}\x1f{}\x1f{}\x1f{}", to_string(cls.verdict), cls.reason,
                  cls.gpus_isolated ? int(*cls.gpus_isolated) : 2, cls.gpus_accounted ? int(*cls.gpus_accounted) : 2);
  for (const EffectiveGres& g : cls.gres)
    key += fmt::format("\x1e{}\x1f{}\x1f{}\x1f{}\x1f{}", g.name, g.type.value_or("\x01"), g.count,
                       g.files.value_or("\x01"), g.cores.value_or("\x01"));
  return key;
}

std::vector<RowGroup> group_rows(const NodesReport& report) {
  const Cluster& c = *report.cluster;
  std::vector<RowGroup> groups;
  std::map<std::string, std::size_t> index;
  for (std::uint32_t n : report.nodes) {
    const NodeClass& cls = c.classes[c.class_of[n]];
    auto [it, fresh] = index.emplace(row_key(cls), groups.size());
    if (fresh) groups.push_back(RowGroup{&cls, {}});
    groups[it->second].names.push_back(c.node_names[n]);
  }
  return groups;
}

/// A folded hostlist cut to the column at a range boundary, with the node count.
std::string nodes_cell(const std::string& folded, std::size_t count) {
  if (folded.size() <= kMaxNodesColumn) return folded;
  std::size_t cut = folded.rfind(',', kMaxNodesColumn - 1);
  if (cut == std::string::npos || cut == 0) cut = kMaxNodesColumn - 1;
  std::string cell = folded.substr(0, cut + 1);
  const bool in_bracket = std::count(cell.begin(), cell.end(), '[') > std::count(cell.begin(), cell.end(), ']');
  cell += in_bracket ? "...]" : "...";
  return fmt::format("{} ({} nodes)", cell, count);
}

struct Row {
  std::string nodes, verdict, gres, files, cores, isolated, accounted, reason;
};

void add_rows(const RowGroup& g, std::vector<Row>& rows) {
  auto yes_no = [](const std::optional<bool>& b) { return b ? (*b ? "yes" : "no") : ""; };
  const NodeClass& cls = *g.cls;
  const std::string folded = fold_hostnames(g.names);
  Row first{sanitize_for_output(nodes_cell(folded, g.names.size())),
            std::string(to_string(cls.verdict)),
            "-",
            "",
            "",
            yes_no(cls.gpus_isolated),
            yes_no(cls.gpus_accounted),
            sanitize_for_output(node_reason(cls, g.names.size() == 1 ? g.names.front() : folded))};
  for (std::size_t i = 0; i < cls.gres.size(); ++i) {
    const EffectiveGres& e = cls.gres[i];
    Row r = i == 0 ? first : Row{};
    r.gres = sanitize_for_output(fmt::format("{}:{}{}", e.name, e.type ? *e.type + ":" : "", e.count));
    r.files = sanitize_for_output(e.files.value_or("-"));
    r.cores = sanitize_for_output(e.cores.value_or("-"));
    rows.push_back(std::move(r));
  }
  if (cls.gres.empty()) rows.push_back(std::move(first));
}

void print_table(const std::vector<Row>& rows, std::ostream& out) {
  std::array<std::size_t, 7> w{};
  for (const Row& r : rows) {
    const std::array<const std::string*, 7> cells{&r.nodes, &r.verdict,  &r.gres,     &r.files,
                                                  &r.cores, &r.isolated, &r.accounted};
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::max(w[i], cells[i]->size());
  }
  for (const Row& r : rows) {
    std::string line =
        fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}", r.nodes, w[0], r.verdict, w[1],
                    r.gres, w[2], r.files, w[3], r.cores, w[4], r.isolated, w[5], r.accounted, w[6], r.reason);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

/// "12 nodes: 8 drain, 4 ok" in verdict order, worst first.
std::string nodes_summary(const NodesReport& report) {
  const Cluster& c = *report.cluster;
  std::array<std::size_t, 5> by_verdict{};
  for (std::uint32_t n : report.nodes) ++by_verdict[std::size_t(c.classes[c.class_of[n]].verdict)];
  std::string parts;
  for (std::size_t v = by_verdict.size(); v-- > 0;)
    if (by_verdict[v]) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", by_verdict[v], to_string(Verdict(v)));
  const std::size_t total = report.nodes.size();
  return fmt::format("{} node{}{}{}", total, total == 1 ? "" : "s", parts.empty() ? "" : ": ", parts);
}

void nodes_text(const NodesReport& report, std::ostream& out) {
  out << fmt::format("Slurm {} profile ({})\n", report.slurm_version.str(), sanitize_for_output(report.version_source));
  std::vector<Row> rows{{"NODES", "VERDICT", "GRES", "FILES", "CORES", "ISOLATED", "ACCOUNTED", "REASON"}};
  for (const RowGroup& g : group_rows(report)) add_rows(g, rows);
  if (rows.size() > 1) print_table(rows, out);
  if (report.verdict.verdict == Verdict::slurmctld_fatal)
    out << "slurmctld does not start, so no node comes up: " << sanitize_for_output(report.verdict.reason) << "\n";
  out << nodes_summary(report) << "\n";
}

}  // namespace
}  // namespace emit_detail

void emit_nodes(Format format, const NodesReport& report, const EmitOptions&, std::ostream& out) {
  if (format == Format::json)
    emit_detail::nodes_json(report, out);
  else
    emit_detail::nodes_text(report, out);
}

}  // namespace greslint
