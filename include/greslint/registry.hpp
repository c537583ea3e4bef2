// SPDX-License-Identifier: Apache-2.0
// The rule registry: every rule greslint knows, sorted by id, and its embedded docs.
#pragma once

#include <string_view>
#include <vector>

#include "greslint/diagnostic.hpp"

namespace greslint {

/// Every rule, sorted by id.
const std::vector<const RuleInfo*>& all_rules();
/// Lookup by id ("GRS301") or name ("count-lower-than-configured"); nullptr if unknown.
const RuleInfo* find_rule(std::string_view id_or_name);
/// Whether node-check reports the rule (GRS5xx: the configuration against the hardware).
bool is_hardware_rule(const RuleInfo& rule);
/// The Markdown page docs/rules/<id>.md compiled into the binary; empty if none.
std::string_view rule_doc(std::string_view id);

}  // namespace greslint
