// SPDX-License-Identifier: Apache-2.0
// GRS222 autodetect-unverifiable: GPUs left to AutoDetect cannot be counted from the files.
// Checked in src/model/replay.cpp until it moves to a stage list; docs/rules/GRS222.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS222{"GRS222", "autodetect-unverifiable", Severity::note, Effect::advice, Daemon::slurmd,
                      "GPUs left to AutoDetect cannot be counted from the files"};
}  // namespace greslint::rules
