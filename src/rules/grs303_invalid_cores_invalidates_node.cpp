// SPDX-License-Identifier: Apache-2.0
// GRS303 invalid-cores-invalidates-node: slurmctld cannot read a Cores= list and invalidates the node (Slurm 24.11+) (docs/rules/GRS303.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS303{"GRS303", "invalid-cores-invalidates-node", Severity::error, Effect::drain, Daemon::slurmctld,
                      "slurmctld cannot read a Cores= list and invalidates the node (Slurm 24.11+)"};

namespace {
/// The record whose Cores= slurmctld cannot read (24.11+), where its walk stops; records.size()
/// when the walk stops at a record that splits a socket first (GRS311 reports that one) or
/// reads every record.
std::size_t first_unreadable_cores(const RegistrationView& v) {
  const std::size_t end = v.walk_end();
  if (end < v.records.size() && v.records[end].cores && !v.records[end].core_bits) return end;
  return v.records.size();
}

/// The drain reason: it comes from the checks on the half-built topology (F8).
std::string half_built_reason(const RegistrationView& v, std::size_t usable) {
  const auto& recs = v.records;
  // With no record read, 26.05's per-type check finds no topology to count and sets no
  // reason: scontrol shows the node INVAL with Reason=(null).
  if (usable == 0 && v.profile.unread_records_leave_topology()) return {};
  const bool typed = std::any_of(recs.begin(), recs.end(), [](const GresRecord& r) { return r.type.has_value(); });
  if (typed && recs.size() > 1) {
    for (const auto& t : v.configured.types) {
      std::uint64_t found = 0;
      for (std::size_t i = 0; i < usable; ++i)
        if (recs[i].type && *recs[i].type == t.type) found += recs[i].count;
      if (found < t.count) return fmt::format("gres/{}:{} count too low ({} < {})", v.name, t.type, found, t.count);
    }
  } else if (typed && v.profile.version() < kSlurm2511) {
    return fmt::format("gres/{} type ((null)) reported but not configured", v.name);
  }
  return {};
}
}  // namespace

// _foreach_rebuild_topo (24.11+): a Cores= slurmctld cannot read invalidates the node.
Outcome check_grs303(const RegistrationView& v, Findings& out) {
  const std::size_t usable = first_unreadable_cores(v);
  if (usable == v.records.size()) return Outcome::proceed();
  const GresRecord& bad = v.records[usable];  // has a line: only gres.conf records carry Cores=
  // 26.05 keeps a CLOUD node in service: slurmctld already loaded its gres.conf at start-up
  // and refuses to change the count it found then, so registration logs the error and the
  // node stays IDLE (live: c10c, and with the bad record first or third). Not when AutoDetect
  // stopped that load: the node registers as on 24.11 (s2040 m171, gm60).
  if (v.ctld_walked_at_startup && v.profile.unread_records_leave_topology()) {
    out.report(GRS303, bad.span_of("Cores"),
               fmt::format("slurmctld {} cannot read Cores={} for the CLOUD nodes {}; it logs the error and keeps "
                           "them in service without that record's topology",
                           v.profile.version().str(), *bad.cores, kNodes))
        .slurm(fmt::format("_foreach_rebuild_topo: invalid GRES core specification ({}) on node {}", *bad.cores, v.rep))
        .effect(Effect::degraded, Daemon::slurmctld)
        .help("use core indexes that exist on the node");
    return Outcome::degraded().and_skip_rest();
  }
  out.report(GRS303, bad.span_of("Cores"),
             fmt::format("slurmctld {} cannot read Cores={} for {} and invalidates the nodes", v.profile.version().str(),
                         *bad.cores, kNodes))
      .slurm(fmt::format("_foreach_rebuild_topo: invalid GRES core specification ({}) on node {}", *bad.cores, v.rep))
      .help("use core indexes that exist on the node");
  return Outcome::drain(half_built_reason(v, usable)).and_skip_rest();
}

}  // namespace greslint::rules
