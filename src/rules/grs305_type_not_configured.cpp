// SPDX-License-Identifier: Apache-2.0
// GRS305 type-not-configured: gres.conf Type= that slurm.conf does not configure (exact spelling): drained from 23.11 (docs/rules/GRS305.md).
#include <algorithm>
#include <fmt/format.h>
#include <string>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS305{"GRS305", "type-not-configured", Severity::error, Effect::drain, Daemon::slurmctld,
                      "gres.conf Type= that slurm.conf does not configure (exact spelling): drained from 23.11"};

// 23.11+ drains on a reported type slurm.conf does not have; 22.05 keeps it silently. Only a
// typed slurm.conf entry has types to compare with: shared records inherit the GPU's type
// under an untyped shard:N and register fine (23.11-26.05 recordings). A CLOUD node whose
// gres.conf slurmctld loaded at start-up has, from 25.05, gres.conf's spelling of a type as its
// own, so a difference in case registers there too (case gm71, differential s2403 m295).
Outcome check_grs305(const RegistrationView& v, Findings& out) {
  const auto& types = v.configured.types;
  for (const GresRecord& r : v.records) {
    if (!r.type || types.empty()) continue;
    if (std::any_of(types.begin(), types.end(), [&](const auto& t) { return t.type == *r.type; })) continue;
    const auto nocase = std::find_if(types.begin(), types.end(), [&](const auto& t) { return iequals(t.type, *r.type); });
    const bool cloud_takes_spelling =
        nocase != types.end() && v.ctld_walked_at_startup && v.profile.cloud_node_takes_gres_conf_types();
    if (v.profile.type_not_configured_drains() && !cloud_takes_spelling) {
      std::string slurm = fmt::format("gres/{} type ({}) reported but not configured", v.name, *r.type);
      out.report(GRS305, r.span_of("Type"),
                 fmt::format("Type={} differs from slurm.conf's {}; slurmctld compares types case-sensitively", *r.type,
                             nocase != types.end() ? nocase->type : std::string("types")))
          .slurm(slurm)
          .help(nocase != types.end() ? fmt::format("write Type={}", nocase->type) : "use the slurm.conf type name");
      return Outcome::drain(std::move(slurm));
    }
    if (nocase != types.end() && !v.drained)  // a drain already says it
      out.report(GRS305, r.span_of("Type"),
                 fmt::format("Type={} differs in case from slurm.conf's {}; {}jobs asking for {}:{} will not match it",
                             *r.type, nocase->type,
                             cloud_takes_spelling ? fmt::format("slurmctld takes gres.conf's spelling for a CLOUD node "
                                                                "when it starts, so the node registers as {}:{}, and ",
                                                                v.name, *r.type)
                                                  : std::string(),
                             v.name, nocase->type))
          .severity(Severity::warning)
          .effect(Effect::degraded, Daemon::slurmctld)
          .help(fmt::format("write Type={}", nocase->type));
    return Outcome::proceed();
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
