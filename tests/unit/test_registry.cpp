// SPDX-License-Identifier: Apache-2.0
// The registry: every rule once, sorted, and each checked in exactly one step of Slurm's
// processing (registry.cpp's static_assert checks the order of the ids as written).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "greslint/registry.hpp"
#include "rules/stages.hpp"

using namespace greslint;

TEST_CASE("registry: each row's id is its rule's id", "[registry]") {
  for (const auto& [id, rule] : rules::registry_rows()) CHECK(id == rule->id);
}

TEST_CASE("registry: rules are sorted by id, each once", "[registry]") {
  const auto& all = all_rules();
  for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1]->id < all[i]->id);
}

TEST_CASE("registry: every rule is checked in exactly one step", "[registry]") {
  std::map<const RuleInfo*, std::set<std::string>> steps;
  for (const rules::Placement& p : rules::placements()) {
    steps[p.rule].insert(std::string(p.step));
    if (!p.stage.empty()) CHECK(p.follows.find(".c:") != std::string_view::npos);  // "file.c:function"
  }
  for (const RuleInfo* r : all_rules()) {
    INFO(r->id);
    CHECK(steps[r].size() == 1);
  }
  CHECK(steps.size() == all_rules().size());  // and nothing unregistered
}

TEST_CASE("registry: a stage list names each check once", "[registry]") {
  std::set<std::pair<std::string, const RuleInfo*>> seen;
  for (const rules::Placement& p : rules::placements()) {
    if (p.stage.empty()) continue;
    INFO(p.stage << " " << p.rule->id);
    CHECK(seen.emplace(std::string(p.stage), p.rule).second);
  }
}
