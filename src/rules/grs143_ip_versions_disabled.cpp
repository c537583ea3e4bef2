// SPDX-License-Identifier: Apache-2.0
// GRS143 ip-versions-disabled: CommunicationParameters disables IPv4 without enabling IPv6:
// every daemon exits (docs/rules/GRS143.md).
#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS143{
    "GRS143",          "ip-versions-disabled",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "CommunicationParameters disables IPv4 without enabling IPv6: every daemon exits"};

// IPv4 is on unless DisableIPv4, IPv6 off unless EnableIPv6; Slurm looks for the words
// anywhere in the value, in any case.
Outcome check_grs143(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("CommunicationParameters");
  if (!kv || !icontains(kv->value, "DisableIPv4") || icontains(kv->value, "EnableIPv6")) return Outcome::proceed();
  constexpr std::string_view kLine = "Both IPv4 and IPv6 support disabled, cannot communicate";
  out.report(GRS143, kv->value_span, "CommunicationParameters turns IPv4 off and does not turn IPv6 on")
      .slurm(std::string(kLine))
      .help("add EnableIPv6 to CommunicationParameters, or drop DisableIPv4");
  return Outcome::slurmctld_fatal(std::string(kLine));
}

}  // namespace greslint::rules
