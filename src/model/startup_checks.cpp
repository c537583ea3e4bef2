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
  const rules::SlurmConfView view{profile_, settings_, slurm_, first_line(slurm_)};
  for (const auto& check : rules::kSlurmConfRecordsStage) ctld_.apply(check.run(view, findings_));
}

// read_config.c:_validate_and_set_defaults runs on whatever parsed, even after parse errors,
// and returns at its first failure. A check's own fatal() therefore comes before the
// generic fatal that a parse error would give.
void Analyzer::check_slurm_conf_values() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, first_line(slurm_)};
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
  const rules::SlurmConfView view{profile_, settings_, slurm_, first_line(slurm_)};
  for (const auto& check : rules::kAccountingTresStage) ctld_.apply(check.run(view, findings_));
}

void Analyzer::check_license_init() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, first_line(slurm_)};
  for (const auto& check : rules::kLicenseInitStage) ctld_.apply(check.run(view, findings_));
}

void Analyzer::check_priority_init() {
  const rules::SlurmConfView view{profile_, settings_, slurm_, first_line(slurm_)};
  for (const auto& check : rules::kPriorityInitStage) ctld_.apply(check.run(view, findings_));
}

// read_slurm_conf reads cgroup.conf before anything else it builds.
void Analyzer::check_cgroup_conf() {
  if (!cgroup_.exists || cgroup_.failed) return;
  const rules::CgroupConfView view{profile_, cgroup_};
  for (const auto& check : rules::kCgroupConfStage) ctld_.apply(check.run(view, findings_));
}

rules::NodeTableView Analyzer::node_table_view() const {
  rules::NodeTableView view{profile_, settings_, first_line(slurm_), in_.slurm_conf_path,
                            cluster_.node_names.size(), {}, {}};
  std::vector<bool> named(node_lines_.size(), false);
  for (std::size_t node = 0; node < node_line_of_.size(); ++node) {
    const std::uint32_t line = node_line_of_[node];
    if (line < named.size() && !named[line]) {
      named[line] = true;
      view.lines.push_back({cluster_.node_names[node], &node_lines_[line]});
    }
  }
  for (const Directive& d : slurm_.directives)
    if (d.kind == Directive::Kind::record && iequals(d.head().spec->name, "PartitionName") &&
        !iequals(d.head().value, "DEFAULT"))
      view.partitions.push_back(&d);
  return view;
}

void Analyzer::check_node_table() {
  const rules::NodeTableView view = node_table_view();
  for (const auto& check : rules::kNodeTableStage) ctld_.apply(check.run(view, findings_));
}

void Analyzer::check_select_node_init() {
  const rules::NodeTableView view = node_table_view();
  for (const auto& check : rules::kSelectNodeInitStage) ctld_.apply(check.run(view, findings_));
}

}  // namespace greslint::model
