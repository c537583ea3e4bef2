// SPDX-License-Identifier: Apache-2.0
// GRS222 autodetect-unverifiable: GPUs left to AutoDetect cannot be counted from the files.
// Reported by the cluster model (src/model_eval.inc); docs/rules/GRS222.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS222{"GRS222", "autodetect-unverifiable", Severity::note, Effect::advice, Daemon::slurmd,
                      "GPUs left to AutoDetect cannot be counted from the files"};
}  // namespace greslint::rules
