// SPDX-License-Identifier: Apache-2.0
// GRS208 cores-out-of-range: Cores=/CPUs= names core indexes the node does not have: the GPU loses its core binding.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS208.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS208{"GRS208", "cores-out-of-range", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "Cores=/CPUs= names core indexes the node does not have: the GPU loses its core binding"};
}  // namespace greslint::rules
