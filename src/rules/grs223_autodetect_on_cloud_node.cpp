// SPDX-License-Identifier: Apache-2.0
// GRS223 autodetect-on-cloud-node: AutoDetect on CLOUD nodes: slurmctld exits up to 23.02 and logs an error per node from 23.11 (docs/rules/GRS223.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS223{"GRS223", "autodetect-on-cloud-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AutoDetect on CLOUD nodes: slurmctld exits up to 23.02 and logs an error per node from 23.11"};

// slurmctld loads gres.conf for CLOUD nodes itself: up to 23.02 AutoDetect there is fatal.
Outcome check_grs223(const GresLoadView& v, Findings& out) {
  const NodeLine& node = v.load.node;
  if (!node.cloud || !v.autodetect_active) return Outcome::proceed();
  const VersionProfile& profile = v.load.profile;
  if (profile.cloud_autodetect_fatal()) {
    std::string slurm = fmt::format("Cannot use AutoDetect on cloud node \"{}\"", kNode);
    v.load
        .report(out, GRS223, node.names_span(),
                fmt::format("AutoDetect applies to CLOUD nodes {}; slurmctld {} refuses that", kNodes,
                            profile.version().str()))
        .slurm(slurm)
        .help("set AutoDetect=off for cloud nodes and list their devices with File=");
    return Outcome::slurmctld_fatal(std::move(slurm));
  }
  // 23.11+ logs the error for each cloud node and goes on: the node registers with the
  // GRES its slurmd loads, so the error is all an admin sees of it.
  v.load
      .report(out, GRS223, node.names_span(),
              fmt::format("AutoDetect applies to CLOUD nodes {}; slurmctld {} cannot detect GPUs there and logs "
                          "an error for each of them",
                          kNodes, profile.version().str()))
      .slurm(fmt::format("Cannot use AutoDetect on cloud/dynamic node \"{}\"", kNode))
      .effect(Effect::degraded, Daemon::slurmctld)
      .help("set AutoDetect=off for cloud nodes and list their devices with File=");
  return Outcome::degraded();
}

}  // namespace greslint::rules
