// SPDX-License-Identifier: Apache-2.0
// GRS214 invalid-links: an invalid Links= value is dropped (docs/rules/GRS214.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS214{"GRS214", "invalid-links", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "an invalid Links= value is dropped"};

// _parse_gres_config drops a Links= value gres_links_validate rejects and goes on.
Outcome check_grs214(const GresRecordView& v, Findings& out) {
  if (!v.links || v.links_error.empty()) return Outcome::proceed();
  const std::string_view why = v.links_error.substr(v.links_error.find(':') + 2);
  v.load
      .report(out, GRS214, v.links->value_span,
              fmt::format("Links={} is not valid, so Slurm drops it: {}", v.links->value, why))
      .slurm(fmt::format("gres.conf: Ignoring invalid Links={} for Name={}", v.links->value, v.record.name))
      .help("list one entry per GPU with exactly one -1 for the device itself");
  return Outcome::degraded();
}

}  // namespace greslint::rules
