// SPDX-License-Identifier: Apache-2.0
// GRS202 gres-conf-line-without-name: a gres.conf NodeName= line without Name= is ignored (docs/rules/GRS202.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS202{"GRS202", "gres-conf-line-without-name", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a gres.conf NodeName= line without Name= is ignored"};

// _parse_gres_config: a record without Name= is no record. A NodeName= line that only sets
// AutoDetect= is not meant as one, and Slurm says nothing about it.
Outcome check_grs202(const GresRecordView& v, Findings& out) {
  if (v.keys.name) return Outcome::proceed();
  if (v.keys.autodetect) return Outcome::proceed().and_skip_rest();
  std::string_view rest = v.after_head;
  while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
  v.load.report(out, GRS202, v.line.d->head().key_span, "this NodeName= line has no Name=, so Slurm ignores it")
      .slurm(fmt::format("Invalid GRES data, no type name ({})", rest))
      .help("add Name=gpu (or the GRES this line describes)");
  return Outcome::skip_record();
}

}  // namespace greslint::rules
