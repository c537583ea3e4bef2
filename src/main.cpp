// SPDX-License-Identifier: Apache-2.0
// Command-line wiring only: parse options with CLI11, then hand over to the commands.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "greslint/commands.hpp"
#include "greslint/hardware.hpp"
#include "greslint/lint.hpp"
#include "greslint/registry.hpp"
#include "greslint/review.hpp"

namespace {

void add_common(CLI::App& cmd, greslint::LintOptions& o, std::string& format, std::string& fail_level,
                std::string& color) {
  cmd.add_option("PATH", o.paths, "directory holding slurm.conf, or a slurm.conf file")->expected(0, 1);
  cmd.add_option("--slurm-version", o.slurm_version, "Slurm release to model (22.05 ... 26.05)");
  cmd.add_option("--format", format, "text|json|sarif|github|junit|gitlab")->capture_default_str();
  cmd.add_option("-o,--output", o.output, "write the report to FILE");
  cmd.add_option("--fail-level", fail_level, "error|warning|note|never")->capture_default_str();
  cmd.add_option("--select", o.select, "only these rules (ids or names, comma separated)")->delimiter(',');
  cmd.add_option("--ignore", o.ignore, "skip these rules (ids or names, comma separated)")->delimiter(',');
  cmd.add_option("--nodes", o.nodes, "only findings that affect these nodes (hostlist)");
  cmd.add_option("--color", color, "auto|always|never")->capture_default_str();
  cmd.add_flag("-q,--quiet", o.quiet, "print nothing when there is nothing to report");
  cmd.add_option("--severity", o.severity, "override a rule's severity: ID=error|warning|note")->delimiter(',');
  cmd.add_option("--config", o.config, "read this .greslint.conf instead of searching upward");
  cmd.add_flag("--no-config", o.no_config, "ignore .greslint.conf files");
}

/// --color: "always", or "auto" on a terminal unless NO_COLOR is set.
bool wants_color(const std::string& when) {
  return when == "always" || (when == "auto" && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
}

int bad_fail_level() {
  std::cerr << "greslint: --fail-level takes error, warning, note or never\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // `greslint PATH` means `greslint lint PATH`.
  std::vector<std::string> args(argv, argv + argc);
  static const char* const kCommands[] = {"lint", "nodes", "node-check", "hostlist", "rules", "explain", "diff", "upgrade"};
  if (args.size() == 1 || (std::find_if(std::begin(kCommands), std::end(kCommands),
                                        [&](const char* c) { return args[1] == c; }) == std::end(kCommands) &&
                           args[1] != "--help" && args[1] != "-h" && args[1] != "--version"))
    args.insert(args.begin() + 1, "lint");

  CLI::App app{"greslint: find the Slurm GPU/GRES mistakes that make slurmd exit or nodes drain"};
  app.set_version_flag("--version", std::string("greslint ") + GRESLINT_VERSION);
  app.require_subcommand(1);
  int verbose = 0;
  app.add_flag("-v,--verbose", verbose, "trace greslint itself on stderr");

  greslint::LintOptions lint_options;
  std::string format = "text", fail_level = "warning", color = "auto";
  CLI::App* lint = app.add_subcommand("lint", "lint slurm.conf + gres.conf (the default command)");
  add_common(*lint, lint_options, format, fail_level, color);
  lint->add_option("--baseline", lint_options.baseline, "do not report the findings recorded in FILE");
  lint->add_option("--write-baseline", lint_options.write_baseline, "record every finding in FILE (a baseline)");
  CLI::App* nodes = app.add_subcommand("nodes", "per-node effective GRES and Slurm's verdict");
  add_common(*nodes, lint_options, format, fail_level, color);

  char mode = 'e';
  bool expand = false, fold = false, count = false;
  std::string hl_version;
  std::vector<std::string> exprs;
  CLI::App* hostlist = app.add_subcommand("hostlist", "expand, fold or count hostlists with Slurm's grammar");
  auto* e = hostlist->add_flag("-e,--expand", expand, "one host per line (default)");
  auto* f = hostlist->add_flag("-f,--fold", fold, "fold into ranged form");
  auto* c = hostlist->add_flag("-c,--count", count, "print the number of hosts");
  e->excludes(f)->excludes(c);
  f->excludes(c);
  hostlist->add_option("--slurm-version", hl_version, "Slurm release grammar to use");
  hostlist->add_option("EXPR", exprs, "hostlist expressions")->required();

  greslint::NodeCheckOptions nc;
  std::string nc_format = "text", nc_fail_level = "warning", nc_color = "auto";
  CLI::App* node_check = app.add_subcommand("node-check", "compare a node's configuration with its hardware");
  node_check->add_option("PATH", nc.path, "directory holding slurm.conf, or a slurm.conf file");
  auto* nc_node = node_check->add_option("--node", nc.node, "NodeName to check (default: this host, found as slurmd does)");
  auto* nc_sysroot = node_check->add_option("--sysroot", nc.sysroot, "read /proc, /sys and /dev under DIR (a captured tree)")
                         ->capture_default_str();
  node_check->add_flag("--suggest", nc.suggest, "print slurm.conf and gres.conf lines that match the hardware");
  node_check->add_option("--inventory", nc.inventory, "check every node captured in DIR (a folder or tarball per NodeName)")
      ->excludes(nc_node)
      ->excludes(nc_sysroot);
  node_check->add_option("--slurm-version", nc.slurm_version, "Slurm release to model (22.05 ... 26.05)");
  node_check->add_option("--format", nc_format, "text|json|sarif|github|junit|gitlab")->capture_default_str();
  node_check->add_option("-o,--output", nc.output, "write the report to FILE");
  node_check->add_option("--fail-level", nc_fail_level, "error|warning|note|never")->capture_default_str();
  node_check->add_option("--color", nc_color, "auto|always|never")->capture_default_str();
  node_check->add_flag("-q,--quiet", nc.quiet, "print nothing when there is nothing to report");

  // diff and upgrade: what a change does to every node, GPU and finding.
  greslint::DiffOptions diff_options;
  std::string diff_fail_level = "warning";
  CLI::App* diff = app.add_subcommand("diff", "what a change does: node verdicts, usable GPUs, findings (OLD NEW, or --git REV [PATH])");
  diff->add_option("PATH", diff_options.paths, "OLD NEW (directories or slurm.conf files); with --git, the work tree PATH");
  diff->add_option("--git", diff_options.git_rev, "compare PATH as it is at git revision REV with the work tree");
  greslint::UpgradeOptions upgrade_options;
  std::string upgrade_fail_level = "warning";
  CLI::App* upgrade = app.add_subcommand("upgrade", "what the same files do under a later (or earlier) Slurm release");
  upgrade->add_option("PATH", upgrade_options.path, "directory holding slurm.conf, or a slurm.conf file");
  upgrade->add_option("--to", upgrade_options.to, "release to upgrade to (X.Y)")->required();
  for (auto [cmd, o, fmt, level] : {std::make_tuple(diff, &diff_options.lint, &diff_options.format, &diff_fail_level),
                                    std::make_tuple(upgrade, &upgrade_options.lint, &upgrade_options.format,
                                                    &upgrade_fail_level)}) {
    const char* from = cmd == upgrade ? "Slurm release to upgrade from (default: pinned, else installed)"
                                      : "Slurm release to model (22.05 ... 26.05)";
    cmd->add_option("--slurm-version", o->slurm_version, from);
    cmd->add_option("--format", *fmt, "text|json|markdown")->capture_default_str();
    cmd->add_option("-o,--output", o->output, "write the report to FILE");
    cmd->add_option("--fail-level", *level, "error|warning|note|never")->capture_default_str();
    cmd->add_option("--select", o->select, "only these rules (ids or names, comma separated)")->delimiter(',');
    cmd->add_option("--ignore", o->ignore, "skip these rules (ids or names, comma separated)")->delimiter(',');
    cmd->add_option("--severity", o->severity, "override a rule's severity: ID=error|warning|note")->delimiter(',');
    cmd->add_option("--config", o->config, "read this .greslint.conf instead of searching upward");
    cmd->add_flag("--no-config", o->no_config, "ignore .greslint.conf files");
  }

  app.add_subcommand("rules", "list every rule (id, name, severity, summary)");
  std::string explain_id;
  CLI::App* explain = app.add_subcommand("explain", "print a rule's documentation");
  explain->add_option("ID", explain_id, "rule id or name")->required();

  try {
    // CLI11 2.1 reads an argument shaped "[a,b]" as a list and splits it at commas; hostlist
    // expressions such as "[1-3]" have that shape, so they pass the parser behind a guard byte.
    constexpr char kGuard = '\x1f';
    if (args.size() > 1 && args[1] == "hostlist")
      for (std::size_t i = 2; i < args.size(); ++i)
        if (args[i].size() >= 2 && args[i].front() == '[' && args[i].back() == ']') args[i].insert(0, 1, kGuard);
    std::vector<const char*> cargs;
    for (const std::string& a : args) cargs.push_back(a.c_str());
    app.parse(int(cargs.size()), cargs.data());
    for (std::string& x : exprs)
      if (x.size() >= 3 && x[0] == kGuard && x[1] == '[' && x.back() == ']') x.erase(0, 1);
  } catch (const CLI::ParseError& error) {
    int rc = app.exit(error);
    return rc == 0 ? 0 : 2;
  }
  auto logger = spdlog::stderr_color_mt("greslint");
  logger->set_level(verbose >= 2 ? spdlog::level::trace : verbose == 1 ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);

  try {
    if (*lint || *nodes) {
      auto fmt = greslint::parse_format(format);
      if (!fmt) {
        std::cerr << "greslint: unknown format '" << format << "'\n";
        return 2;
      }
      lint_options.format = *fmt;
      CLI::App* cmd = *lint ? lint : nodes;
      lint_options.format_given = cmd->count("--format") > 0;
      lint_options.fail_level_given = cmd->count("--fail-level") > 0;
      auto level = greslint::parse_fail_level(fail_level);
      if (!level) return bad_fail_level();
      lint_options.fail_level = *level;
      lint_options.color = wants_color(color);
      return *lint ? greslint::run_lint(lint_options, std::cout, std::cerr)
                   : greslint::run_nodes(lint_options, std::cout, std::cerr);
    }
    if (*diff || *upgrade) {
      greslint::LintOptions& o = *diff ? diff_options.lint : upgrade_options.lint;
      auto level = greslint::parse_fail_level(*diff ? diff_fail_level : upgrade_fail_level);
      if (!level) return bad_fail_level();
      o.fail_level = *level;
      o.fail_level_given = (*diff ? diff : upgrade)->count("--fail-level") > 0;
      return *diff ? greslint::run_diff(diff_options, std::cout, std::cerr)
                   : greslint::run_upgrade(upgrade_options, std::cout, std::cerr);
    }
    if (*node_check) {
      auto format = greslint::parse_format(nc_format);
      if (!format) {
        std::cerr << "greslint: unknown format '" << nc_format << "'\n";
        return 2;
      }
      nc.format = *format;
      auto level = greslint::parse_fail_level(nc_fail_level);
      if (!level) return bad_fail_level();
      nc.fail_level = *level;
      nc.color = wants_color(nc_color);
      return greslint::run_node_check(nc, std::cout, std::cerr);
    }
    if (*hostlist) {
      mode = fold ? 'f' : count ? 'c' : 'e';
      auto v = hl_version.empty() ? std::optional<greslint::SlurmVersion>(greslint::known_versions().back())
                                  : greslint::parse_slurm_version(hl_version);
      if (!v) {
        std::cerr << "greslint: unknown Slurm version '" << hl_version << "'\n";
        return 2;
      }
      return greslint::run_hostlist_command(mode, greslint::VersionProfile(*v), exprs, std::cout, std::cerr);
    }
    if (app.got_subcommand("rules")) {
      for (const greslint::RuleInfo* r : greslint::all_rules())
        std::cout << r->id << "  " << r->name << "  " << greslint::to_string(r->severity) << "  " << r->summary << "\n";
      return 0;
    }
    if (*explain) {
      const greslint::RuleInfo* r = greslint::find_rule(explain_id);
      if (!r) {
        std::cerr << "greslint: unknown rule '" << explain_id << "'\n";
        return 2;
      }
      std::string_view doc = greslint::rule_doc(r->id);
      if (doc.empty()) {
        std::cerr << "greslint: no documentation for " << r->id << "\n";
        return 2;
      }
      std::cout << doc;
      return 0;
    }
  } catch (const std::exception& ex) {
    std::cerr << "greslint: internal error: " << ex.what() << "\n";
    return 2;
  }
  return 2;
}
