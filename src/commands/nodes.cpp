// SPDX-License-Identifier: Apache-2.0
// `greslint nodes`: each node's effective GRES and Slurm's verdict on it.
#include <algorithm>
#include <fmt/format.h>

#include "commands/lint_session.hpp"
#include "util.hpp"

namespace greslint {
namespace {

/// --verdict: the verdicts to list; false (with a message) on an unknown name.
bool parse_verdict_filter(const std::vector<std::string>& names, std::vector<Verdict>& wanted, std::ostream& err) {
  for (const std::string& name : names) {
    bool known = false;
    for (Verdict v : {Verdict::ok, Verdict::degraded, Verdict::drain, Verdict::slurmd_fatal, Verdict::slurmctld_fatal})
      if (iequals(name, to_string(v))) {
        wanted.push_back(v);
        known = true;
      }
    if (!known) {
      err << fmt::format("greslint: --verdict takes ok, degraded, drain, slurmd-fatal or slurmctld-fatal, not '{}'\n",
                         name);
      return false;
    }
  }
  return true;
}

/// FUTURE when slurmctld starts (Cluster::future_at_startup): the listing leaves the node
/// out, like a node slurm.conf does not name, as scontrol and sinfo do ("Node ... not found").
/// A slurmctld that stops at start-up takes every node with it, FUTURE or not.
bool configured_future(const Cluster& c, std::uint32_t n) {
  return n < c.future_at_startup.size() && c.future_at_startup[n];
}

}  // namespace

int run_nodes(const LintOptions& options, std::ostream& out, std::ostream& err) {
  LintOptions o = options;
  if (!load_config_file(o, err)) return 2;
  if (o.format != Format::text && o.format != Format::json) {
    // Format= in .greslint.conf is meant for lint; only the command line is refused.
    if (o.format_given) {
      err << "greslint: nodes writes text or json; concise, sarif, github, junit and gitlab are for lint findings\n";
      return 2;
    }
    o.format = Format::text;
  }
  std::vector<Verdict> verdicts;
  if (!parse_verdict_filter(o.verdicts, verdicts, err)) return 2;
  auto run = analyze_paths(o, err);
  if (!run) return 2;
  const Cluster& c = run->cluster;
  std::optional<Hostlist> only;
  if (!parse_node_filter(o.nodes, run->version.version, only, err) || !check_node_filter(only, o.nodes, c, err))
    return 2;
  NodesReport report;
  report.cluster = &c;
  report.verdict = cluster_verdict(*run);
  report.slurm_version = run->version.version;
  report.version_source = run->version.source;
  const bool ctld_stops = report.verdict.verdict == Verdict::slurmctld_fatal;
  bool bad = ctld_stops;
  for (std::uint32_t n = 0; n < c.node_names.size(); ++n) {
    if (only && !only->contains(c.node_names[n])) continue;
    if (!ctld_stops && configured_future(c, n)) continue;
    const Verdict v = c.classes[c.class_of[n]].verdict;
    if (!verdicts.empty() && std::find(verdicts.begin(), verdicts.end(), v) == verdicts.end()) continue;
    report.nodes.push_back(n);
    bad = bad || v >= Verdict::drain;
  }
  emit_nodes(o.format, report, EmitOptions{}, out);
  return bad ? 1 : 0;
}

}  // namespace greslint
