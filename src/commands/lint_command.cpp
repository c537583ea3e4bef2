// SPDX-License-Identifier: Apache-2.0
// Command-line wiring of `greslint lint` and `greslint nodes`: one set of options, two reports.
#include <unistd.h>

#include <fmt/format.h>
#include <iostream>

#include "commands/command.hpp"
#include "commands/report_options.hpp"
#include "greslint/lint.hpp"

namespace greslint::cli {
namespace {

class LintCommand final : public Command {
 public:
  enum class Kind { lint, nodes };
  explicit LintCommand(Kind kind) : kind_(kind) {}

  void add_to(CLI::App& app) override {
    app_ = kind_ == Kind::lint ? app.add_subcommand("lint", "lint slurm.conf + gres.conf (the default command)")
                               : app.add_subcommand("nodes", "per-node effective GRES and Slurm's verdict");
    CLI::App& cmd = *app_;
    cmd.add_option("PATH", o_.paths, "directory holding slurm.conf, or a slurm.conf file")->expected(0, 1);
    cmd.add_option("--slurm-version", o_.slurm_version, "Slurm release to model (22.05 ... 26.05)");
    add_format_option(cmd, text_);
    cmd.add_option("-o,--output", o_.output, "write the report to FILE");
    add_fail_level_option(cmd, text_);
    cmd.add_option("--select", o_.select, "only these rules (ids or names, comma separated)")->delimiter(',');
    cmd.add_option("--ignore", o_.ignore, "skip these rules (ids or names, comma separated)")->delimiter(',');
    cmd.add_option("--nodes", o_.nodes, "only findings that affect these nodes (hostlist)");
    add_color_option(cmd, text_);
    cmd.add_flag("-q,--quiet", o_.quiet, "print nothing when there is nothing to report");
    cmd.add_option("--severity", o_.severity, "override a rule's severity: ID=error|warning|note")->delimiter(',');
    cmd.add_option("--config", o_.config, "read this .greslint.conf instead of searching upward");
    cmd.add_flag("--no-config", o_.no_config, "ignore .greslint.conf files");
    cmd.add_option("--prefix-map", prefix_map_,
                   "read Includes under OLD from NEW instead (OLD=NEW, repeatable): a checkout of /etc/slurm");
    if (kind_ == Kind::lint) {
      cmd.add_option("--min-severity", min_severity_, "show only findings at or above this: error|warning|note");
      cmd.add_flag("--statistics", o_.statistics, "print how many findings each rule has instead of the findings");
      cmd.add_option("--baseline", o_.baseline, "do not report the findings recorded in FILE (see --write-baseline)");
      cmd.add_option("--write-baseline", o_.write_baseline, "record every finding in FILE, a baseline to commit");
    }
    if (kind_ == Kind::nodes)
      cmd.add_option("--verdict", o_.verdicts,
                     "only nodes with these verdicts (ok, degraded, drain, slurmd-fatal, "
                     "slurmctld-fatal; comma separated)")
          ->delimiter(',');
  }

  int run(std::ostream& out, std::ostream& err) override {
    auto format = checked_format(text_.format, err);
    if (!format) return 2;
    auto level = checked_fail_level(text_.fail_level, err);
    if (!level) return 2;
    o_.format = *format;
    o_.fail_level = *level;
    o_.format_given = app_->count("--format") > 0;
    o_.fail_level_given = app_->count("--fail-level") > 0;
    auto color = checked_color(text_.color, err);
    if (!color) return 2;
    o_.color = *color;
    if (!min_severity_.empty()) {
      o_.min_severity = parse_severity(min_severity_);
      o_.min_severity_given = true;
      if (!o_.min_severity) {
        err << "greslint: --min-severity takes error, warning or note\n";
        return 2;
      }
    }
    char cwd[4096];
    const std::string here = ::getcwd(cwd, sizeof(cwd)) ? cwd : ".";
    for (const std::string& item : prefix_map_) {
      auto entry = parse_prefix_map(item, here);
      if (!entry) {
        err << fmt::format("greslint: --prefix-map takes OLD=NEW, not '{}'\n", item);
        return 2;
      }
      o_.prefix_map.push_back(std::move(*entry));
    }
    return kind_ == Kind::lint ? run_lint(o_, out, err) : run_nodes(o_, out, err);
  }

 private:
  Kind kind_;
  LintOptions o_;
  ReportOptionText text_;
  std::string min_severity_;
  std::vector<std::string> prefix_map_;
};

}  // namespace

std::unique_ptr<Command> make_lint_command() { return std::make_unique<LintCommand>(LintCommand::Kind::lint); }
std::unique_ptr<Command> make_nodes_command() { return std::make_unique<LintCommand>(LintCommand::Kind::nodes); }

}  // namespace greslint::cli
