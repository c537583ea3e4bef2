// SPDX-License-Identifier: Apache-2.0
// The one list of rules, sorted by id (a unit test checks the order and the docs pages).
#include "greslint/registry.hpp"

#include <algorithm>
#include <utility>

#include "rules.hpp"

namespace greslint {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_rule_docs();

const std::vector<const RuleInfo*>& all_rules() {
  static const std::vector<const RuleInfo*> rules{
      &rules::GRS001,
      &rules::GRS002,
      &rules::GRS003,
      &rules::GRS004,
      &rules::GRS005,
      &rules::GRS006,
      &rules::GRS007,
      &rules::GRS008,
      &rules::GRS009,
      &rules::GRS010,
      &rules::GRS101,
      &rules::GRS102,
      &rules::GRS103,
      &rules::GRS104,
      &rules::GRS105,
      &rules::GRS106,
      &rules::GRS107,
      &rules::GRS108,
      &rules::GRS110,
      &rules::GRS111,
      &rules::GRS112,
      &rules::GRS113,
      &rules::GRS114,
      &rules::GRS115,
      &rules::GRS116,
      &rules::GRS201,
      &rules::GRS202,
      &rules::GRS203,
      &rules::GRS204,
      &rules::GRS205,
      &rules::GRS206,
      &rules::GRS207,
      &rules::GRS208,
      &rules::GRS209,
      &rules::GRS210,
      &rules::GRS211,
      &rules::GRS212,
      &rules::GRS214,
      &rules::GRS215,
      &rules::GRS216,
      &rules::GRS217,
      &rules::GRS218,
      &rules::GRS219,
      &rules::GRS220,
      &rules::GRS221,
      &rules::GRS222,
      &rules::GRS223,
      &rules::GRS301,
      &rules::GRS302,
      &rules::GRS303,
      &rules::GRS304,
      &rules::GRS305,
      &rules::GRS306,
      &rules::GRS310,
      &rules::GRS311,
      &rules::GRS312,
      &rules::GRS313,
      &rules::GRS314,
      &rules::GRS315,
      &rules::GRS401,
      &rules::GRS402,
      &rules::GRS403,
      &rules::GRS404,
      &rules::GRS405,
      &rules::GRS406,
      &rules::GRS407,
      &rules::GRS408,
      &rules::GRS410,
      &rules::GRS501,
      &rules::GRS502,
      &rules::GRS503,
      &rules::GRS504,
      &rules::GRS505,
      &rules::GRS506,
      &rules::GRS507,
      &rules::GRS508,
  };
  return rules;
}

const RuleInfo* find_rule(std::string_view id_or_name) {
  for (const RuleInfo* r : all_rules())
    if (r->id == id_or_name || r->name == id_or_name) return r;
  return nullptr;
}

std::string_view rule_doc(std::string_view id) {
  for (const auto& [doc_id, text] : embedded_rule_docs())
    if (doc_id == id) return text;
  return {};
}

}  // namespace greslint
