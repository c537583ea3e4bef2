// SPDX-License-Identifier: Apache-2.0
// The short views of a report: one line per finding (concise), counts per rule
// (--statistics), and what the findings mean for the cluster (the text report's headline).
#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "emit/emit_detail.hpp"
#include "gres_parse.hpp"
#include "util.hpp"

namespace greslint {

namespace emit_detail {

void emit_concise(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                  std::ostream& out) {
  PathTable paths(sources, options);
  for (const Diagnostic& d : report.diagnostics) {
    const Span span = clamp_span(sources, d.span);
    if (span.valid()) {
      const Position p = byte_position(sources, span);
      out << sanitize_for_output(paths.get(span.file).text) << ':' << p.line << ':' << p.column << ": ";
    } else {
      out << "greslint: ";
    }
    out << severity_name(d.severity) << ": " << sanitize_for_output(d.message) << " [" << rule_id(d) << "]\n";
  }
}

namespace {

/// A node list for one line of text: folded, and cut at a range boundary past `max` bytes.
std::string short_hostlist(const std::vector<std::string>& names, std::size_t max = 40) {
  std::string folded = fold_hostnames(names);
  if (folded.size() <= max) return sanitize_for_output(folded);
  std::size_t cut = folded.rfind(',', max - 1);
  if (cut == std::string::npos || cut == 0) cut = max - 1;
  std::string cell = folded.substr(0, cut + 1);
  const bool in_bracket = std::count(cell.begin(), cell.end(), '[') > std::count(cell.begin(), cell.end(), ']');
  return sanitize_for_output(cell + (in_bracket ? "...]" : "..."));
}

std::string node_count(std::size_t n) { return fmt::format("{} node{}", n, n == 1 ? "" : "s"); }

}  // namespace

std::string headline_text(const ClusterHeadline& h) {
  const std::string gpus = h.gpus_lost == 0
                               ? std::string()
                               : fmt::format("; {} of {} configured GPUs lost", h.gpus_lost, h.gpus_configured);
  if (h.slurmctld_fatal)
    return fmt::format("cluster: slurmctld does not start, so none of the {} comes up{}: \"{}\"", node_count(h.nodes),
                       gpus, sanitize_for_output(h.slurmctld_line));
  std::vector<std::string> parts;
  if (!h.slurmd_fatal.empty())
    parts.push_back(fmt::format("slurmd exits on {} of {} ({})", h.slurmd_fatal.size(), node_count(h.nodes),
                                short_hostlist(h.slurmd_fatal)));
  if (!h.drained.empty())
    parts.push_back(fmt::format("{} of {} drain{} ({})", h.drained.size(), node_count(h.nodes),
                                h.drained.size() == 1 ? "s" : "", short_hostlist(h.drained)));
  if (h.degraded) parts.push_back(fmt::format("{} degraded", node_count(h.degraded)));
  std::string line = "cluster: ";
  for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "") + parts[i];
  return line + gpus;
}

}  // namespace emit_detail

ClusterHeadline cluster_headline(const Cluster& cluster, const std::vector<std::uint32_t>& nodes,
                                 const ClusterVerdict& verdict) {
  ClusterHeadline h;
  h.nodes = nodes.size();
  h.slurmctld_fatal = verdict.verdict == Verdict::slurmctld_fatal;
  h.slurmctld_line = verdict.reason;
  // GPUs per class, counted once: a 100,000-node cluster has a few hundred classes, and
  // parsing each node's Gres= again was a third of a clean lint.
  struct ClassGpus {
    bool counted = false;
    std::uint64_t configured = 0, registered = 0;
  };
  std::vector<ClassGpus> per_class(cluster.classes.size());
  for (std::uint32_t n : nodes) {
    const NodeClass& cls = cluster.classes[cluster.class_of[n]];
    ClassGpus& counts = per_class[cluster.class_of[n]];
    if (!counts.counted) {
      counts.counted = true;
      counts.configured = count_gres(cls.configured_gres, "gpu").total;
      for (const EffectiveGres& g : cls.gres)
        if (iequals(g.name, "gpu")) counts.registered += g.count;
    }
    const std::uint64_t configured = counts.configured, registered = counts.registered;
    h.gpus_configured += configured;
    const bool serves = !h.slurmctld_fatal && cls.verdict <= Verdict::degraded;
    h.gpus_lost += serves ? configured - std::min(configured, registered) : configured;
    switch (cls.verdict) {
      case Verdict::drain: h.drained.push_back(cluster.node_names[n]); break;
      case Verdict::slurmd_fatal: h.slurmd_fatal.push_back(cluster.node_names[n]); break;
      case Verdict::degraded: ++h.degraded; break;
      default: break;
    }
  }
  return h;
}

void emit_statistics(Format format, const LintReport& report, std::ostream& out) {
  struct Row {
    const RuleInfo* rule;
    Severity severity;
    std::size_t count;
  };
  std::map<std::pair<std::string_view, Severity>, Row> by_rule;
  for (const Diagnostic& d : report.diagnostics) {
    auto [it, fresh] = by_rule.try_emplace({emit_detail::rule_id(d), d.severity}, Row{d.rule, d.severity, 0});
    ++it->second.count;
  }
  std::vector<Row> rows;
  for (auto& [key, row] : by_rule) rows.push_back(row);
  // Most findings first, as Ruff's --statistics; ties in rule order.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.count > b.count; });
  if (format == Format::json) {
    emit_detail::JsonWriter w(out);
    w.begin_array();
    for (const Row& r : rows) {
      w.begin_object();
      w.key("rule").string(r.rule ? r.rule->id : "GRS000");
      w.key("name").string(r.rule ? r.rule->name : "unknown");
      w.key("severity").string(emit_detail::severity_name(r.severity));
      w.key("count").number(r.count);
      w.end_object();
    }
    w.end_array();
    out << '\n';
    return;
  }
  std::size_t width = 1;
  for (const Row& r : rows) width = std::max(width, std::to_string(r.count).size());
  for (const Row& r : rows)
    out << fmt::format("{:>{}}  {}  {:<7}  {}\n", r.count, width, r.rule ? r.rule->id : "GRS000",
                       emit_detail::severity_name(r.severity), r.rule ? r.rule->name : "unknown");
}

}  // namespace greslint
