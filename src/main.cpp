// SPDX-License-Identifier: Apache-2.0
// Dispatch only: parse the command line with CLI11 and run the chosen command
// (src/commands/).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "commands/command.hpp"

namespace {

/// `greslint PATH` means `greslint lint PATH`.
void insert_default_command(std::vector<std::string>& args,
                            const std::vector<std::unique_ptr<greslint::cli::Command>>& commands) {
  if (args.size() > 1) {
    const std::string& first = args[1];
    if (first == "--help" || first == "-h" || first == "--version") return;
    if (std::any_of(commands.begin(), commands.end(), [&](const auto& c) { return c->name() == first; })) return;
  }
  args.insert(args.begin() + 1, "lint");
}

void set_up_logging(int verbose) {
  auto logger = spdlog::stderr_color_mt("greslint");
  logger->set_level(verbose >= 2 ? spdlog::level::trace : verbose == 1 ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"greslint: find the Slurm GPU/GRES mistakes that make slurmd exit or nodes drain"};
  app.set_version_flag("--version", std::string("greslint ") + GRESLINT_VERSION);
  app.require_subcommand(1);
  int verbose = 0;
  app.add_flag("-v,--verbose", verbose, "trace greslint itself on stderr");
  auto commands = greslint::cli::all_commands();
  for (auto& command : commands) command->add_to(app);

  std::vector<std::string> args(argv, argv + argc);
  insert_default_command(args, commands);
  for (auto& command : commands)
    if (command->name() == args[1]) command->prepare(args);
  try {
    std::vector<const char*> cargs;
    for (const std::string& a : args) cargs.push_back(a.c_str());
    app.parse(int(cargs.size()), cargs.data());
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  set_up_logging(verbose);

  try {
    for (auto& command : commands)
      if (command->chosen()) return command->run(std::cout, std::cerr);
  } catch (const std::exception& ex) {
    std::cerr << "greslint: internal error: " << ex.what() << "\n";
  }
  return 2;
}
