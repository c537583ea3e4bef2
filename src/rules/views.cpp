// SPDX-License-Identifier: Apache-2.0
// The few facts views compute on demand (views.hpp).
#include "rules/views.hpp"

#include <algorithm>
#include <utility>

#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::rules {

bool GresLoad::in_grestypes_nocase(std::string_view name) const {
  return std::any_of(grestypes.begin(), grestypes.end(), [&](const std::string& g) { return iequals(g, name); });
}

Outcome GresNameView::fatal_record(Findings& out, const RuleInfo& rule, const GresRecord& at, std::string message,
                                   std::string slurm, std::string help) const {
  load.report(out, rule, at.line->d->head().value_span, std::move(message)).slurm(slurm).help(std::move(help));
  return Outcome::slurmd_fatal(std::move(slurm));
}

std::size_t RegistrationView::walk_end() const {
  for (std::size_t i = 0; i < records.size(); ++i) {
    const GresRecord& r = records[i];
    if (r.cores && !r.core_bits && profile.invalid_cores_invalidates_node()) return i;
    if (splits_socket(r, *this)) return i;
  }
  return records.size();
}

const std::string& GpuNodes::folded() const {
  if (!folded_cache) {
    std::vector<std::string> gpu_nodes;
    for (std::uint32_t n = 0; n < names.size(); ++n)
      if (has_gpu(n)) gpu_nodes.push_back(names[n]);
    folded_cache = fold_hostnames(gpu_nodes);
  }
  return *folded_cache;
}

}  // namespace greslint::rules
