// SPDX-License-Identifier: Apache-2.0
// GRS153 invalid-bcast-addr-list: a BcastAddr list Slurm cannot expand: the daemons exit
// (docs/rules/GRS153.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS153{"GRS153",          "invalid-bcast-addr-list",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "a BcastAddr list Slurm cannot expand: the daemons exit"};

// expand_nodeline_info makes a hostlist of BcastAddr (after NodeAddr and NodeName, before
// NodeHostname) and exits when it cannot.
Outcome check_grs153(const NodeAddressView& v, Findings& out) {
  if (v.valid() || !iequals(v.kv.spec->name, "BcastAddr")) return Outcome::proceed();
  std::string line = fmt::format("Unable to create BcastAddr list from {}", v.kv.value);
  out.report(GRS153, v.kv.value_span, fmt::format("BcastAddr={} is not a valid hostlist", v.kv.value))
      .slurm(line)
      .help("fix the bracket expression (BcastAddr=10.2.0.[1-4] gives one address per node)");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
