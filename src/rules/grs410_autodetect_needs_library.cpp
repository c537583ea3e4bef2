// SPDX-License-Identifier: Apache-2.0
// GRS410 autodetect-needs-library: AutoDetect needs a slurmd built with the GPU library and the library on the node.
// Checked in src/model/policy.cpp until it moves to a stage list; docs/rules/GRS410.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS410{"GRS410", "autodetect-needs-library", Severity::note, Effect::advice, Daemon::slurmd,
                      "AutoDetect needs a slurmd built with the GPU library and the library on the node"};
}  // namespace greslint::rules
