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

/// A Markdown cell holds at most this many characters of one value (a folded hostlist of
/// scattered nodes, a long message); the rest is cut with an ellipsis.
constexpr std::size_t kMaxCell = 400;

std::string clip(std::string text) {
  if (text.size() <= kMaxCell) return text;
  std::size_t end = kMaxCell;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // a whole UTF-8 character
  text.resize(end);
  return text + "…";
}

// Markdown: text from configuration files must not open code, emphasis, links, HTML or
// table cells. With [ and ] escaped no link can form, so parentheses stay as they are.
std::string md_escape(std::string_view text) {
  std::string out;
  for (char c : clip(sanitize_for_output(text))) {
    if (std::string_view("\\`*_[]<>|~").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}
std::string md_code(std::string_view text) {
  std::string s = clip(sanitize_for_output(text));
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

/// Markdown for a pull-request comment keeps to a budget of characters (kMarkdownBudget): a table shows
/// at most kMaxRows rows and stops early when the budget runs out, and says how many rows
/// `--format json` has besides. Each table's heading and first row always fit: the budget
/// leaves room for the tables after it, and no cell is longer than kMaxCell.
class MarkdownDocument {
 public:
  static constexpr std::size_t kMaxRows = 200;  ///< per table

  /// `budget` characters in all (see kMarkdownBudget).
  explicit MarkdownDocument(std::size_t budget) : budget_(budget), reserve_(budget / 15) {}

  void line(const std::string& text) { text_ += text + "\n"; }

  template <typename Row, typename Render>
  void table(const std::string& heading, const char* header, const std::vector<Row>& rows, Render render) {
    if (rows.empty()) return;
    text_ += heading + "\n\n" + header + "\n";
    std::size_t shown = 0;
    for (const Row& row : rows) {
      const std::string cells = render(row);
      if (shown == kMaxRows || (shown > 0 && text_.size() + cells.size() + reserve_ > budget_)) break;
      text_ += cells + "\n";
      ++shown;
    }
    if (shown < rows.size())
      text_ += fmt::format("\n{} more row{} not shown here: `--format json` lists them all.\n",
                           rows.size() - shown, rows.size() - shown == 1 ? "" : "s");
    text_ += "\n";
  }

  const std::string& text() const { return text_; }

 private:
  std::size_t budget_;
  std::size_t reserve_;  ///< kept for the tables still to come
  std::string text_;
};

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

void render_markdown(const ChangeReport& r, std::ostream& out, int heading_level, bool changed_gpus_only,
                     std::size_t budget) {
  MarkdownDocument doc(budget);
  const std::string h(std::size_t(std::max(1, heading_level)), '#');
  doc.line(fmt::format("{} greslint: {} → {}\n", h, md_escape(side_text(r.before)), md_escape(side_text(r.after))));
  doc.line(fmt::format("**{}**. Nodes: {} → {} ({} → {}).\n", md_escape(outcome(r)), r.before.nodes, r.after.nodes,
                       verdict_counts(r.before), verdict_counts(r.after)));
  doc.table(h + "# Verdict changes", "| Nodes | Count | Before | After | Reason after | Reason before |\n|---|--:|---|---|---|---|",
            r.verdicts, [](const VerdictChange& v) {
              return fmt::format("| {}{} | {} | {} | {} | {} | {} |", v.regression() ? ":x: " : "", md_code(v.nodes),
                                 v.count, md_verdict(v.before), md_verdict(v.after), md_reason(v.after, v.nodes),
                                 md_reason(v.before, v.nodes));
            });
  doc.table(h + "# GRES changes", "| Nodes | Count | Before | After |\n|---|--:|---|---|", r.gres,
            [](const GresChange& g) {
              return fmt::format("| {} | {} | {} | {} |", md_code(g.nodes), g.count, md_code(g.before), md_code(g.after));
            });
  std::vector<GpuRow> gpus;
  for (const GpuRow& g : r.gpus)
    if (!changed_gpus_only || g.before != g.after) gpus.push_back(g);
  doc.table(h + "# Usable GPUs\n\nNodes that register (ok or degraded) count; drained and fatal ones do not.",
            "| Partition | Type | Before | After | Change |\n|---|---|--:|--:|--:|", gpus, [](const GpuRow& g) {
              const std::string delta = signed_delta(g.before, g.after);
              return fmt::format("| {} | {} | {} | {} | {} |", md_escape(partition_name(g)), md_escape(type_name(g)),
                                 g.before, g.after, delta == "0" ? delta : "**" + delta + "**");
            });
  auto findings = [&](const char* title, const std::vector<FindingChange>& list) {
    doc.table(fmt::format("{}# {} ({})", h, title, list.size()),
              "| | Rule | Where | Message | Nodes | Fingerprint |\n|---|---|---|---|---|---|", list,
              [](const FindingChange& f) {
                const Diagnostic& d = *f.finding;
                const char* icon = d.severity == Severity::error     ? ":x:"
                                   : d.severity == Severity::warning ? ":warning:"
                                                                     : ":information_source:";
                std::string message = md_escape(d.message);
                if (!f.previous_message.empty()) message += " (was: " + md_escape(f.previous_message) + ")";
                return fmt::format("| {} | {} | {} | {} | {} | {} |", icon, d.rule->id, md_code(finding_location(f)),
                                   message, d.nodes.empty() ? "" : md_code(d.nodes), md_code(f.fingerprint));
              });
  };
  findings("Findings introduced", r.introduced);
  findings("Findings fixed", r.fixed);
  findings("Findings reworded", r.reworded);
  out << doc.text();
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
