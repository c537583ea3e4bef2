// SPDX-License-Identifier: Apache-2.0
// GRS208 cores-out-of-range: Cores=/CPUs= names core indexes the node does not have: the GPU loses its core binding.
// Checked in src/model/replay_records.cpp (stage C) until it moves to a stage list; docs/rules/GRS208.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS208{"GRS208", "cores-out-of-range", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "Cores=/CPUs= names core indexes the node does not have: the GPU loses its core binding"};
}  // namespace greslint::rules
