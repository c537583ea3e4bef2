// SPDX-License-Identifier: Apache-2.0
// `greslint limits [--cluster DIR] FILE...`: QOS and association GPU limits (sacctmgr dump,
// sacctmgr show qos|assoc -P) against the cluster's configuration (src/limits/; rules
// GRS42x; docs/limits.md). Findings, formats and exit codes are lint's.
#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

#include "commands/command.hpp"
#include "commands/lint_session.hpp"
#include "commands/report_options.hpp"
#include "greslint/lint.hpp"
#include "job/job_model.hpp"
#include "limits/limits_check.hpp"
#include "util.hpp"

namespace greslint::cli {
namespace {

class LimitsCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("limits", "check QOS and association GPU limits against the cluster");
    CLI::App& cmd = *app_;
    cmd.add_option("FILE", files_, "sacctmgr dump files and sacctmgr show qos|assoc -P output")->required();
    cmd.add_option("--cluster", cluster_, "the cluster's configuration: a directory holding slurm.conf, or the file "
                                          "(default: as for lint)");
    cmd.add_option("--slurm-version", o_.slurm_version, "Slurm release to model (22.05 ... 26.05)");
    add_report_options(cmd, o_, text_);
  }

  int run(std::ostream& out, std::ostream& err) override {
    if (!apply_report_options(*app_, text_, o_, err)) return 2;
    if (!cluster_.empty()) o_.paths = {cluster_};
    if (!load_config_file(o_, err)) return 2;
    auto run = analyze_configuration(o_, err);
    if (!run) return 2;
    limits::LimitsDb db;
    if (!limits::load_limits(run->sources, files_, db, err)) return 2;
    const job::JobCluster jobs = job::job_cluster(run->cluster);
    const limits::Pool pool = limits::pool_of(run->cluster, jobs);
    Reporter reporter;
    limits::check_limits(run->cluster, pool, run->version.version, db, reporter);
    auto overrides = parse_severity_overrides(o_.severity, err);
    if (!overrides) return 2;
    LintReport report;
    report.inputs = files_;
    for (Diagnostic& d : reporter.diagnostics()) {
      if (!rule_selected(*d.rule, o_)) continue;
      for (const auto& [rule, severity] : *overrides)
        if (rule == d.rule) d.severity = severity;
      report.diagnostics.push_back(std::move(d));
    }
    std::stable_sort(report.diagnostics.begin(), report.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
      return std::make_pair(a.span.file.index, a.span.begin) < std::make_pair(b.span.file.index, b.span.begin);
    });
    report.slurm_version = run->version.version;
    report.version_source = run->version.source;
    if (!write(report, *run, out, err)) return 2;
    return exit_code_for(report.diagnostics, o_.fail_level);
  }

 private:
  bool write(const LintReport& report, const Analysis& run, std::ostream& out, std::ostream& err) const {
    EmitOptions eo;
    eo.color = o_.color && o_.output.empty();
    char cwd[4096];
    eo.base_dir = ::getcwd(cwd, sizeof(cwd)) ? cwd : dirname_of(run.slurm_conf);
    if (o_.output.empty()) {
      if (!(o_.quiet && report.diagnostics.empty())) emit_report(o_.format, report, run.sources, eo, out);
      return true;
    }
    std::ofstream file(o_.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o_.output);
      return false;
    }
    emit_report(o_.format, report, run.sources, eo, file);
    return true;
  }

  LintOptions o_;
  ReportOptionText text_;
  std::vector<std::string> files_;
  std::string cluster_;
};

}  // namespace

std::unique_ptr<Command> make_limits_command() { return std::make_unique<LimitsCommand>(); }

}  // namespace greslint::cli
