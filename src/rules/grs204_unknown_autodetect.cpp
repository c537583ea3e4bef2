// SPDX-License-Identifier: Apache-2.0
// GRS204 unknown-autodetect: an AutoDetect value this Slurm release does not know is ignored (docs/rules/GRS204.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS204{"GRS204", "unknown-autodetect", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "an AutoDetect value this Slurm release does not know is ignored"};

namespace {
std::string known_values_help(const VersionProfile& profile) {
  std::vector<std::string_view> values = profile.autodetect_values();
  std::string last(values.back());
  values.pop_back();
  return fmt::format("use {} or {} (the values Slurm {} knows)", fmt::join(values, ", "), last,
                     profile.version().str());
}

Outcome unknown(const GresLoad& load, Findings& out, const KeyValue& autodetect) {
  load.report(out, GRS204, autodetect.value_span,
              fmt::format("AutoDetect={} is not a value Slurm {} knows; it is ignored", autodetect.value,
                          load.profile.version().str()))
      .slurm(fmt::format("unknown autodetect flag '{}'", autodetect.value))
      .help(known_values_help(load.profile));
  return Outcome::degraded();
}
}  // namespace

// gres.conf's own AutoDetect= line, which every node reads before its records.
Outcome check_grs204_global(const GresLoadView& v, Findings& out) {
  if (!v.global_autodetect || v.global_autodetect_known) return Outcome::proceed();
  return unknown(v.load, out, *v.global_autodetect);
}

// AutoDetect= on a NodeName= record line.
Outcome check_grs204_line(const GresRecordView& v, Findings& out) {
  if (!v.keys.autodetect || !v.line.node_scoped || v.autodetect_known) return Outcome::proceed();
  return unknown(v.load, out, *v.keys.autodetect);
}

}  // namespace greslint::rules
