// SPDX-License-Identifier: Apache-2.0
// A subcommand as main.cpp sees it: it adds its options to the parser, then runs.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace greslint::cli {

class Command {
 public:
  virtual ~Command() = default;
  /// Adds the subcommand and its options to `app`; keeps the subcommand for chosen().
  virtual void add_to(CLI::App& app) = 0;
  /// Rewrites the arguments after the subcommand's name before they are parsed (hostlist
  /// expressions that CLI11 would split).
  virtual void prepare(std::vector<std::string>& /*args*/) const {}
  /// Runs the parsed command; returns the exit code.
  virtual int run(std::ostream& out, std::ostream& err) = 0;

  bool chosen() const { return app_ != nullptr && app_->parsed(); }
  const std::string& name() const { return app_->get_name(); }

 protected:
  CLI::App* app_ = nullptr;
};

/// Every subcommand, in the order `greslint --help` lists them.
std::vector<std::unique_ptr<Command>> all_commands();

}  // namespace greslint::cli
