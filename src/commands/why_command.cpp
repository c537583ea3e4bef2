// SPDX-License-Identifier: Apache-2.0
// `greslint why [NODES]`: why the controller's unavailable nodes are so, and where the
// running cluster drifted from the files (docs/why.md).
#include <fmt/format.h>

#include <fstream>

#include "commands/command.hpp"
#include "commands/lint_session.hpp"
#include "commands/report_options.hpp"
#include "commands/why_explain.hpp"
#include "emit/emit_detail.hpp"
#include "greslint/emit.hpp"
#include "util.hpp"

namespace greslint::cli {
namespace {

using why::NodeWhy;
using why::WhyReport;

struct WhyOptions {
  std::string nodes;
  std::string conf;
  std::vector<std::string> state;
  std::string slurm_version;
  std::string output;
  bool no_drift = false;
  bool quiet = false;
};

/// "slurmctld 24.11.5 as asked now (scontrol show node --json, sinfo -R, ...) against
/// /etc/slurm/slurm.conf"
std::string header(const WhyReport& r) {
  std::string read;
  for (const std::string& s : r.sources) read += (read.empty() ? "" : ", ") + s;
  return fmt::format("slurmctld {}, {} ({}), against {}",
                     r.controller_version.empty() ? "(release unknown)" : r.controller_version, r.origin, read,
                     r.inputs.empty() ? "the files" : r.inputs.front());
}

void render_text(const WhyReport& r, bool quiet, std::ostream& out) {
  if (r.ok()) {
    if (!quiet)
      out << fmt::format("{}\nnothing is wrong: {} node(s), none drained or down{} (Slurm {} profile)\n", header(r),
                         r.nodes_seen, r.drift_checked ? ", and the controller runs what the files say" : "",
                         r.slurm_version);
    return;
  }
  out << header(r) << "\n\n";
  for (const NodeWhy& w : r.nodes) {
    out << fmt::format("{}  {}", w.node, w.state);
    if (!w.reason.empty()) out << fmt::format("  \"{}\"", sanitize_for_output(w.reason));
    if (!w.reason_user.empty()) out << fmt::format(" [{}{}]", w.reason_user, w.reason_time.empty() ? "" : "@" + w.reason_time);
    out << "\n";
    out << fmt::format("  {}: {}\n", why::to_string(w.cause), sanitize_for_output(w.message));
    if (w.place.valid()) out << fmt::format("  line: {}\n", w.place.text());
    for (std::size_t i = 0; i < w.related.size(); ++i)
      if (w.related[i].valid())
        out << fmt::format("        {} ({})\n", w.related[i].text(), sanitize_for_output(w.related_messages[i]));
    if (!w.fix.empty()) out << fmt::format("  fix:  {}\n", sanitize_for_output(w.fix));
    for (std::size_t i = 0; i < w.commands.size(); ++i)
      out << fmt::format("  {} {}\n", i == 0 ? "then:" : "     ", w.commands[i]);
  }
  if (!r.drift.empty()) out << (r.nodes.empty() ? "" : "\n") << "drift between the running cluster and the files:\n";
  for (const why::Drift& d : r.drift) {
    out << fmt::format("  {}{}: {}\n", d.place.valid() ? d.place.text() + ": " : "", why::to_string(d.kind),
                       sanitize_for_output(d.message));
    for (const std::string& c : d.commands) out << fmt::format("    run: {}\n", c);
  }
  std::size_t explained = 0;
  for (const NodeWhy& w : r.nodes) explained += explained_by_files(w.cause) ? 1 : 0;
  out << fmt::format("{} of {} node(s) unavailable ({} explained by the files), {} drift item(s) (Slurm {} profile)\n",
                     r.nodes.size(), r.nodes_seen, explained, r.drift.size(), r.slurm_version);
}

void place_members(emit_detail::JsonWriter& w, const why::Place& p) {
  if (!p.valid()) {
    w.key("file").string_or_null(p.file);
    w.key("line").null();
    return;
  }
  w.key("file").string(p.file).key("line").number(p.line).key("column").number(p.column);
}

void render_json(const WhyReport& r, std::ostream& out) {
  emit_detail::JsonWriter w(out);
  w.begin_object();
  w.key("schema").number(1);
  w.key("tool").begin_object().key("name").string("greslint").key("version").string(GRESLINT_VERSION).end_object();
  w.key("command").string("why");
  w.key("slurm_version").string(r.slurm_version);
  w.key("controller_version").string_or_null(r.controller_version);
  w.key("origin").string(r.origin);
  w.key("sources").begin_array();
  for (const std::string& s : r.sources) w.string(s);
  w.end_array();
  w.key("inputs").begin_array();
  for (const std::string& s : r.inputs) w.string(s);
  w.end_array();
  w.key("nodes").begin_array();
  for (const NodeWhy& n : r.nodes) {
    w.begin_object();
    w.key("node").string(n.node).key("state").string(n.state).key("reason").string(n.reason);
    w.key("reason_user").string_or_null(n.reason_user).key("reason_time").string_or_null(n.reason_time);
    w.key("cause").string(why::to_string(n.cause)).key("message").string(n.message);
    w.key("rule").string_or_null(n.finding ? n.finding->rule->id : "");
    w.key("rule_name").string_or_null(n.finding ? n.finding->rule->name : "");
    place_members(w, n.place);
    w.key("related").begin_array();
    for (std::size_t i = 0; i < n.related.size(); ++i) {
      w.begin_object();
      place_members(w, n.related[i]);
      w.key("message").string(n.related_messages[i]);
      w.end_object();
    }
    w.end_array();
    w.key("predicted").begin_object();
    w.key("verdict").string_or_null(n.predicted_verdict).key("reason").string_or_null(n.predicted_reason);
    w.end_object();
    w.key("fix").string_or_null(n.fix);
    w.key("commands").begin_array();
    for (const std::string& c : n.commands) w.string(c);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("drift").begin_array();
  for (const why::Drift& d : r.drift) {
    w.begin_object();
    w.key("kind").string(why::to_string(d.kind)).key("subject").string(d.subject);
    w.key("files").string_or_null(d.files_value).key("controller").string_or_null(d.controller_value);
    place_members(w, d.place);
    w.key("message").string(d.message);
    w.key("commands").begin_array();
    for (const std::string& c : d.commands) w.string(c);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("summary").begin_object();
  w.key("nodes_seen").number(r.nodes_seen).key("unavailable").number(r.nodes.size());
  std::size_t explained = 0;
  for (const NodeWhy& n : r.nodes) explained += explained_by_files(n.cause) ? 1 : 0;
  w.key("explained").number(explained).key("drift").number(r.drift.size());
  w.key("drift_checked").boolean(r.drift_checked).key("ok").boolean(r.ok());
  w.end_object();
  w.end_object();
  out << "\n";
}

class WhyCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("why", "why the controller's drained nodes are drained; where it drifted from the files");
    CLI::App& cmd = *app_;
    cmd.add_option("NODES", o_.nodes, "only these nodes (hostlist; default: every node the controller lists)");
    cmd.add_option("--conf", o_.conf, "slurm.conf, or the directory holding it (default: $SLURM_CONF, else "
                                      "/etc/slurm/slurm.conf)");
    cmd.add_option("--state", o_.state,
                   "read the controller's view from captured output (a file, or a folder of them: scontrol show "
                   "node --json, scontrol -o show node, sinfo -R, scontrol show config) instead of asking it");
    cmd.add_option("--slurm-version", o_.slurm_version, "Slurm release to model (default: the controller's)");
    cmd.add_option("--format", format_, "text|json")->capture_default_str();
    cmd.add_option("-o,--output", o_.output, "write the report to FILE");
    cmd.add_flag("--no-drift", o_.no_drift, "only explain unavailable nodes");
    cmd.add_flag("-q,--quiet", o_.quiet, "print nothing when nothing is wrong");
  }

  int run(std::ostream& out, std::ostream& err) override {
    auto format = checked_format(format_, err);
    if (!format) return 2;
    if (*format != Format::text && *format != Format::json) {
      err << "greslint: why writes text or json\n";
      return 2;
    }
    why::ControllerView view;
    if (o_.state.empty()) {
      if (!why::read_live(view, err)) return 2;
    } else {
      for (const std::string& s : o_.state)
        if (!why::read_state(s, view, err)) return 2;
    }
    LintOptions lo;
    if (!o_.conf.empty()) lo.paths.push_back(o_.conf);
    lo.slurm_version = o_.slurm_version;
    if (lo.slurm_version.empty() && parse_slurm_version(view.slurm_version())) {
      lo.slurm_version = view.slurm_version();
      lo.slurm_version_source = "the controller";
    }
    if (!load_config_file(lo, err)) return 2;
    auto analysis = analyze_configuration(lo, err);
    if (!analysis) return 2;
    std::optional<Hostlist> only;
    if (!parse_node_filter(o_.nodes, analysis->version.version, only, err)) return 2;
    WhyReport report = why::explain(view, *analysis, only);
    if (o_.no_drift) {
      report.drift.clear();
      report.drift_checked = false;
    }

    std::ofstream file;
    std::ostream* sink = &out;
    if (!o_.output.empty()) {
      file.open(o_.output);
      if (!file) {
        err << fmt::format("greslint: cannot write {}\n", o_.output);
        return 2;
      }
      sink = &file;
    }
    if (*format == Format::json) render_json(report, *sink);
    else render_text(report, o_.quiet, *sink);
    return report.ok() ? 0 : 1;
  }

 private:
  WhyOptions o_;
  std::string format_ = "text";
};

}  // namespace

std::unique_ptr<Command> make_why_command() { return std::make_unique<WhyCommand>(); }

}  // namespace greslint::cli
