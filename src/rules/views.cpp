// SPDX-License-Identifier: Apache-2.0
// The few facts views compute on demand (views.hpp).
#include "rules/views.hpp"

#include <algorithm>

#include "util.hpp"

namespace greslint::rules {

bool GresLoad::in_grestypes_nocase(std::string_view name) const {
  return std::any_of(grestypes.begin(), grestypes.end(), [&](const std::string& g) { return iequals(g, name); });
}

}  // namespace greslint::rules
