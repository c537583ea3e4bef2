// SPDX-License-Identifier: Apache-2.0
// GRS220 duplicate-device-file: a device file listed twice for a GRES: slurmd exits (docs/rules/GRS220.md).
#include <fmt/format.h>
#include <string>
#include <unordered_map>

#include "rules.hpp"
#include "model/shared_gres.hpp"

namespace greslint::rules {

const RuleInfo GRS220{"GRS220", "duplicate-device-file", Severity::error, Effect::fatal, Daemon::slurmd,
                      "a device file listed twice for a GRES: slurmd exits"};

// node_config_load of a GRES plugin (not mps or shard): each device file once.
Outcome check_grs220(const GresPluginView& v, Findings& out) {
  if (v.share) return Outcome::proceed();
  std::unordered_map<std::string, const GresRecord*> seen;
  for (const GresRecord& r : v.records) {
    if (r.multiple_files || r.name != v.name) continue;
    for (const std::string& p : r.paths) {
      auto [it, fresh] = seen.emplace(p, &r);
      if (fresh) continue;
      v.load
          .report(out, GRS220, r.line ? r.span_of("File") : v.load.node.gres_span,
                  fmt::format("device file {} is listed twice for {}", p, kNodes))
          .slurm(fmt::format("{} duplicate device file name ({})", v.name, p))
          .related(it->second->line ? it->second->span_of("File") : Span{}, "first listed here")
          .help("list each device file once");
      return Outcome::slurmd_fatal(v.name == "gpu" ? "Gres GPU plugin failed to load configuration"
                                                   : "failed to load configuration");
    }
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
