// SPDX-License-Identifier: Apache-2.0
// `greslint nodes`: each node's effective GRES and Slurm's verdict on it.
#include <algorithm>
#include <array>
#include <fmt/format.h>

#include "commands/lint_session.hpp"

namespace greslint {

namespace {
void json_string(std::ostream& out, std::string_view s) {
  out << '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\t': out << "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) out << fmt::format("\\u{:04x}", c);
        else out << c;
    }
  }
  out << '"';
}
void json_opt(std::ostream& out, const std::optional<std::string>& s) {
  if (s) json_string(out, *s);
  else out << "null";
}
std::string node_reason(const NodeClass& c, const std::string& node) {
  std::string r = c.reason;
  for (std::size_t at; (at = r.find("\x02NODE\x02")) != std::string::npos;) r.replace(at, 6, node);
  return r;
}
}  // namespace

int run_nodes(const LintOptions& options, std::ostream& out, std::ostream& err) {
  LintOptions o = options;
  if (!load_config_file(o, err)) return 2;
  auto run = analyze_paths(o, err);
  if (!run) return 2;
  const Cluster& c = run->cluster;
  std::optional<Hostlist> only;
  if (!parse_node_filter(o.nodes, run->version.version, only, err)) return 2;
  auto wanted = [&](std::uint32_t n) { return !only || only->contains(c.node_names[n]); };
  bool bad = false;
  if (o.format == Format::json) {
    out << "[";
    bool first = true;
    for (std::uint32_t n = 0; n < c.node_names.size(); ++n) {
      if (!wanted(n)) continue;
      const NodeClass& cls = c.classes[c.class_of[n]];
      bad = bad || cls.verdict >= Verdict::drain;
      out << (first ? "\n" : ",\n") << "  {\"node\": ";
      first = false;
      json_string(out, c.node_names[n]);
      out << ", \"verdict\": \"" << to_string(cls.verdict) << "\", \"reason\": ";
      json_string(out, node_reason(cls, c.node_names[n]));
      out << ", \"gres\": [";
      for (std::size_t i = 0; i < cls.gres.size(); ++i) {
        const EffectiveGres& g = cls.gres[i];
        out << (i ? ", " : "") << "{\"name\": ";
        json_string(out, g.name);
        out << ", \"type\": ";
        json_opt(out, g.type);
        out << ", \"count\": " << g.count << ", \"files\": ";
        json_opt(out, g.files);
        out << ", \"cores\": ";
        json_opt(out, g.cores);
        out << ", \"links\": ";
        json_opt(out, g.links);
        out << ", \"flags\": ";
        json_string(out, g.flags);
        out << "}";
      }
      out << "], \"gpus_isolated\": " << (cls.gpus_isolated ? (*cls.gpus_isolated ? "true" : "false") : "null")
          << ", \"gpus_accounted\": " << (cls.gpus_accounted ? (*cls.gpus_accounted ? "true" : "false") : "null") << "}";
    }
    out << "\n]\n";
    return bad ? 1 : 0;
  }
  // Text: an aligned table, one row per node class (nodes folded) and GRES record.
  struct Row {
    std::string nodes, verdict, gres, files, cores, isolated, accounted, reason;
  };
  std::vector<Row> rows{{"NODES", "VERDICT", "GRES", "FILES", "CORES", "ISOLATED", "ACCOUNTED", "REASON"}};
  auto yes_no = [](const std::optional<bool>& b) { return b ? (*b ? "yes" : "no") : ""; };
  for (const NodeClass& cls : c.classes) {
    std::vector<std::string> names;
    for (std::uint32_t n : cls.nodes)
      if (wanted(n)) names.push_back(c.node_names[n]);
    if (names.empty()) continue;
    bad = bad || cls.verdict >= Verdict::drain;
    Row first{sanitize_for_output(fold_hostnames(names)), std::string(to_string(cls.verdict)), "-", "", "",
              yes_no(cls.gpus_isolated), yes_no(cls.gpus_accounted),
              sanitize_for_output(node_reason(cls, names.size() == 1 ? names.front() : fold_hostnames(names)))};
    for (std::size_t i = 0; i < cls.gres.size(); ++i) {
      const EffectiveGres& g = cls.gres[i];
      Row r = i == 0 ? first : Row{};
      r.gres = sanitize_for_output(fmt::format("{}:{}{}", g.name, g.type ? *g.type + ":" : "", g.count));
      r.files = sanitize_for_output(g.files.value_or("-"));
      r.cores = sanitize_for_output(g.cores.value_or("-"));
      rows.push_back(std::move(r));
    }
    if (cls.gres.empty()) rows.push_back(std::move(first));
  }
  std::size_t w[7] = {0, 0, 0, 0, 0, 0, 0};
  for (const Row& r : rows)
    for (std::size_t i = 0; i < 7; ++i)
      w[i] = std::max(w[i], std::array<const std::string*, 7>{&r.nodes, &r.verdict, &r.gres, &r.files, &r.cores,
                                                              &r.isolated, &r.accounted}[i]->size());
  out << fmt::format("Slurm {} profile ({})\n", run->version.version.str(), run->version.source);
  for (const Row& r : rows) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}", r.nodes, w[0], r.verdict,
                                   w[1], r.gres, w[2], r.files, w[3], r.cores, w[4], r.isolated, w[5], r.accounted,
                                   w[6], r.reason);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  return bad ? 1 : 0;
}

}  // namespace greslint
