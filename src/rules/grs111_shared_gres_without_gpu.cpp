// SPDX-License-Identifier: Apache-2.0
// GRS111 shared-gres-without-gpu: mps or shard in GresTypes without gpu: every daemon exits (docs/rules/GRS111.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS111{"GRS111", "shared-gres-without-gpu", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "mps or shard in GresTypes without gpu: every daemon exits"};

// The shared GRES plugins (mps, shard) take their devices from gres/gpu: without it,
// gres_init refuses to start any daemon.
Outcome check_grs111(const GresTypesView& v, Findings& out) {
  if (v.shared.empty() || std::find(v.names.begin(), v.names.end(), "gpu") != v.names.end()) return Outcome::proceed();
  const std::string slurm = "GresTypes: gres/'shared' requires that gres/gpu also be configured";
  out.report(GRS111, v.gres_types.value_span,
             fmt::format("GresTypes has {} but not gpu; shared GRES needs gres/gpu", v.shared.front()))
      .slurm(slurm)
      .help("add gpu to GresTypes (GresTypes=gpu," + v.shared.front() + ")");
  return Outcome::slurmctld_fatal(slurm);
}

}  // namespace greslint::rules
