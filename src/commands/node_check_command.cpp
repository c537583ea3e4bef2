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
    cmd.add_option("PATH", o_.path, "directory holding slurm.conf, or a slurm.conf file");
    auto* node = cmd.add_option("--node", o_.node, "NodeName to check (default: this host, found as slurmd does)");
    auto* sysroot = cmd.add_option("--sysroot", o_.sysroot, "read /proc, /sys and /dev under DIR (a captured tree)")
                        ->capture_default_str();
    cmd.add_flag("--suggest", o_.suggest, "print slurm.conf and gres.conf lines that match the hardware");
    cmd.add_option("--inventory", o_.inventory, "check every node captured in DIR (a folder or tarball per NodeName)")
        ->excludes(node)
        ->excludes(sysroot);
    cmd.add_option("--slurm-version", o_.slurm_version, "Slurm release to model (22.05 ... 26.05)");
    add_format_option(cmd, text_);
    cmd.add_option("-o,--output", o_.output, "write the report to FILE");
    add_fail_level_option(cmd, text_);
    add_color_option(cmd, text_);
    cmd.add_flag("-q,--quiet", o_.quiet, "print nothing when there is nothing to report");
  }

  int run(std::ostream& out, std::ostream& err) override {
    auto format = checked_format(text_.format, err);
    if (!format) return 2;
    auto level = checked_fail_level(text_.fail_level, err);
    if (!level) return 2;
    o_.format = *format;
    o_.fail_level = *level;
    auto color = checked_color(text_.color, err);
    if (!color) return 2;
    o_.color = *color;
    return run_node_check(o_, out, err);
  }

 private:
  NodeCheckOptions o_;
  ReportOptionText text_;
};

}  // namespace

std::unique_ptr<Command> make_node_check_command() { return std::make_unique<NodeCheckCommand>(); }

}  // namespace greslint::cli
