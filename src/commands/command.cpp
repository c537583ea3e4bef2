// SPDX-License-Identifier: Apache-2.0
#include "commands/command.hpp"

namespace greslint::cli {

std::unique_ptr<Command> make_lint_command();
std::unique_ptr<Command> make_nodes_command();
std::unique_ptr<Command> make_hostlist_command();
std::unique_ptr<Command> make_node_check_command();
std::unique_ptr<Command> make_rules_command();
std::unique_ptr<Command> make_explain_command();
std::unique_ptr<Command> make_diff_command();
std::unique_ptr<Command> make_upgrade_command();
std::unique_ptr<Command> make_why_command();
std::unique_ptr<Command> make_job_command();
std::unique_ptr<Command> make_limits_command();

std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_lint_command());
  commands.push_back(make_nodes_command());
  commands.push_back(make_hostlist_command());
  commands.push_back(make_node_check_command());
  commands.push_back(make_rules_command());
  commands.push_back(make_explain_command());
  commands.push_back(make_diff_command());
  commands.push_back(make_upgrade_command());
  commands.push_back(make_why_command());
  commands.push_back(make_job_command());
  commands.push_back(make_limits_command());
  return commands;
}

}  // namespace greslint::cli
