// SPDX-License-Identifier: Apache-2.0
// A stand-alone `node-check` for the hardware tests, wired exactly as src/main.cpp wires the
// subcommand (same CLI11 options), so the suite runs whether or not the main binary has it.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "greslint/hardware.hpp"

int main(int argc, char** argv) {
  CLI::App app{"greslint node-check (test driver)"};
  app.require_subcommand(1);

  // --- begin: the lines src/main.cpp uses ---------------------------------------------
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
  // --- end ------------------------------------------------------------------------------

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int rc = app.exit(error);
    return rc == 0 ? 0 : 2;
  }

  // --- begin: the dispatch src/main.cpp uses ---------------------------------------------
  if (*node_check) {
    auto format = greslint::parse_format(nc_format);
    if (!format) {
      std::cerr << "greslint: unknown format '" << nc_format << "'\n";
      return 2;
    }
    nc.format = *format;
    if (nc_fail_level == "error") nc.fail_level = greslint::FailLevel::error;
    else if (nc_fail_level == "warning") nc.fail_level = greslint::FailLevel::warning;
    else if (nc_fail_level == "note") nc.fail_level = greslint::FailLevel::note;
    else if (nc_fail_level == "never") nc.fail_level = greslint::FailLevel::never;
    else {
      std::cerr << "greslint: --fail-level takes error, warning, note or never\n";
      return 2;
    }
    nc.color = nc_color == "always" || (nc_color == "auto" && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
    try {
      return greslint::run_node_check(nc, std::cout, std::cerr);
    } catch (const std::exception& ex) {
      std::cerr << "greslint: internal error: " << ex.what() << "\n";
      return 2;
    }
  }
  // --- end ------------------------------------------------------------------------------
  return 2;
}
