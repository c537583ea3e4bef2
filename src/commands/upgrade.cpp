// SPDX-License-Identifier: Apache-2.0
// `greslint upgrade --to X.Y`: the same files under each release profile on the way.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "diff/change_report.hpp"
#include "emit/emit_detail.hpp"
#include "greslint/review.hpp"

namespace greslint {
namespace {

/// Every modelled release from `from` to `to`, both included, in the order of the upgrade
/// (a downgrade walks backwards). A site on Debian's build (slurm-wlm) upgrades to Debian's
/// build: every release on the way keeps `from`'s build.
std::vector<SlurmVersion> releases_between(SlurmVersion from, SlurmVersion to) {
  std::vector<SlurmVersion> out;
  for (SlurmVersion v : known_versions())
    if ((from < to) ? (v >= from && !(to < v)) : (v >= to && !(from < v))) {
      v.multiple_slurmd = from.multiple_slurmd;
      out.push_back(v);
    }
  if (to < from) std::reverse(out.begin(), out.end());
  return out;
}

struct Step {
  SlurmVersion from, to;
  diff::ChangeReport report;
  bool empty() const {
    return report.verdicts.empty() && report.gres.empty() && report.introduced.empty() && report.fixed.empty() &&
           report.reworded.empty() &&
           std::all_of(report.gpus.begin(), report.gpus.end(), [](const diff::GpuRow& g) { return g.before == g.after; });
  }
};

std::string release_list(const std::vector<SlurmVersion>& path) {
  std::string out;
  for (std::size_t i = 1; i + 1 < path.size(); ++i) out += (out.empty() ? "" : ", ") + path[i].str();
  return out;
}

void write_text(const std::vector<SlurmVersion>& path, const std::string& source, const std::vector<Step>& steps,
                const diff::ChangeReport& net, const std::string& label, std::ostream& out) {
  const std::string through = release_list(path);
  out << fmt::format("greslint upgrade: {} from Slurm {} ({}) to {}{}\n", sanitize_for_output(label),
                     path.front().str(), source, path.back().str(),
                     through.empty() ? "" : fmt::format(" (through {})", through));
  std::vector<std::string> quiet;
  for (const Step& s : steps) {
    if (s.empty()) {
      quiet.push_back(s.to.str());
      continue;
    }
    out << fmt::format("\n== at {} (from {})\n", s.to.str(), s.from.str());
    std::ostringstream body;
    diff::render_text(s.report, body, true);
    // The step's own heading replaces the two summary lines of a plain diff.
    std::string text = body.str();
    for (int skip = 0; skip < 2; ++skip) text.erase(0, text.find('\n') + 1);
    out << text;
  }
  if (!quiet.empty()) {
    std::string list;
    for (const std::string& v : quiet) list += (list.empty() ? "" : ", ") + v;
    out << fmt::format("\nno change at {}\n", list);
  }
  out << fmt::format("\n== in total, {} -> {}\n", path.front().str(), path.back().str());
  diff::render_text(net, out);
}

void write_markdown(const std::vector<SlurmVersion>& path, const std::string& source, const std::vector<Step>& steps,
                    const diff::ChangeReport& net, const std::string& label, std::ostream& out) {
  out << fmt::format("## greslint upgrade: Slurm {} → {}\n\n", path.front().str(), path.back().str());
  const std::string through = release_list(path);
  out << fmt::format("`{}`, from Slurm {} ({}){}.\n\n", sanitize_for_output(label), path.front().str(), source,
                     through.empty() ? "" : ", through " + through);
  // One comment holds every step and the total: they share its budget.
  const std::size_t parts = 1 + std::count_if(steps.begin(), steps.end(), [](const Step& s) { return !s.empty(); });
  const std::size_t budget = diff::kMarkdownBudget / parts;
  for (const Step& s : steps) {
    if (s.empty()) continue;
    std::ostringstream body;
    diff::render_markdown(s.report, body, 3, true, budget);
    std::string text = body.str();
    text.erase(0, text.find('\n') + 1);  // replaced by the step's heading
    out << fmt::format("### At {} (from {})\n", s.to.str(), s.from.str()) << text;
  }
  std::ostringstream body;
  diff::render_markdown(net, body, 3, false, budget);
  std::string text = body.str();
  text.erase(0, text.find('\n') + 1);
  out << fmt::format("### In total, {} → {}\n", path.front().str(), path.back().str()) << text;
}

void write_json(const std::vector<SlurmVersion>& path, const std::string& source, const std::vector<Step>& steps,
                const diff::ChangeReport& net, FailLevel level, std::ostream& out) {
  emit_detail::JsonWriter w(out);
  w.begin_object();
  w.key("schema").number(1);
  w.key("tool").begin_object().key("name").string("greslint").key("version").string(GRESLINT_VERSION).end_object();
  w.key("command").string("upgrade");
  w.key("from").string(path.front().str());
  w.key("to").string(path.back().str());
  w.key("version_source").string(source);
  w.key("releases").begin_array();
  for (SlurmVersion v : path) w.string(v.str());
  w.end_array();
  w.key("steps").begin_array();
  for (const Step& s : steps) {
    w.begin_object();
    w.key("from").string(s.from.str());
    w.key("to").string(s.to.str());
    diff::render_json_members(s.report, w);
    w.end_object();
  }
  w.end_array();
  w.key("total").begin_object();
  diff::render_json_members(net, w);
  w.end_object();
  w.key("fails").boolean(diff::exit_code(net, level) != 0);
  w.end_object();
  out << "\n";
}

}  // namespace

int run_upgrade(const UpgradeOptions& options, std::ostream& out, std::ostream& err) {
  const auto format = diff::parse_output_format(options.format);
  if (!format) {
    err << fmt::format("greslint: upgrade: unknown format '{}' (text, json or markdown)\n", options.format);
    return 2;
  }
  const auto to = parse_slurm_version(options.to);
  if (!to) {
    err << fmt::format("greslint: upgrade: --to {}: not a release greslint models\n", options.to);
    return 2;
  }
  LintOptions o = options.lint;
  o.paths = {options.path.empty() ? "." : options.path};
  if (!load_config_file(o, err)) return 2;
  const auto from = resolve_slurm_version(VersionPin{o.slurm_version, o.slurm_version_source}, err);
  if (!from) return 2;

  const std::vector<SlurmVersion> path = releases_between(from->version, *to);
  std::vector<diff::Snapshot> sides(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    LintOptions at = o;
    at.slurm_version = path[i].multiple_slurmd ? path[i].str() + "-debian" : path[i].str();
    sides[i].label = o.paths.front();
    sides[i].analysis = analyze_configuration(at, err);
    if (!sides[i].analysis) return 2;
  }
  std::vector<Step> steps;
  for (std::size_t i = 1; i < path.size(); ++i) steps.push_back({path[i - 1], path[i], diff::compare(sides[i - 1], sides[i])});
  const diff::ChangeReport net = diff::compare(sides.front(), sides.back());

  std::ofstream file;
  if (!o.output.empty()) {
    file.open(o.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o.output);
      return 2;
    }
  }
  std::ostream& sink = o.output.empty() ? out : file;
  const std::string label = o.paths.front();
  switch (*format) {
    case diff::OutputFormat::text: write_text(path, from->source, steps, net, label, sink); break;
    case diff::OutputFormat::markdown: write_markdown(path, from->source, steps, net, label, sink); break;
    case diff::OutputFormat::json: write_json(path, from->source, steps, net, o.fail_level, sink); break;
  }
  if (std::any_of(sides.begin(), sides.end(), [](const diff::Snapshot& s) { return s.analysis->input_unreadable; }))
    return 2;
  return diff::exit_code(net, o.fail_level);
}

}  // namespace greslint
