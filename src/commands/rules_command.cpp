// SPDX-License-Identifier: Apache-2.0
// `greslint rules` (the rule list) and `greslint explain ID` (a rule's documentation), each
// with where greslint checks the rule: the step of Slurm's processing, the stage list and the
// Slurm function the check follows (rules::placements(), from registry.cpp).
#include <algorithm>
#include <fmt/format.h>

#include "commands/command.hpp"
#include "commands/report_options.hpp"
#include "emit/emit_detail.hpp"
#include "commands/lint_session.hpp"
#include "greslint/registry.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::cli {
namespace {

/// The rule's places in the registry, in pipeline order (a rule Slurm checks at several
/// points of a step has one per stage list entry).
std::vector<rules::Placement> placements_of(const RuleInfo& r) {
  std::vector<rules::Placement> out;
  for (const rules::Placement& p : rules::placements())
    if (p.rule == &r) out.push_back(p);
  return out;
}

/// "registration: counts, following gres.c:_node_config_validate"; for rules outside the
/// stage lists, the step alone ("reader").
std::string placement_text(const rules::Placement& p) {
  if (p.stage.empty()) return std::string(p.step);
  return fmt::format("{} ({}), following {}", p.stage, p.step, p.follows);
}

class RulesCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("rules", "list every rule (id, name, severity, summary, where it is checked)");
    app_->add_option("--format", format_, "text|json")->capture_default_str();
  }

  int run(std::ostream& out, std::ostream& err) override {
    if (iequals(format_, "json")) return json(out);
    if (!iequals(format_, "text")) {
      err << "greslint: rules --format takes text or json\n";
      return 2;
    }
    std::size_t name_width = 0;
    for (const RuleInfo* r : all_rules()) name_width = std::max(name_width, r->name.size());
    for (const RuleInfo* r : all_rules()) {
      out << fmt::format("{}  {:<{}}  {:<7}  {}\n", r->id, r->name, name_width, to_string(r->severity), r->summary);
      for (const rules::Placement& p : placements_of(*r)) out << "        at " << placement_text(p) << "\n";
    }
    return 0;
  }

 private:
  static int json(std::ostream& out) {
    emit_detail::JsonWriter w(out);
    w.begin_array();
    for (const RuleInfo* r : all_rules()) {
      w.begin_object();
      w.key("id").string(r->id);
      w.key("name").string(r->name);
      w.key("severity").string(to_string(r->severity));
      w.key("effect").string_or_null(emit_detail::effect_name(r->effect));
      w.key("daemon").string_or_null(emit_detail::daemon_name(r->daemon));
      w.key("summary").string(r->summary);
      w.key("placement").begin_array();
      for (const rules::Placement& p : placements_of(*r)) {
        w.begin_object();
        w.key("step").string(p.step);
        w.key("stage").string_or_null(p.stage);
        w.key("follows").string_or_null(p.follows);
        w.end_object();
      }
      w.end_array();
      w.end_object();
    }
    w.end_array();
    return 0;
  }

  std::string format_ = "text";
};

class ExplainCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("explain", "print a rule's documentation");
    app_->add_option("ID", id_, "rule id or name (any case)")->required();
  }

  int run(std::ostream& out, std::ostream& err) override {
    const RuleInfo* r = find_rule_any_case(id_);
    if (!r) {
      err << "greslint: unknown rule '" << id_ << "' (see greslint rules)\n";
      return 2;
    }
    std::string_view doc = rule_doc(r->id);
    if (doc.empty()) {
      err << "greslint: no documentation for " << r->id << "\n";
      return 2;
    }
    out << doc;
    out << "\n## Where greslint checks it\n\n";
    for (const rules::Placement& p : placements_of(*r)) out << "- " << placement_text(p) << "\n";
    return 0;
  }

 private:
  std::string id_;
};

}  // namespace

std::unique_ptr<Command> make_rules_command() { return std::make_unique<RulesCommand>(); }
std::unique_ptr<Command> make_explain_command() { return std::make_unique<ExplainCommand>(); }

}  // namespace greslint::cli
