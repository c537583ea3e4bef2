// SPDX-License-Identifier: Apache-2.0
// GRS223 autodetect-on-cloud-node: AutoDetect on CLOUD nodes: slurmctld 22.05 exits, later releases reject the GRES (docs/rules/GRS223.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS223{"GRS223", "autodetect-on-cloud-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AutoDetect on CLOUD nodes: slurmctld 22.05 exits, later releases reject the GRES"};

// slurmctld loads gres.conf for CLOUD nodes itself and, from 24.11, refuses AutoDetect there.
Outcome check_grs223(const GresLoadView& v, Findings& out) {
  const NodeLine& node = v.load.node;
  if (!node.cloud || !v.autodetect_active || !v.load.profile.cloud_autodetect_fatal()) return Outcome::proceed();
  std::string slurm = fmt::format("Cannot use AutoDetect on cloud node \"{}\"", kNode);
  v.load
      .report(out, GRS223, node.names_span,
              fmt::format("AutoDetect applies to CLOUD nodes {}; slurmctld {} refuses that", kNodes,
                          v.load.profile.version().str()))
      .slurm(slurm)
      .help("set AutoDetect=off for cloud nodes and list their devices with File=");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
