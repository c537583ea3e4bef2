// SPDX-License-Identifier: Apache-2.0
// Command-line wiring of `greslint lint` and `greslint nodes`: one set of options, two reports.
#include <iostream>

#include "commands/command.hpp"
#include "commands/lint_session.hpp"
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
    add_report_options(cmd, o_, text_);
    cmd.add_option("--nodes", o_.nodes, "only findings that affect these nodes (hostlist)");
    if (kind_ == Kind::lint) {
      cmd.add_option("--min-severity", min_severity_, "show only findings at or above this: error|warning|note");
      cmd.add_flag("--statistics", o_.statistics, "print how many findings each rule has instead of the findings");
      cmd.add_option("--baseline", o_.baseline, "do not report the findings recorded in FILE (see --write-baseline)");
      cmd.add_option("--write-baseline", o_.write_baseline, "record every finding in FILE, a baseline to commit");
      cmd.add_option("--limits", o_.limits,
                     "also check QOS and association limits (sacctmgr dump, sacctmgr show qos|assoc -P); "
                     "repeatable");
    }
    if (kind_ == Kind::nodes)
      cmd.add_option("--verdict", o_.verdicts,
                     "only nodes with these verdicts (ok, degraded, drain, slurmd-fatal, "
                     "slurmctld-fatal; comma separated)")
          ->delimiter(',');
  }

  int run(std::ostream& out, std::ostream& err) override {
    if (!apply_report_options(*app_, text_, o_, err)) return 2;
    if (!min_severity_.empty()) {
      o_.min_severity = parse_severity(min_severity_);
      o_.min_severity_given = true;
      if (!o_.min_severity) {
        err << "greslint: --min-severity takes error, warning or note\n";
        return 2;
      }
    }
    end_process_after_report(true);  // main returns right after
    return kind_ == Kind::lint ? run_lint(o_, out, err) : run_nodes(o_, out, err);
  }

 private:
  Kind kind_;
  LintOptions o_;
  ReportOptionText text_;
  std::string min_severity_;
};

}  // namespace

std::unique_ptr<Command> make_lint_command() { return std::make_unique<LintCommand>(LintCommand::Kind::lint); }
std::unique_ptr<Command> make_nodes_command() { return std::make_unique<LintCommand>(LintCommand::Kind::nodes); }

}  // namespace greslint::cli
