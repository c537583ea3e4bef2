// SPDX-License-Identifier: Apache-2.0
// GRS157 max-submit-line-size-too-large: SchedulerParameters max_submit_line_size above 2 MB:
// every daemon exits (23.11+) (docs/rules/GRS157.md).
#include <fmt/format.h>

#include <cstdint>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS157{
    "GRS157",          "max-submit-line-size-too-large",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "SchedulerParameters max_submit_line_size above 2 MB: every daemon exits (23.11+)"};

// From 23.11 the submit line a job records is capped at MAX_MAX_SUBMIT_LINE_SIZE; the check
// follows max_script_size's (GRS145) and reads the number the same way.
Outcome check_grs157(const SlurmConfView& v, Findings& out) {
  constexpr std::int32_t kMaxSubmitLineSize = 2 * 1024 * 1024;
  if (v.profile.version() < kSlurm2311) return Outcome::proceed();
  const KeyValue* kv = v.settings.find("SchedulerParameters");
  const auto size = kv ? scheduler_parameter_atoi(kv->value, "max_submit_line_size=") : std::nullopt;
  if (!size || *size <= kMaxSubmitLineSize) return Outcome::proceed();
  std::string line =
      fmt::format("SchedulerParameters option max_submit_line_size cannot exceed {}", kMaxSubmitLineSize);
  out.report(GRS157, kv->value_span,
             fmt::format("max_submit_line_size={} is above the limit of {} bytes (2 MB)", *size, kMaxSubmitLineSize))
      .slurm(line)
      .help("set max_submit_line_size to 2097152 or less");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
