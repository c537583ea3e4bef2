// SPDX-License-Identifier: Apache-2.0
// The order of Slurm's steps, and the model's entry points.
#include <algorithm>
#include <future>
#include <optional>
#include <fmt/format.h>

#include "greslint/hostlist.hpp"
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
  // gres.conf is read on a second thread from here to read_gres_conf: slurmctld's steps up
  // to gres_init never look at it (ReadAhead).
  start_gres_conf_read();
  // slurmctld start-up (and what slurmd reads of slurm.conf).
  read_slurm_conf();
  check_slurm_conf_records();  // read_config.c's record handlers, while parsing
  check_slurm_conf_values();  // read_config.c, on whatever parsed
  const bool licenses_after_gres = profile_.version() >= kSlurm2505;
  if (!licenses_after_gres) check_license_init();  // license_init
  check_select_plugin();      // select_g_init
  check_grestypes();          // gres_init
  if (licenses_after_gres) check_license_init();
  // ctld_assoc_mgr_init (_init_tres) comes before read_slurm_conf in every release: 26.05
  // refuses a TRES before a NodeAddr count or a partition's node names (s76, s77).
  const bool priority_after_nodes = profile_.version() < kSlurm2302;
  check_accounting_tres();
  if (!priority_after_nodes) check_priority_init();  // priority_g_init
  read_cgroup_conf();         // read_slurm_conf starts with cgroup.conf
  // Nothing reads a file from here to read_gres_conf: gres.conf's files get the ids that
  // follow these, as if read in turn.
  if (!grestypes_.empty()) place_gres_conf_read();
  check_cgroup_conf();
  check_read_slurm_conf();  // memory enforcement, the step manager
  build_nodes();
  // What each slurm.conf node line says is found on the other core while the node table,
  // the partitions and gres.conf's lines are checked: none of them writes a node line, and
  // the core is free again when the gres.conf lines are matched, which split in two then.
  Task<std::vector<std::uint32_t>> node_content = find_node_line_contents();
  check_node_table();
  apply_down_nodes();  // _handle_all_downnodes, before the partitions
  check_partitions();
  check_select_node_init();
  if (priority_after_nodes) check_priority_init();
  if (!grestypes_.empty()) read_gres_conf();
  // Per node class: slurmd reads gres.conf and registers, slurmctld validates.
  match_gres_lines();
  form_classes(node_content.get());
  evaluate_classes();
  stop_at_first_cloud_load_fatal();
  // What slurmctld logged at start-up, loading a CLOUD node's gres.conf or building a node's
  // GRES from slurm.conf, naming no node: a reader of its log (and the conformance harness)
  // takes it as about every node (s2030 m248, gm57; s2042 m86, gm62).
  if (ctld_startup_logged_)
    for (NodeClass& c : cluster_.classes) degrade(c);
  // The cluster as a whole.
  check_policy();
  if (ctld_.fatal) cluster_.startup_fatal = ctld_.reason;
  for (const ConfigFile* f : {&slurm_, &gres_, &cgroup_})
    cluster_.comments.insert(cluster_.comments.end(), f->comments.begin(), f->comments.end());
  findings_.flush(cluster_);
  keep_config();
  return std::move(cluster_);
}

void Analyzer::keep_config() {
  // Moved, not copied: the pointers into the files and lines (Directive*, GresLine*) stay valid.
  auto config = std::make_shared<ConfigModel>();
  config->slurm = std::move(slurm_);
  config->gres = std::move(gres_);
  config->cgroup = std::move(cgroup_);
  config->settings = std::move(settings_);
  config->grestypes = std::move(grestypes_);
  config->node_lines = std::move(node_lines_);
  config->gres_lines = std::move(gres_lines_);
  config->global_lines = std::move(global_lines_);
  config->node_gres_lines = std::move(node_gres_lines_);
  config->global_autodetect = global_autodetect_head_;
  cluster_.config = std::move(config);
}

void Analyzer::stop_at_first_cloud_load_fatal() {
  // slurmctld loads gres.conf itself for each CLOUD node at start-up (_gres_reconfig); the
  // replay gives such a node's class slurmctld-fatal. The first of those loads that fails
  // stops slurmctld, so every node gets its line, naming that node. First in slurmctld's node
  // table, which it sorts by name in natural order before (_sort_node_record_table_ptr), not
  // in slurm.conf's order: hpc-gpu-pg0-1 loads before hpc-pg0-1 even when written after it
  // (s2101 m75, case gm63).
  //
  // From 23.02.4 those loads come before the partitions' node names are checked: a fatal of
  // that check (after_cloud_loads_) stops slurmctld only when no load did (s2102 m142, m161;
  // case gm65). The classes of other nodes took its reason already (evaluate_classes).
  if (ctld_.fatal) return;
  std::optional<std::uint32_t> first;
  for (std::uint32_t n = 0; n < cluster_.class_of.size(); ++n) {
    const NodeClass& c = cluster_.classes[cluster_.class_of[n]];
    if (c.verdict != Verdict::slurmctld_fatal || !cloud_at_startup(n)) continue;
    if (!first || natural_compare_names(cluster_.node_names[n], cluster_.node_names[*first]) < 0) first = n;
  }
  if (!first && !after_cloud_loads_.fatal) return;
  if (!first) ctld_ = after_cloud_loads_;
  const std::string reason =
      first ? expand_nodes(cluster_.classes[cluster_.class_of[*first]].reason, cluster_.node_names[*first])
            : ctld_.reason;
  for (NodeClass& c : cluster_.classes) {
    c.verdict = Verdict::slurmctld_fatal;
    c.reason = reason;
  }
}

StartupFate& Analyzer::fate_after_cloud_loads() {
  return profile_.cloud_loads_before_partitions() ? after_cloud_loads_ : ctld_;
}

void Analyzer::spend(std::uint64_t names, Span where) {
  if (expanded_ + names > kMaxExpandedNames) throw expansion_limit(names, where);
  expanded_ += names;
}

LimitExceeded Analyzer::expansion_limit(std::uint64_t names, Span where) const {
  return LimitExceeded{where, fmt::format("greslint stops here: this list names {} hosts or files, which takes the "
                                          "names it expands in one run past its limit of {}",
                                          names, kMaxExpandedNames)};
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
                          join_path(texts.directory, "cgroup.conf"), {}};
  return model::analyze_with(inputs, &texts, profile, sources, out);
}

}  // namespace greslint
