// SPDX-License-Identifier: Apache-2.0
// Dispatch only: parse the command line with CLI11 and run the chosen command
// (src/commands/).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "commands/command.hpp"
#include "huge_pages.hpp"

namespace {

/// `greslint help [COMMAND]` means `greslint [COMMAND] --help`.
void rewrite_help(std::vector<std::string>& args) {
  if (args.size() < 2 || args[1] != "help") return;
  args.erase(args.begin() + 1);
  args.insert(args.size() > 1 ? args.begin() + 2 : args.end(), "--help");
}

/// `greslint PATH` means `greslint lint PATH`. Returns where the command's name is, after
/// any -v flags given before it.
std::size_t insert_default_command(std::vector<std::string>& args,
                                   const std::vector<std::unique_ptr<greslint::cli::Command>>& commands) {
  std::size_t at = 1;
  while (at < args.size() && (args[at] == "--verbose" || (args[at].size() >= 2 && args[at][0] == '-' &&
                                                          args[at].find_first_not_of('v', 1) == std::string::npos)))
    ++at;
  if (at < args.size()) {
    const std::string& first = args[at];
    if (first == "--help" || first == "-h" || first == "--version") return at;
    if (std::any_of(commands.begin(), commands.end(), [&](const auto& c) { return c->name() == first; })) return at;
  }
  args.insert(args.begin() + std::ptrdiff_t(at), "lint");
  return at;
}

void set_up_logging(int verbose) {
  auto logger = spdlog::stderr_color_mt("greslint");
  logger->set_level(verbose >= 2 ? spdlog::level::trace : verbose == 1 ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

int run(int argc, char** argv) {
  CLI::App app{"greslint: find the Slurm GPU/GRES mistakes that make slurmd exit or nodes drain"};
  app.set_version_flag("--version", std::string("greslint ") + GRESLINT_VERSION);
  app.require_subcommand(1);
  int verbose = 0;
  app.add_flag("-v,--verbose", verbose, "trace greslint itself on stderr (-vv: more)");
  // -v may follow the command too (`greslint lint -v`); subcommands inherit this.
  app.fallthrough();
  auto commands = greslint::cli::all_commands();
  for (auto& command : commands) command->add_to(app);

  std::vector<std::string> args(argv, argv + argc);
  rewrite_help(args);
  const std::size_t at = insert_default_command(args, commands);
  for (auto& command : commands)
    if (command->name() == args[at]) command->prepare(args);
  try {
    std::vector<const char*> cargs;
    for (const std::string& a : args) cargs.push_back(a.c_str());
    app.parse(int(cargs.size()), cargs.data());
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  set_up_logging(verbose);
  for (auto& command : commands)
    if (command->chosen()) return command->run(std::cout, std::cerr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  greslint::advise_huge_heap();
  try {
    return run(argc, argv);
  } catch (const std::exception& ex) {
    std::cerr << "greslint: internal error: " << ex.what() << "\n";
  } catch (...) {
    std::cerr << "greslint: internal error\n";
  }
  return 2;
}
