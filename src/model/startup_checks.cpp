// SPDX-License-Identifier: Apache-2.0
// The rest of slurmctld's start-up around the steps of startup.cpp (docs/startup-checks.md):
// the value checks once slurm.conf is parsed, the select plugin, cgroup.conf, and what
// read_slurm_conf checks after the NodeName and PartitionName lines.
#include <fmt/format.h>

#include "model/analyzer.hpp"
#include "rules/stages.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::model {

namespace {

/// Where a finding about a key slurm.conf lacks points: its first line.
Span first_line(const ConfigFile& slurm) {
  if (!slurm.directives.empty()) return slurm.directives.front().head().key_span;
  return Span{slurm.file, 0, 0};
}

}  // namespace

// A record the handlers reject fails the parse like a syntax error (the generic fatal).
void Analyzer::check_slurm_conf_records() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, slurm_index_, first_line(slurm_)};
  for (const auto& check : rules::kSlurmConfRecordsStage) ctld_.apply(check.run(view, findings_));
}

// read_config.c:_validate_and_set_defaults runs on whatever parsed, even after parse errors,
// and returns at its first failure. A check's own fatal() therefore comes before the
// generic fatal that a parse error would give.
void Analyzer::check_slurm_conf_values() {
  rules::SlurmConfView view{profile_, settings_, slurm_, slurm_index_, first_line(slurm_)};
  view.nodeset_named_like_node = nodeset_named_like_node(&view.node_line_naming_it);
  bool returned = false;
  for (const auto& check : rules::kSlurmConfValuesStage) {
    const rules::Outcome o = check.run(view, findings_);
    if (returned || !o.is_fatal()) continue;
    returned = true;
    const bool only_parse_failed = ctld_.fatal && ctld_.reason == rules::kUnableToProcess;
    ctld_.apply(only_parse_failed && o.reason() != rules::kUnableToProcess
                    ? rules::Outcome::slurmctld_fatal_replacing(o.reason())
                    : o);
  }
}

void Analyzer::check_select_plugin() {
  const rules::SelectPluginView view{profile_, settings_, setting("SelectType"),
                                     rules::effective_select_type(settings_, profile_)};
  for (const auto& check : rules::kSelectPluginStage) ctld_.apply(check.run(view, findings_));
}

void Analyzer::check_accounting_tres() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, slurm_index_, first_line(slurm_)};
  for (const auto& check : rules::kAccountingTresStage) ctld_.apply(check.run(view, findings_));
}

void Analyzer::check_license_init() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, slurm_index_, first_line(slurm_)};
  for (const auto& check : rules::kLicenseInitStage) ctld_.apply(check.run(view, findings_));
}

void Analyzer::check_priority_init() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, slurm_index_, first_line(slurm_)};
  for (const auto& check : rules::kPriorityInitStage) ctld_.apply(check.run(view, findings_));
}

// read_slurm_conf reads cgroup.conf before anything else it builds.
void Analyzer::check_cgroup_conf() {
  if (!cgroup_.exists || cgroup_.failed) return;
  const rules::CgroupConfView view{profile_, cgroup_};
  for (const auto& check : rules::kCgroupConfStage) ctld_.apply(check.run(view, findings_));
}

// From 24.11 every daemon refuses a NodeSet named like a node, before it reads the controller
// hosts: the NodeSet records in order, each against the NodeName lines in order (lines whose
// names Slurm cannot make are passed over).
const Directive* Analyzer::nodeset_named_like_node(const Directive** line) const {
  if (profile_.version() < kSlurm2411) return nullptr;
  const std::vector<const Directive*>& nodesets = slurm_index_.records("NodeSet");
  if (nodesets.empty()) return nullptr;
  std::vector<const Directive*> node_lines;
  for (const Directive* d : slurm_index_.records("NodeName"))
    if (!iequals(d->head().value, "DEFAULT")) node_lines.push_back(d);
  std::vector<HostlistResult> names;
  names.reserve(node_lines.size());
  for (const Directive* d : node_lines) names.push_back(parse_hostlist(d->head().value, d->head().value_span, profile_));
  for (const Directive* set : nodesets)
    for (std::size_t i = 0; i < node_lines.size(); ++i)
      if (names[i].ok() && names[i].list->contains(set->head().value)) {
        *line = node_lines[i];
        return set;
      }
  return nullptr;
}

// read_slurm_conf, once cgroup.conf is read: the memory enforcement and the step manager.
void Analyzer::check_read_slurm_conf() {
  rules::SlurmConfView view{profile_, settings_, slurm_, slurm_index_, first_line(slurm_)};
  view.cgroup = &cgroup_;
  for (const auto& check : rules::kReadSlurmConfStage) ctld_.apply(check.run(view, findings_));
}

rules::NodeTableView Analyzer::node_table_view() const {
  rules::NodeTableView view{profile_, settings_, first_line(slurm_), in_.slurm_conf_path,
                            cluster_.node_names.size(), {}, {}, {}, ctld_.fatal};
  view.lines.reserve(node_lines_.size());
  std::vector<bool> named(node_lines_.size(), false);
  for (std::size_t node = 0; node < node_line_of_.size(); ++node) {
    const std::uint32_t line = node_line_of_[node];
    if (line < named.size() && !named[line]) {
      named[line] = true;
      view.lines.push_back({cluster_.node_names[node], &node_lines_[line]});
    }
  }
  const KeyValue* default_weights = nullptr;  // PartitionName=DEFAULT's, as the lines before each partition set it
  for (const Directive* line : slurm_index_.records("PartitionName")) {
    const Directive& d = *line;
    const KeyValue* weights = d.find("TRESBillingWeights");
    if (iequals(d.head().value, "DEFAULT")) {
      if (weights) default_weights = weights;
      continue;
    }
    view.partitions.push_back(&d);
    view.billing_weights.push_back(weights ? weights : default_weights);
  }
  return view;
}

void Analyzer::check_node_table() {
  node_table_.emplace(node_table_view());
  for (const auto& check : rules::kNodeTableStage) ctld_.apply(check.run(*node_table_, findings_));
}

void Analyzer::check_select_node_init() {
  // The DownNodes lines and the partitions, checked in between, may have stopped slurmctld.
  StartupFate& fate = fate_after_cloud_loads();
  node_table_->slurmctld_failed = ctld_.fatal || fate.fatal;
  for (const auto& check : rules::kSelectNodeInitStage) fate.apply(check.run(*node_table_, findings_));
  node_table_.reset();
}

}  // namespace greslint::model
