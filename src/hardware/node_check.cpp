// SPDX-License-Identifier: Apache-2.0
// greslint node-check: the effective configuration of one node (or of every node in a
// captured inventory), as the model read it, compared with the hardware the kernel
// reports (rules GRS5xx), and --suggest. Findings go through lint's report stage.
//   checked_node.cpp      a node's gres.conf lines from the model; the GPUs Slurm counts
//   node_checker.cpp      the checks of one node; autodetect_check.cpp with AutoDetect
//   suggest.cpp           --suggest
//   capture.cpp           --inventory folders and tarballs
#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

#include "commands/lint_session.hpp"
#include "greslint/hardware.hpp"
#include "hardware/capture.hpp"
#include "hardware/checked_node.hpp"
#include "hardware/suggest.hpp"
#include "util.hpp"

namespace greslint {
namespace {

using node_check::Target;

/// The host's name: the captured one, else (and for the live node) gethostname().
std::string host_name(const HardwareInventory& hw, const Target& t) {
  std::string host = hw.hostname;
  if (host.empty() || t.sysroot == "/") {
    char name[256] = {0};
    if (::gethostname(name, sizeof(name) - 1) == 0) host = name;
  }
  return host;
}

/// Checks one target into `found` (or prints its --suggest); false (with a message) when
/// the target cannot be checked, and `fatal` when the rest of the run cannot go on either.
bool check_target(const Run& run, const NodeCheckOptions& o, Target& t, std::ostream& sink, Reporter& found,
                  std::vector<node_check::Suggestion>& suggestions, std::ostream& err, bool& fatal) {
  const VersionProfile profile(run.version.version);
  const Cluster& cluster = run.cluster;
  HardwareInventory hw = read_inventory(t.sysroot);
  for (const std::string& p : hw.problems) err << "greslint: " << p << "\n";
  if (t.node.empty()) {
    const std::string host = host_name(hw, t);
    auto n = cluster.config ? node_check::match_node(*cluster.config, profile, host) : std::nullopt;
    if (!n) {
      err << fmt::format("greslint: host {} is not a NodeName (or NodeHostname) in {}; name the node with --node\n",
                         host, run.slurm_conf);
      fatal = true;
      return false;
    }
    t.node = *n;
  }
  auto it = std::find(cluster.node_names.begin(), cluster.node_names.end(), t.node);
  if (it == cluster.node_names.end() || !cluster.config) {
    err << fmt::format("greslint: {} is not a NodeName in {}\n", t.node, run.slurm_conf);
    return false;
  }
  if (hw.cpu.empty() && hw.gpus.empty()) {
    err << fmt::format("greslint: found no CPUs and no GPUs under {}\n", t.sysroot);
    return false;
  }
  const auto node = std::uint32_t(it - cluster.node_names.begin());
  if (o.suggest) {
    suggestions.push_back(node_check::make_suggestion(t.node, hw, profile));
    if (o.report.format != Format::json) node_check::write_suggestion(suggestions.back(), profile, sink);
    return true;
  }
  const NodeClass& cls = cluster.classes[cluster.class_of[node]];
  if (cls.verdict >= Verdict::drain && !o.report.quiet)
    err << fmt::format("greslint: note: the configuration alone already makes Slurm {} {} ({}); see greslint lint\n",
                       to_string(cls.verdict), t.node, node_reason(cls, t.node));
  node_check::check_node(cluster, profile, node, hw, found);
  return true;
}

/// The nodes to check: every capture of --inventory, else the one --node/--sysroot names.
bool targets_of(const NodeCheckOptions& o, std::vector<Target>& targets, std::ostream& err) {
  if (!o.inventory.empty()) return node_check::inventory_targets(o.inventory, targets, err);
  targets.push_back(Target{o.node, o.sysroot.empty() ? "/" : o.sysroot, ""});
  return true;
}

/// --inventory: the slurm.conf nodes it holds no capture of are named, not passed over.
void note_uncaptured(const Cluster& cluster, const std::vector<Target>& targets, const std::string& dir,
                     std::ostream& err) {
  std::vector<bool> captured(cluster.node_names.size(), false);
  for (const Target& t : targets) {
    auto it = std::find(cluster.node_names.begin(), cluster.node_names.end(), t.node);
    if (it != cluster.node_names.end()) captured[std::size_t(it - cluster.node_names.begin())] = true;
  }
  std::vector<std::string> missing;
  for (std::size_t n = 0; n < captured.size(); ++n)
    if (!captured[n]) missing.push_back(cluster.node_names[n]);
  if (missing.empty()) return;
  err << fmt::format("greslint: note: {} holds no capture of {} of the {} slurm.conf nodes, which were not checked: {}\n",
                     dir, missing.size(), captured.size(), fold_hostnames(missing));
}

void emit(const Run& run, const LintOptions& o, std::vector<Diagnostic> findings, std::ostream& sink) {
  LintReport report;
  report.slurm_version = run.version.version;
  report.version_source = run.version.source;
  report.inputs = run.inputs;
  report.diagnostics = std::move(findings);
  EmitOptions eo;
  eo.color = o.color && o.output.empty();
  char cwd[4096];
  eo.base_dir = ::getcwd(cwd, sizeof(cwd)) ? cwd : dirname_of(run.slurm_conf);
  if (!(o.quiet && report.diagnostics.empty()) || !o.output.empty())
    emit_report(o.format, report, run.sources, eo, sink);
}

}  // namespace

int run_node_check(const NodeCheckOptions& options, std::ostream& out, std::ostream& err) {
  LintOptions o = options.report;
  if (!load_config_file(o, err)) return 2;
  auto overrides = parse_severity_overrides(o.severity, err);
  if (!overrides || !check_rule_names(o, err)) return 2;
  auto run = analyze_paths(o, err);
  if (!run) return 2;

  std::vector<Target> targets;
  bool inputs_ok = targets_of(options, targets, err);
  std::ofstream file;
  std::ostream* sink = &out;
  if (!o.output.empty()) {
    file.open(o.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o.output);
      inputs_ok = false;
    }
    sink = &file;
  }
  Reporter found;
  std::vector<node_check::Suggestion> suggestions;
  const bool inventory = !options.inventory.empty();
  std::size_t checked = 0;
  for (Target& t : targets) {
    if (!inputs_ok) break;
    bool fatal = false;
    if (check_target(*run, options, t, *sink, found, suggestions, err, fatal)) {
      ++checked;
      continue;
    }
    // In an inventory, one stray capture (a node slurm.conf lacks, an empty tree) is named
    // and the others are checked; a single node that cannot be checked ends the run.
    if (inventory && !fatal) {
      err << fmt::format("greslint: --inventory: skipping {}\n", t.node);
      t.node.clear();
      continue;
    }
    inputs_ok = false;
  }
  node_check::remove_captures(targets);
  if (inventory && inputs_ok) note_uncaptured(run->cluster, targets, options.inventory, err);
  if (!inputs_ok || checked == 0) return 2;
  if (options.suggest) {
    if (o.format == Format::json)
      node_check::write_suggestions_json(suggestions, VersionProfile(run->version.version), *sink);
    return 0;
  }
  std::vector<Diagnostic> findings =
      report_stage(std::move(found.diagnostics()), *run, o, *overrides, std::nullopt, RuleScope::hardware);
  const int code = exit_code_for(findings, o.fail_level);
  emit(*run, o, std::move(findings), *sink);
  return code;
}

}  // namespace greslint
