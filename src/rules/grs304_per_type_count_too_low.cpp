// SPDX-License-Identifier: Apache-2.0
// GRS304 per-type-count-too-low: fewer GPUs of a type than slurm.conf configures: the node is drained (docs/rules/GRS304.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS304{"GRS304", "per-type-count-too-low", Severity::error, Effect::drain, Daemon::slurmctld,
                      "fewer GPUs of a type than slurm.conf configures: the node is drained"};

// Per-type counts are compared only when slurmd sent several records; with mps/shard on
// the node slurmd sends one gpu record per device file. A CLOUD node whose gres.conf
// slurmctld loaded at start-up is compared only on 23.11-24.11 (case gm73): slurmd's merge
// compares types case-insensitively, so what falls short is a type spelled in another case.
Outcome check_grs304(const RegistrationView& v, Findings& out) {
  if (v.ctld_walked_at_startup && !v.profile.cloud_registration_compares_type_counts()) return Outcome::proceed();
  std::size_t sent = v.records.size();
  if (v.name == "gpu" && v.shared_on_node) {
    sent = 0;
    for (const GresRecord& r : v.records) sent += r.multiple_files || r.paths.empty() ? 1 : r.paths.size();
  }
  if (sent <= 1 || v.config_overrides) return Outcome::proceed();
  for (const auto& t : v.configured.types) {
    std::uint64_t found = 0;
    for (const GresRecord& r : v.records)
      if (r.type && *r.type == t.type) found += r.count;
    if (found >= t.count) continue;
    std::string slurm = fmt::format("gres/{}:{} count too low ({} < {})", v.name, t.type, found, t.count);
    out.report(GRS304, v.node.gres_span,
               fmt::format("slurmctld finds {} {}:{} on {} but slurm.conf configures {} (types compare case-sensitively)",
                           found, v.name, t.type, kNodes, t.count))
        .slurm(slurm)
        .help("spell Type= in gres.conf exactly as in slurm.conf Gres=");
    return Outcome::drain(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
