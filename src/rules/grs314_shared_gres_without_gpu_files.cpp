// SPDX-License-Identifier: Apache-2.0
// GRS314 shared-gres-without-gpu-files: mps/shard on a node whose GPUs have no device files: slurmd exits (docs/rules/GRS314.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "model/shared_gres.hpp"

namespace greslint::rules {

const RuleInfo GRS314{"GRS314", "shared-gres-without-gpu-files", Severity::error, Effect::fatal, Daemon::slurmd,
                      "mps/shard on a node whose GPUs have no device files: slurmd exits"};

// gres_c_s.c: the mps or shard plugin cannot lay its records onto the GPUs' device files.
Outcome check_grs314(const GresPluginView& v, Findings& out) {
  if (!v.share || v.share->fatal.empty()) return Outcome::proceed();
  std::uint64_t configured = 0, fileless = 0;
  for (const GresRecord& r : v.records) (r.files ? configured : fileless) += r.count;
  configured += fileless;
  const std::string message =
      v.share->no_sharing ? fmt::format(
                                "{} is configured on {} but their GPUs have no device files to share (the plugin "
                                "shares only Name=gpu lines with File=, spelt exactly so)",
                                v.name, kNodes)
      : v.share->fatal.find("with and without") != std::string::npos
          ? fmt::format(
                "gres.conf gives {} {} of {} {} configured in slurm.conf; slurmd adds a File-less record for "
                "the rest, which cannot be mixed with File= records",
                kNodes, configured - fileless, configured, v.name)
          : fmt::format("more than one {} line without File= for {}", v.name, kNodes);
  DiagnosticBuilder b = out.report(GRS314, v.load.node.gres_span, message);
  b.slurm(v.share->fatal)
      .help("give each GPU a File= and write the shared line with the GPUs' device files, or without File= once");
  if (v.load.node.cloud) b.effect(Effect::fatal, Daemon::slurmctld);
  return Outcome::slurmd_fatal(v.share->fatal);
}

}  // namespace greslint::rules
