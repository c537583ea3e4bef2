// SPDX-License-Identifier: Apache-2.0
// GRS161 cgroup-setting-ignored: a cgroup.conf value Slurm logs and then ignores or clips
// (docs/rules/GRS161.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS161{"GRS161", "cgroup-setting-ignored", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "a cgroup.conf setting Slurm ignores or clips: it does not do what it says"};

Outcome check_grs161_cgroup_adjusted_values(const CgroupConfView& v, Findings& out) {
  const SlurmVersion ver = v.profile.version();
  for (const Directive& d : v.cgroup.directives) {
    const KeyValue& kv = d.head();
    const std::string_view key = kv.spec->name;
    if (iequals(key, "MemorySwappiness")) {
      const auto n = slurm_number(kv.value);
      if (n && *n > 100)
        out.report(GRS161, kv.value_span, fmt::format("MemorySwappiness={} is above 100 and is read as 100", *n))
            .slurm("Value for MemorySwappiness is too high, rounding down to 100.")
            .help("use a value from 0 to 100");
    } else if (iequals(key, "AllowedDevicesFile")) {
      // 22.05 logs it with info("WARNING: ..."), later releases with warning().
      out.report(GRS161, kv.key_span, "AllowedDevicesFile is obsolete and ignored")
          .slurm(ver < kSlurm2302 ? "WARNING: AllowedDevicesFile option is obsolete, please remove it from your configuration."
                                  : "AllowedDevicesFile option is obsolete, please remove it from your configuration.")
          .help("delete it; devices are confined by ConstrainDevices and gres.conf");
    } else if (ver == kSlurm2302 && (iequals(key, "AllowedKmemSpace") || iequals(key, "ConstrainKmemSpace") ||
                                     iequals(key, "MaxKmemPercent") || iequals(key, "MinKmemSpace"))) {
      out.report(GRS161, kv.key_span, fmt::format("{} is deprecated", key))
          .slurm("AllowedKmemSpace, ConstrainKmemSpace, MaxKmemPercent, and MinKmemSpace are deprecated, and will be "
                 "removed in a future release")
          .help(fmt::format("delete {}", key));
    }
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
