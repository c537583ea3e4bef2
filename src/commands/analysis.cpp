// SPDX-License-Identifier: Apache-2.0
// One configuration as lint reports it, kept as data for the commands that compare
// configurations (diff, upgrade) and for baselines.
#include "commands/lint_session.hpp"
#include "greslint/fingerprint.hpp"
#include "job/job_model.hpp"
#include "limits/limits_check.hpp"
#include "util.hpp"

namespace greslint {

std::unique_ptr<Analysis> analyze_configuration(const LintOptions& o, std::ostream& err) {
  auto overrides = parse_severity_overrides(o.severity, err);
  if (!overrides || !check_rule_names(o, err)) return nullptr;
  auto run = analyze_paths(o, err);
  if (!run) return nullptr;
  std::optional<Hostlist> only;
  if (!parse_node_filter(o.nodes, run->version.version, only, err) ||
      !check_node_filter(only, o.nodes, run->cluster, err))
    return nullptr;
  if (!o.limits.empty()) {
    limits::LimitsDb db;
    if (!limits::load_limits(run->sources, o.limits, db, err)) return nullptr;
    const limits::Pool pool = limits::pool_of(run->cluster, job::job_cluster(run->cluster));
    limits::check_limits(run->cluster, pool, run->version.version, db, run->reporter);
    for (FileId f : db.files) run->inputs.push_back(run->sources.path(f));
  }
  auto a = std::make_unique<Analysis>();
  a->input_unreadable = input_unreadable(*run);
  std::vector<std::uint32_t> in_scope;
  for (std::uint32_t n = 0; n < run->cluster.node_names.size(); ++n)
    if (!only || only->contains(run->cluster.node_names[n])) in_scope.push_back(n);
  a->headline = cluster_headline(run->cluster, in_scope, cluster_verdict(*run));
  a->findings = report_stage(std::move(run->reporter.diagnostics()), *run, o, *overrides, only,
                             RuleScope::configuration);
  a->dropped = run->reporter.dropped();
  // Moving the SourceManager moves its vector of files, not the texts: views into them
  // (comments, spans) stay valid.
  a->sources = std::move(run->sources);
  a->cluster = std::move(run->cluster);
  a->version = std::move(run->version);
  a->slurm_conf = std::move(run->slurm_conf);
  a->inputs = std::move(run->inputs);
  a->fingerprints = fingerprint_findings(a->findings, a->sources, dirname_of(a->slurm_conf));
  return a;
}

}  // namespace greslint
