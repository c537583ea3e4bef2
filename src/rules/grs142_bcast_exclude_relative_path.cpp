// SPDX-License-Identifier: Apache-2.0
// GRS142 bcast-exclude-relative-path: a BcastExclude entry that is not an absolute path: every
// daemon exits (docs/rules/GRS142.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS142{"GRS142",          "bcast-exclude-relative-path",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "a BcastExclude entry that is not an absolute path: every daemon exits"};

// sbcast and srun --bcast skip libraries under these directories; an entry that is no
// absolute path has no meaning, and _validate_bcast_exclude refuses the first one.
Outcome check_grs142(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("BcastExclude");
  if (!kv || iequals(kv->value, "none")) return Outcome::proceed();
  for (std::string_view item : list_items(kv->value)) {
    if (item.front() == '/') continue;
    out.report(GRS142, kv->value_span, fmt::format("BcastExclude entry '{}' is not an absolute path", item))
        .slurm(fmt::format("Invalid path for BcastExclude: {}", item))
        .help("list absolute directories (BcastExclude=/lib,/usr/lib), or write none");
    return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
