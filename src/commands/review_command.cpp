// SPDX-License-Identifier: Apache-2.0
// Command-line wiring of `greslint diff` and `greslint upgrade`.
#include "commands/command.hpp"
#include "commands/report_options.hpp"
#include "greslint/review.hpp"

namespace greslint::cli {
namespace {

/// Options diff and upgrade share with lint: release, rules, severities, fail level.
void add_review_options(CLI::App& cmd, LintOptions& o, std::string& format, ReportOptionText& text,
                        const char* version_help) {
  cmd.add_option("--slurm-version", o.slurm_version, version_help);
  cmd.add_option("--format", format, "text|json|markdown")->capture_default_str();
  cmd.add_option("-o,--output", o.output, "write the report to FILE");
  add_fail_level_option(cmd, text);
  cmd.add_option("--select", o.select, "only these rules (ids or names, comma separated)")->delimiter(',');
  cmd.add_option("--ignore", o.ignore, "skip these rules (ids or names, comma separated)")->delimiter(',');
  cmd.add_option("--severity", o.severity, "override a rule's severity: ID=error|warning|note")->delimiter(',');
  cmd.add_option("--config", o.config, "read this .greslint.conf instead of searching upward");
  cmd.add_flag("--no-config", o.no_config, "ignore .greslint.conf files");
}

bool take_fail_level(const CLI::App& cmd, const ReportOptionText& text, LintOptions& o, std::ostream& err) {
  auto level = checked_fail_level(text.fail_level, err);
  if (!level) return false;
  o.fail_level = *level;
  o.fail_level_given = cmd.count("--fail-level") > 0;
  return true;
}

class DiffCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("diff", "what a change does to node verdicts, usable GPUs and findings");
    app_->add_option("PATH", o_.paths, "OLD NEW (directories or slurm.conf files); with --git, the work tree's PATH");
    app_->add_option("--git", o_.git_rev, "compare PATH as it is at git revision REV with the work tree");
    add_review_options(*app_, o_.lint, o_.format, text_, "Slurm release to model (22.05 ... 26.05)");
  }
  int run(std::ostream& out, std::ostream& err) override {
    if (!take_fail_level(*app_, text_, o_.lint, err)) return 2;
    return run_diff(o_, out, err);
  }

 private:
  DiffOptions o_;
  ReportOptionText text_;
};

class UpgradeCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("upgrade", "what the same files do under another Slurm release, step by step");
    app_->add_option("PATH", o_.path, "directory holding slurm.conf, or a slurm.conf file");
    app_->add_option("--to", o_.to, "the release to upgrade to (X.Y)")->required();
    add_review_options(*app_, o_.lint, o_.format, text_,
                       "release upgraded from (default: SlurmVersion= of .greslint.conf, else scontrol --version)");
  }
  int run(std::ostream& out, std::ostream& err) override {
    if (!take_fail_level(*app_, text_, o_.lint, err)) return 2;
    return run_upgrade(o_, out, err);
  }

 private:
  UpgradeOptions o_;
  ReportOptionText text_;
};

}  // namespace

std::unique_ptr<Command> make_diff_command() { return std::make_unique<DiffCommand>(); }
std::unique_ptr<Command> make_upgrade_command() { return std::make_unique<UpgradeCommand>(); }

}  // namespace greslint::cli
