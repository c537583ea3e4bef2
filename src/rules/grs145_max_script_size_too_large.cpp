// SPDX-License-Identifier: Apache-2.0
// GRS145 max-script-size-too-large: SchedulerParameters max_script_size above 512 MB: every
// daemon exits (docs/rules/GRS145.md).
#include <fmt/format.h>

#include <cstdint>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS145{"GRS145",          "max-script-size-too-large",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "SchedulerParameters max_script_size above 512 MB: every daemon exits"};

// The batch script travels in one RPC; MAX_BATCH_SCRIPT_SIZE is the cap. A value atoi wraps
// below it passes.
Outcome check_grs145(const SlurmConfView& v, Findings& out) {
  constexpr std::int32_t kMaxBatchScriptSize = 512 * 1024 * 1024;
  const KeyValue* kv = v.settings.find("SchedulerParameters");
  const auto size = kv ? scheduler_parameter_atoi(kv->value, "max_script_size=") : std::nullopt;
  if (!size || *size <= kMaxBatchScriptSize) return Outcome::proceed();
  std::string line =
      v.profile.version() < kSlurm2302
          ? std::string("SchedulerParameters option max_script_size cannot exceed 512 MB")
          : fmt::format("SchedulerParameters option max_script_size cannot exceed {}", kMaxBatchScriptSize);
  out.report(GRS145, kv->value_span,
             fmt::format("max_script_size={} is above the limit of {} bytes (512 MB)", *size, kMaxBatchScriptSize))
      .slurm(line)
      .help("set max_script_size to 536870912 or less (the default is 4194304, 4 MB)");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
