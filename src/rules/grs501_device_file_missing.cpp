// SPDX-License-Identifier: Apache-2.0
// GRS501 device-file-missing: a gres.conf device file does not exist on the node: slurmd waits 20 s, then exits.
// Reported by greslint node-check (src/hardware/node_checker.cpp, autodetect_check.cpp); docs/rules/GRS501.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS501{"GRS501", "device-file-missing", Severity::error, Effect::fatal, Daemon::slurmd,
                      "a gres.conf device file does not exist on the node: slurmd waits 20 s, then exits"};
}  // namespace greslint::rules
