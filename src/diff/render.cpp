// SPDX-License-Identifier: Apache-2.0
// A ChangeReport as text (terminals), JSON (scripts; docs/greslint-diff.schema.json) and
// Markdown (a pull-request comment or a CI job summary).
#include <fmt/format.h>

#include <algorithm>

#include "diff/change_report.hpp"
#include "emit/emit_detail.hpp"

namespace greslint::diff {
namespace {

std::string signed_delta(std::uint64_t before, std::uint64_t after) {
  if (after == before) return "0";
  return after > before ? fmt::format("+{}", after - before) : fmt::format("-{}", before - after);
}

std::string side_text(const SideSummary& s) {
  if (!s.exists) return fmt::format("{} (no configuration)", sanitize_for_output(s.label));
  return fmt::format("{} (Slurm {})", sanitize_for_output(s.label), s.slurm_version);
}

std::string verdict_counts(const SideSummary& s) {
  std::string out;
  for (std::size_t v = 0; v < s.by_verdict.size(); ++v)
    if (s.by_verdict[v]) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", s.by_verdict[v], to_string(Verdict(v)));
  return out.empty() ? "none" : out;
}

std::string partition_name(const GpuRow& row) { return row.partition.empty() ? "(all nodes)" : row.partition; }
std::string type_name(const GpuRow& row) { return row.type.empty() ? "(no type)" : row.type; }

std::string finding_line(const FindingChange& f) {
  const Diagnostic& d = *f.finding;
  std::string s = fmt::format("{} {} {} {}", to_string(d.severity), d.rule->id, finding_location(f),
                              sanitize_for_output(d.message));
  if (!d.nodes.empty()) s += fmt::format(" [{}]", sanitize_for_output(d.nodes));
  return s + fmt::format(" ({})", f.fingerprint);
}

/// The verdict summary line both text and markdown close with.
std::string outcome(const ChangeReport& r) {
  const std::size_t stopped = r.regressed_nodes();
  std::string s = stopped ? fmt::format("{} node{} stop{} serving", stopped, stopped == 1 ? "" : "s", stopped == 1 ? "s" : "")
                          : "no node stops serving";
  return s + fmt::format("; {} finding{} introduced, {} fixed", r.introduced.size(),
                         r.introduced.size() == 1 ? "" : "s", r.fixed.size());
}

// Markdown: text from configuration files must not open code, emphasis, links, HTML or
// table cells. With [ and ] escaped no link can form, so parentheses stay as they are.
std::string md_escape(std::string_view text) {
  std::string out;
  for (char c : sanitize_for_output(text)) {
    if (std::string_view("\\`*_[]<>|~").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}
std::string md_code(std::string_view text) {
  std::string s = sanitize_for_output(text);
  std::replace(s.begin(), s.end(), '`', '\'');
  std::string out = "`" + s + "`";
  // A pipe ends a table cell even inside a code span.
  for (std::size_t at = 0; (at = out.find('|', at)) != std::string::npos; at += 2) out.replace(at, 1, "\\|");
  return out;
}
std::string md_verdict(const NodeVerdict& v) {
  if (!v.present) return "absent";
  const std::string name(to_string(v.verdict));
  return v.verdict >= Verdict::drain ? "**" + name + "**" : name;
}
std::string md_reason(const NodeVerdict& v, const std::string& nodes) {
  if (!v.present || v.reason.empty()) return "";
  std::string text = verdict_text(v, nodes);
  return md_escape(text.substr(text.find('"')));
}

}  // namespace

void render_text(const ChangeReport& r, std::ostream& out, bool changed_gpus_only) {
  out << fmt::format("{} -> {}\n", side_text(r.before), side_text(r.after));
  out << fmt::format("nodes: {} -> {} ({} -> {})\n", r.before.nodes, r.after.nodes, verdict_counts(r.before),
                     verdict_counts(r.after));
  if (!r.verdicts.empty()) {
    out << "\nverdict changes:\n";
    for (const VerdictChange& v : r.verdicts)
      out << fmt::format("  {}: {} -> {}\n", sanitize_for_output(v.nodes), verdict_text(v.before, v.nodes),
                         verdict_text(v.after, v.nodes));
  }
  if (!r.gres.empty()) {
    out << "\nGRES changes (verdict unchanged):\n";
    for (const GresChange& g : r.gres)
      out << fmt::format("  {}: {} -> {}\n", sanitize_for_output(g.nodes), sanitize_for_output(g.before),
                         sanitize_for_output(g.after));
  }
  std::vector<GpuRow> gpus;
  for (const GpuRow& g : r.gpus)
    if (!changed_gpus_only || g.before != g.after) gpus.push_back(g);
  if (!gpus.empty()) {
    out << "\nusable GPUs (nodes that register: ok or degraded):\n";
    std::size_t wp = 9, wt = 4;
    for (const GpuRow& g : gpus) {
      wp = std::max(wp, sanitize_for_output(partition_name(g)).size());
      wt = std::max(wt, sanitize_for_output(type_name(g)).size());
    }
    out << fmt::format("  {:<{}}  {:<{}}  {:>8}  {:>8}  {:>8}\n", "PARTITION", wp, "TYPE", wt, "BEFORE", "AFTER", "CHANGE");
    for (const GpuRow& g : gpus)
      out << fmt::format("  {:<{}}  {:<{}}  {:>8}  {:>8}  {:>8}\n", sanitize_for_output(partition_name(g)), wp,
                         sanitize_for_output(type_name(g)), wt, g.before, g.after, signed_delta(g.before, g.after));
  }
  auto findings = [&](const char* title, const std::vector<FindingChange>& list, char mark) {
    if (list.empty()) return;
    out << fmt::format("\n{} ({}):\n", title, list.size());
    for (const FindingChange& f : list) {
      out << fmt::format("  {} {}\n", mark, finding_line(f));
      if (!f.previous_message.empty() && f.previous_message != f.finding->message)
        out << fmt::format("      was: {}\n", sanitize_for_output(f.previous_message));
    }
  };
  findings("findings introduced", r.introduced, '+');
  findings("findings fixed", r.fixed, '-');
  findings("findings reworded", r.reworded, '~');
  out << "\n" << outcome(r) << "\n";
}

void render_markdown(const ChangeReport& r, std::ostream& out, int heading_level, bool changed_gpus_only) {
  const std::string h(std::size_t(std::max(1, heading_level)), '#');
  out << fmt::format("{} greslint: {} → {}\n\n", h, md_escape(side_text(r.before)), md_escape(side_text(r.after)));
  out << fmt::format("**{}**. Nodes: {} → {} ({} → {}).\n\n", md_escape(outcome(r)), r.before.nodes, r.after.nodes,
                     verdict_counts(r.before), verdict_counts(r.after));
  if (!r.verdicts.empty()) {
    out << fmt::format("{}# Verdict changes\n\n| Nodes | Count | Before | After | Reason after | Reason before |\n"
                       "|---|--:|---|---|---|---|\n", h);
    for (const VerdictChange& v : r.verdicts)
      out << fmt::format("| {}{} | {} | {} | {} | {} | {} |\n", v.regression() ? ":x: " : "", md_code(v.nodes), v.count,
                         md_verdict(v.before), md_verdict(v.after), md_reason(v.after, v.nodes),
                         md_reason(v.before, v.nodes));
    out << "\n";
  }
  if (!r.gres.empty()) {
    out << fmt::format("{}# GRES changes\n\n| Nodes | Count | Before | After |\n|---|--:|---|---|\n", h);
    for (const GresChange& g : r.gres)
      out << fmt::format("| {} | {} | {} | {} |\n", md_code(g.nodes), g.count, md_code(g.before), md_code(g.after));
    out << "\n";
  }
  std::vector<GpuRow> gpus;
  for (const GpuRow& g : r.gpus)
    if (!changed_gpus_only || g.before != g.after) gpus.push_back(g);
  if (!gpus.empty()) {
    out << fmt::format("{}# Usable GPUs\n\nNodes that register (ok or degraded) count; drained and fatal ones do not.\n\n"
                       "| Partition | Type | Before | After | Change |\n|---|---|--:|--:|--:|\n", h);
    for (const GpuRow& g : gpus) {
      const std::string delta = signed_delta(g.before, g.after);
      out << fmt::format("| {} | {} | {} | {} | {} |\n", md_escape(partition_name(g)), md_escape(type_name(g)), g.before,
                         g.after, delta == "0" ? delta : "**" + delta + "**");
    }
    out << "\n";
  }
  auto findings = [&](const char* title, const std::vector<FindingChange>& list) {
    if (list.empty()) return;
    out << fmt::format("{}# {} ({})\n\n| | Rule | Where | Message | Nodes | Fingerprint |\n|---|---|---|---|---|---|\n",
                       h, title, list.size());
    for (const FindingChange& f : list) {
      const Diagnostic& d = *f.finding;
      const char* icon = d.severity == Severity::error ? ":x:" : d.severity == Severity::warning ? ":warning:" : ":information_source:";
      std::string message = md_escape(d.message);
      if (!f.previous_message.empty()) message += " (was: " + md_escape(f.previous_message) + ")";
      out << fmt::format("| {} | {} | {} | {} | {} | {} |\n", icon, d.rule->id, md_code(finding_location(f)), message,
                         d.nodes.empty() ? "" : md_code(d.nodes), md_code(f.fingerprint));
    }
    out << "\n";
  };
  findings("Findings introduced", r.introduced);
  findings("Findings fixed", r.fixed);
  findings("Findings reworded", r.reworded);
}

void render_json_members(const ChangeReport& r, emit_detail::JsonWriter& w) {
  auto side = [&](const char* key, const SideSummary& s) {
    w.key(key).begin_object();
    w.key("label").string(s.label);
    w.key("exists").boolean(s.exists);
    w.key("slurm_version").string_or_null(s.slurm_version);
    w.key("nodes").number(s.nodes);
    w.key("verdicts").begin_object();
    for (std::size_t v = 0; v < s.by_verdict.size(); ++v) w.key(to_string(Verdict(v))).number(s.by_verdict[v]);
    w.end_object();
    w.end_object();
  };
  auto node_verdict = [&](const char* key, const NodeVerdict& v, const std::string& nodes) {
    w.key(key).begin_object();
    w.key("verdict").string(v.present ? to_string(v.verdict) : "absent");
    std::string text = v.present && !v.reason.empty() ? verdict_text(v, nodes) : "";
    w.key("reason").string_or_null(text.empty() ? "" : text.substr(text.find('"') + 1, text.size() - text.find('"') - 2));
    w.end_object();
  };
  side("before", r.before);
  side("after", r.after);
  w.key("regressed_nodes").number(r.regressed_nodes());
  w.key("verdict_changes").begin_array();
  for (const VerdictChange& v : r.verdicts) {
    w.begin_object();
    w.key("nodes").string(v.nodes);
    w.key("count").number(v.count);
    node_verdict("before", v.before, v.nodes);
    node_verdict("after", v.after, v.nodes);
    w.key("regression").boolean(v.regression());
    w.end_object();
  }
  w.end_array();
  w.key("gres_changes").begin_array();
  for (const GresChange& g : r.gres) {
    w.begin_object();
    w.key("nodes").string(g.nodes);
    w.key("count").number(g.count);
    w.key("before").string(g.before);
    w.key("after").string(g.after);
    w.end_object();
  }
  w.end_array();
  w.key("gpus").begin_array();
  for (const GpuRow& g : r.gpus) {
    w.begin_object();
    w.key("partition").string_or_null(g.partition);
    w.key("type").string_or_null(g.type);
    w.key("before").number(g.before);
    w.key("after").number(g.after);
    w.end_object();
  }
  w.end_array();
  auto findings = [&](const char* key, const std::vector<FindingChange>& list) {
    w.key(key).begin_array();
    for (const FindingChange& f : list) {
      const Diagnostic& d = *f.finding;
      w.begin_object();
      w.key("fingerprint").string(f.fingerprint);
      w.key("rule").string(d.rule->id);
      w.key("name").string(d.rule->name);
      w.key("severity").string(to_string(d.severity));
      w.key("location").string(finding_location(f));
      w.key("message").string(d.message);
      if (!f.previous_message.empty() || key == std::string_view("reworded"))
        w.key("previous_message").string(f.previous_message);
      w.key("nodes").string_or_null(d.nodes);
      w.key("slurm_message").string_or_null(d.slurm_message);
      w.end_object();
    }
    w.end_array();
  };
  w.key("findings").begin_object();
  findings("introduced", r.introduced);
  findings("fixed", r.fixed);
  findings("reworded", r.reworded);
  w.end_object();
}

}  // namespace greslint::diff
