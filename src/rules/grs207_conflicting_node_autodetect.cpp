// SPDX-License-Identifier: Apache-2.0
// GRS207 conflicting-node-autodetect: two different node-local AutoDetect values for one node: slurmd exits (docs/rules/GRS207.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS207{"GRS207", "conflicting-node-autodetect", Severity::error, Effect::fatal, Daemon::slurmd,
                      "two different node-local AutoDetect values for one node: slurmd exits"};

// _parse_gres_config keeps the first node-local AutoDetect= and exits at one that differs.
Outcome check_grs207(const GresRecordView& v, Findings& out) {
  const KeyValue* autodetect = v.keys.autodetect;
  if (!autodetect || !v.line.node_scoped || !v.autodetect_known || !v.node_autodetect ||
      iequals(*v.node_autodetect, autodetect->value))
    return Outcome::proceed();
  v.load
      .report(out, GRS207, autodetect->value_span,
              fmt::format("AutoDetect={} contradicts AutoDetect={} given earlier for {}", autodetect->value,
                          *v.node_autodetect, kNodes))
      .slurm("gres.conf: duplicate node-local AutoDetect specification does not match the first")
      .help("give one AutoDetect value per node");
  return Outcome::slurmd_fatal("gres.conf: duplicate node-local AutoDetect specification does not match the first");
}

}  // namespace greslint::rules
