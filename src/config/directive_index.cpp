// SPDX-License-Identifier: Apache-2.0
// DirectiveIndex: a file's settings and records by key, in one pass.
#include <algorithm>

#include "greslint/config.hpp"
#include "util.hpp"

namespace greslint {

DirectiveIndex::DirectiveIndex(const DirectiveList& directives) {
  for (const Directive& d : directives) {
    if (d.kind == Directive::Kind::setting) {
      settings_.push_back(&d);
      continue;
    }
    const std::string_view key = d.head().spec->name;
    // The line before usually has the same key (files list their nodes, then partitions).
    if (records_.empty() || !iequals(records_.back().first, key)) {
      auto it = std::find_if(records_.begin(), records_.end(), [&](const auto& r) { return iequals(r.first, key); });
      if (it == records_.end()) {
        records_.emplace_back(key, std::vector<const Directive*>{});
      } else {
        // Keep the one being filled last, so that the check above finds it next time.
        std::rotate(it, it + 1, records_.end());
      }
    }
    records_.back().second.push_back(&d);
  }
}

const std::vector<const Directive*>& DirectiveIndex::records(std::string_view key) const {
  static const std::vector<const Directive*> kNone;
  for (const auto& [name, lines] : records_)
    if (iequals(name, key)) return lines;
  return kNone;
}

}  // namespace greslint
