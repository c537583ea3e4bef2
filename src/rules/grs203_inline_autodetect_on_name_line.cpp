// SPDX-License-Identifier: Apache-2.0
// GRS203 inline-autodetect-on-name-line: AutoDetect on a Name= line has no effect (docs/rules/GRS203.md).
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS203{"GRS203", "inline-autodetect-on-name-line", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "AutoDetect on a Name= line has no effect"};

// _parse_gres_config takes AutoDetect= on a record only from a NodeName= line.
Outcome check_grs203(const GresRecordView& v, Findings& out) {
  if (!v.keys.autodetect || v.line.node_scoped) return Outcome::proceed();
  v.load.report(out, GRS203, v.keys.autodetect->key_span, "AutoDetect on a Name= line has no effect")
      .slurm("gres.conf: In-line AutoDetect requires NodeName to take effect")
      .help("put AutoDetect= on a line of its own, or on a NodeName= line");
  return Outcome::degraded();
}

}  // namespace greslint::rules
