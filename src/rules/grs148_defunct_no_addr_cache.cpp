// SPDX-License-Identifier: Apache-2.0
// GRS148 defunct-no-addr-cache: CommunicationParameters=NoAddrCache is defunct from 23.11:
// slurmctld logs it and ignores it (docs/rules/GRS148.md).
#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS148{
    "GRS148",          "defunct-no-addr-cache",
    Severity::warning, Effect::degraded,
    Daemon::slurmctld, "CommunicationParameters=NoAddrCache is defunct from 23.11: slurmctld logs it and ignores it"};

// 23.11 removed the option; slurmctld (only) still finds the
// word anywhere in the value, in any case, and says so.
Outcome check_grs148(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("CommunicationParameters");
  if (v.profile.version() < kSlurm2311 || !kv || !icontains(kv->value, "NoAddrCache")) return Outcome::proceed();
  out.report(GRS148, kv->value_span, "NoAddrCache was removed in Slurm 23.11 and is ignored")
      .slurm("The CommunicationParameters option \"NoAddrCache\" is defunct, please remove it from slurm.conf.")
      .help("delete NoAddrCache from CommunicationParameters");
  return Outcome::proceed();
}

}  // namespace greslint::rules
