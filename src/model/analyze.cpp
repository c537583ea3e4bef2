// SPDX-License-Identifier: Apache-2.0
// The order of Slurm's steps, and the model's entry points.
#include <algorithm>
#include <fmt/format.h>

#include "model/analyzer.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint {

std::string_view to_string(Verdict v) noexcept {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::degraded: return "degraded";
    case Verdict::drain: return "drain";
    case Verdict::slurmd_fatal: return "slurmd-fatal";
    case Verdict::slurmctld_fatal: return "slurmctld-fatal";
  }
  return "ok";
}

namespace model {

Cluster Analyzer::run() {
  // slurmctld start-up (and what slurmd reads of slurm.conf).
  read_slurm_conf();
  check_grestypes();
  build_nodes();
  check_partitions();
  if (!grestypes_.empty()) read_gres_conf();
  read_cgroup_conf();
  // Per node class: slurmd reads gres.conf and registers, slurmctld validates.
  const std::vector<ClassOrder> order = form_classes(apply_gres_lines());
  for (const ClassOrder& o : order) {
    NodeClass& cls = cluster_.classes[o.cls];
    if (ctld_.fatal) {
      cls.verdict = Verdict::slurmctld_fatal;
      cls.reason = ctld_.reason;
      continue;
    }
    std::vector<const GresLine*> lines;
    for (const GresLine& g : gres_lines_)
      if (!g.node_scoped) lines.push_back(&g);
    for (std::uint32_t li : o.lines) lines.push_back(&gres_lines_[li]);
    Findings::ClassScope scope(findings_, cls.nodes);
    evaluate(cls, node_lines_[o.node_line], lines, cluster_.node_names[cls.nodes.front()]);
  }
  // The cluster as a whole.
  check_policy();
  for (const ConfigFile* f : {&slurm_, &gres_, &cgroup_})
    cluster_.comments.insert(cluster_.comments.end(), f->comments.begin(), f->comments.end());
  findings_.flush(cluster_.node_names);
  return std::move(cluster_);
}

void Analyzer::spend(const Hostlist& list, Span where) {
  if (expanded_ + list.size() > kMaxExpandedNames) throw expansion_limit(list, where);
  expanded_ += list.size();
}

LimitExceeded Analyzer::expansion_limit(const Hostlist& list, Span where) const {
  return LimitExceeded{where, fmt::format("greslint stops here: this list names {} hosts or files, which takes the "
                                          "names it expands in one run past its limit of {}",
                                          list.size(), kMaxExpandedNames)};
}

bool Analyzer::in_grestypes_exact(std::string_view name) const {
  return std::find(grestypes_.begin(), grestypes_.end(), name) != grestypes_.end();
}

bool Analyzer::in_grestypes_nocase(std::string_view name) const {
  return std::any_of(grestypes_.begin(), grestypes_.end(), [&](const std::string& g) { return iequals(g, name); });
}

namespace {

Cluster analyze_with(const LintInputs& inputs, const ConfigTexts* texts, const VersionProfile& profile,
                     SourceManager& sources, Reporter& out) {
  Analyzer a(inputs, texts, profile, sources, out);
  try {
    return a.run();
  } catch (const LimitExceeded& e) {
    // What Slurm does with such a configuration is beyond a model: report where greslint
    // stopped, and no nodes.
    if (e.message.empty()) return Cluster{};
    out.report(rules::GRS008, e.span, e.message)
        .effect(Effect::none, Daemon::none)
        .help(fmt::format("greslint models at most {} nodes and makes at most {} names from hostlists per run",
                          kMaxNodes, kMaxExpandedNames));
    return Cluster{};
  }
}

}  // namespace
}  // namespace model

Cluster analyze(const LintInputs& inputs, const VersionProfile& profile, SourceManager& sources, Reporter& out) {
  return model::analyze_with(inputs, nullptr, profile, sources, out);
}

Cluster analyze_text(const ConfigTexts& texts, const VersionProfile& profile, SourceManager& sources, Reporter& out) {
  const LintInputs inputs{join_path(texts.directory, "slurm.conf"), join_path(texts.directory, "gres.conf"),
                          join_path(texts.directory, "cgroup.conf")};
  return model::analyze_with(inputs, &texts, profile, sources, out);
}

}  // namespace greslint
