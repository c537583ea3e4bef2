// SPDX-License-Identifier: Apache-2.0
// GRS149 defunct-cloud-reg-addrs: SlurmctldParameters=cloud_reg_addrs is defunct from 23.11:
// slurmctld logs it and ignores it (docs/rules/GRS149.md).
#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS149{
    "GRS149",          "defunct-cloud-reg-addrs",
    Severity::warning, Effect::degraded,
    Daemon::slurmctld, "SlurmctldParameters=cloud_reg_addrs is defunct from 23.11: slurmctld logs it and ignores it"};

// From 23.11 every cloud node's registration sets its address, so the option does nothing;
// slurmctld (only) finds the word anywhere in the value, in any case (26.05 moved the test to
// _parse_slurmctld_params, at the same point).
Outcome check_grs149(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("SlurmctldParameters");
  if (v.profile.version() < kSlurm2311 || !kv || !icontains(kv->value, "cloud_reg_addrs")) return Outcome::proceed();
  out.report(GRS149, kv->value_span,
             "cloud_reg_addrs was removed in Slurm 23.11, whose cloud nodes always register their addresses, and is "
             "ignored")
      .slurm("The SlurmctldParameters option \"cloud_reg_addrs\" is defunct, please remove it from slurm.conf.")
      .help("delete cloud_reg_addrs from SlurmctldParameters");
  return Outcome::proceed();
}

}  // namespace greslint::rules
