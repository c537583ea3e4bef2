// SPDX-License-Identifier: Apache-2.0
// `greslint rules` (the rule list) and `greslint explain ID` (a rule's documentation).
#include "commands/command.hpp"
#include "greslint/registry.hpp"

namespace greslint::cli {
namespace {

class RulesCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("rules", "list every rule (id, name, severity, summary)");
  }

  int run(std::ostream& out, std::ostream&) override {
    for (const RuleInfo* r : all_rules())
      out << r->id << "  " << r->name << "  " << to_string(r->severity) << "  " << r->summary << "\n";
    return 0;
  }
};

class ExplainCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("explain", "print a rule's documentation");
    app_->add_option("ID", id_, "rule id or name")->required();
  }

  int run(std::ostream& out, std::ostream& err) override {
    const RuleInfo* r = find_rule(id_);
    if (!r) {
      err << "greslint: unknown rule '" << id_ << "'\n";
      return 2;
    }
    std::string_view doc = rule_doc(r->id);
    if (doc.empty()) {
      err << "greslint: no documentation for " << r->id << "\n";
      return 2;
    }
    out << doc;
    return 0;
  }

 private:
  std::string id_;
};

}  // namespace

std::unique_ptr<Command> make_rules_command() { return std::make_unique<RulesCommand>(); }
std::unique_ptr<Command> make_explain_command() { return std::make_unique<ExplainCommand>(); }

}  // namespace greslint::cli
