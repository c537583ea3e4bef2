// SPDX-License-Identifier: Apache-2.0
// Command-line wiring of `greslint node-check` (the check itself: src/hardware/).
#include "commands/command.hpp"
#include "commands/report_options.hpp"
#include "greslint/hardware.hpp"

namespace greslint::cli {
namespace {

class NodeCheckCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("node-check", "compare a node's configuration with its hardware");
    CLI::App& cmd = *app_;
    cmd.add_option("PATH", o_.report.paths, "directory holding slurm.conf, or a slurm.conf file")->expected(0, 1);
    auto* node = cmd.add_option("--node", o_.node, "NodeName to check (default: this host, found as slurmd does)");
    auto* sysroot = cmd.add_option("--sysroot", o_.sysroot, "read /proc, /sys and /dev under DIR (a captured tree)")
                        ->capture_default_str();
    cmd.add_flag("--suggest", o_.suggest, "print slurm.conf and gres.conf lines that match the hardware");
    cmd.add_option("--inventory", o_.inventory, "check every node captured in DIR (a folder or tarball per NodeName)")
        ->excludes(node)
        ->excludes(sysroot);
    cmd.add_option("--slurm-version", o_.report.slurm_version, "Slurm release to model (22.05 ... 26.05)");
    add_report_options(cmd, o_.report, text_);
  }

  int run(std::ostream& out, std::ostream& err) override {
    if (!apply_report_options(*app_, text_, o_.report, err)) return 2;
    return run_node_check(o_, out, err);
  }

 private:
  NodeCheckOptions o_;
  ReportOptionText text_;
};

}  // namespace

std::unique_ptr<Command> make_node_check_command() { return std::make_unique<NodeCheckCommand>(); }

}  // namespace greslint::cli
