// SPDX-License-Identifier: Apache-2.0
// `greslint job SCRIPT... [--cluster DIR]`: job scripts' GPU requests against the cluster
// (src/job/; rules GRS6xx). Findings, formats and exit codes are lint's.
#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "commands/command.hpp"
#include "commands/lint_session.hpp"
#include "commands/report_options.hpp"
#include "greslint/lint.hpp"
#include "job/job_check.hpp"
#include "limits/limits_check.hpp"
#include "limits/predict.hpp"
#include <nlohmann/json.hpp>
#include "greslint/hostlist.hpp"
#include "rules/limits_rules.hpp"
#include "util.hpp"

namespace greslint::cli {
namespace {

std::optional<std::string> read_whole(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

class JobCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("job", "check job scripts' GPU requests against the cluster");
    CLI::App& cmd = *app_;
    cmd.add_option("SCRIPT", scripts_, "job scripts (their #SBATCH lines, srun lines and environment)")->required();
    cmd.add_option("--cluster", cluster_, "the cluster's configuration: a directory holding slurm.conf, or the file "
                                          "(default: as for lint)");
    cmd.add_option("--args", args_, "an sbatch command line given before each script (\"-p gpu --gres=gpu:2\")");
    cmd.add_option("--limits", limits_, "QOS and association limits (sacctmgr dump, sacctmgr show qos|assoc -P); "
                                        "repeatable");
    cmd.add_option("--running", running_, "jobs already running, for --limits: a JSON list of {\"script\", "
                                          "\"user\", \"args\", \"nodes\"} (their GPUs count against group limits)");
    cmd.add_option("--user", user_, "the submitting user, for --limits (default: the files' first user)");
    cmd.add_option("--account", account_, "the account, for --limits, when the job gives none (default: the "
                                          "user's default account)");
    cmd.add_option("--slurm-version", o_.slurm_version, "Slurm release to model (22.05 ... 26.05)");
    add_report_options(cmd, o_, text_);
  }

  int run(std::ostream& out, std::ostream& err) override {
    if (!apply_report_options(*app_, text_, o_, err)) return 2;
    if (!cluster_.empty()) o_.paths = {cluster_};
    if (!load_config_file(o_, err)) return 2;
    auto run = analyze_configuration(o_, err);
    if (!run) return 2;
    if (!run->cluster.startup_fatal.empty()) {
      err << fmt::format("greslint: slurmctld does not start with {}, so it takes no job: {}\n", run->slurm_conf,
                         run->cluster.startup_fatal);
      return 2;
    }
    const job::JobCluster cluster = job::job_cluster(run->cluster);
    FileId args;
    if (!args_.empty()) args = run->sources.add("<--args>", args_);
    limits::LimitsDb db;
    if (!limits::load_limits(run->sources, limits_, db, err)) return 2;
    const limits::Pool pool = limits::pool_of(run->cluster, cluster);
    rules::JobLimits job_limits{db, pool, user_.empty() ? db.first_user() : user_, account_};
    limits::Usage usage;
    if (!running_.empty()) {
      if (!read_running(*run, cluster, job_limits, usage, err)) return 2;
      job_limits.usage = &usage;
    }
    Reporter reporter;
    LintReport report;
    for (const std::string& path : scripts_) {
      auto text = read_whole(path);
      if (!text) {
        err << fmt::format("greslint: cannot read {}\n", path);
        return 2;
      }
      const FileId file = run->sources.add(path, std::move(*text));
      report.inputs.push_back(path);
      job::check_job(job::read_job_script(run->sources, file, args), cluster, run->version.version, reporter,
                     limits_.empty() ? nullptr : &job_limits);
    }
    auto overrides = parse_severity_overrides(o_.severity, err);
    if (!overrides) return 2;
    for (Diagnostic& d : reporter.diagnostics()) {
      if (!rule_selected(*d.rule, o_)) continue;
      for (const auto& [rule, severity] : *overrides)
        if (rule == d.rule) d.severity = severity;
      report.diagnostics.push_back(std::move(d));
    }
    report.slurm_version = run->version.version;
    report.version_source = run->version.source;
    return write(report, *run, out, err) ? exit_code_for(report.diagnostics, o_.fail_level) : 2;
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

  /// --running FILE: each running job's script read as sbatch does, counted into `usage`.
  bool read_running(Analysis& run, const job::JobCluster& cluster, const rules::JobLimits& limits,
                    limits::Usage& usage, std::ostream& err) const {
    auto text = read_whole(running_);
    if (!text) {
      err << fmt::format("greslint: cannot read {}\n", running_);
      return false;
    }
    nlohmann::json list;
    try {
      list = nlohmann::json::parse(*text);
    } catch (const std::exception& e) {
      err << fmt::format("greslint: {}: not JSON: {}\n", running_, e.what());
      return false;
    }
    if (!list.is_array()) {
      err << fmt::format("greslint: {}: a JSON list of running jobs was expected\n", running_);
      return false;
    }
    for (const nlohmann::json& j : list) {
      if (!j.is_object() || !j.contains("script") || !j["script"].is_string()) {
        err << fmt::format("greslint: {}: each running job needs a \"script\"\n", running_);
        return false;
      }
      const std::string path = j["script"].get<std::string>();
      auto script_text = read_whole(path);
      if (!script_text) {
        err << fmt::format("greslint: {}: cannot read {}\n", running_, path);
        return false;
      }
      auto str = [&](const char* key) {
        return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
      };
      const FileId file = run.sources.add(path, std::move(*script_text));
      FileId args;
      if (const std::string a = str("args"); !a.empty()) args = run.sources.add("<running args>", a);
      const job::JobScript script = job::read_job_script(run.sources, file, args);
      const job::JobRequest request = job::read_request(script, cluster, run.version.version);
      std::vector<std::uint32_t> nodes;
      if (const std::string n = str("nodes"); !n.empty()) {
        auto parsed = parse_hostlist(n, Span{}, VersionProfile(run.version.version));
        if (parsed.ok() && parsed.list->size() <= cluster.nodes.size())
          for (std::uint32_t i = 0; i < cluster.nodes.size(); ++i)
            if (parsed.list->contains(cluster.nodes[i].name)) nodes.push_back(i);
      }
      const std::string user = str("user").empty() ? limits.user : str("user");
      limits::add_running(usage, script, request, cluster, limits, user, nodes);
    }
    return true;
  }

  LintOptions o_;
  ReportOptionText text_;
  std::string running_;
  std::vector<std::string> scripts_;
  std::string cluster_;
  std::string args_;
  std::vector<std::string> limits_;
  std::string user_, account_;
};

}  // namespace

std::unique_ptr<Command> make_job_command() { return std::make_unique<JobCommand>(); }

}  // namespace greslint::cli
