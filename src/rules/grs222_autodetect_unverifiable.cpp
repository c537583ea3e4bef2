// SPDX-License-Identifier: Apache-2.0
// GRS222 autodetect-unverifiable: GPUs left to AutoDetect cannot be counted from the files (docs/rules/GRS222.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS222{"GRS222", "autodetect-unverifiable", Severity::note, Effect::advice, Daemon::slurmd,
                      "GPUs left to AutoDetect cannot be counted from the files"};

// Under AutoDetect the count is what slurmd finds on the node, which the files cannot tell.
Outcome check_grs222(const RegistrationView& v, Findings& out) {
  if (!v.autodetect_gpu || v.reported >= v.configured.total) return Outcome::proceed();
  out.report(GRS222, v.node.gres_span,
             fmt::format("{} rely on AutoDetect for gpu; greslint cannot see how many GPUs it will find", kNodes))
      .help("run greslint node-check on the node, or list the devices with File=");
  return Outcome::proceed().and_skip_rest();
}

}  // namespace greslint::rules
