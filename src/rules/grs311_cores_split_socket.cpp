// SPDX-License-Identifier: Apache-2.0
// GRS311 cores-split-socket: Cores= does not follow socket boundaries: the node is drained (Slurm 24.11+) (docs/rules/GRS311.md).
#include <fmt/format.h>
#include <utility>
#include <vector>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS311{"GRS311", "cores-split-socket", Severity::error, Effect::drain, Daemon::slurmctld,
                      "Cores= does not follow socket boundaries: the node is drained (Slurm 24.11+)"};

namespace {
/// The first socket a sorted core list uses only in part, under the release's rule; -1 if none.
int split_socket(const std::vector<std::uint32_t>& bits, const Topology& topo, SocketBoundaryCheck rule) {
  const std::uint32_t cps = topo.cores;
  // (socket, cores used there) for the sockets the sorted list touches, in order. Not a
  // counter per socket: Boards x SocketsPerBoard can claim 4 billion of them.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> per_socket;
  for (std::uint32_t b : bits) {
    if (per_socket.empty() || per_socket.back().first != b / cps) per_socket.emplace_back(b / cps, 0);
    ++per_socket.back().second;
  }
  if (rule == SocketBoundaryCheck::per_socket) {
    for (const auto& [s, used] : per_socket)
      if (used != cps) return int(s);
  } else if (bits.size() != topo.core_count()) {
    for (const auto& [s, used] : per_socket)
      if (used != cps || per_socket.size() > 1) return int(s);
  }
  return -1;
}
}  // namespace

bool splits_socket(const GresRecord& r, const RegistrationView& v) {
  const auto rule = v.profile.socket_boundary_check();
  return rule != SocketBoundaryCheck::none && r.core_bits && !r.core_bits->empty() &&
         split_socket(*r.core_bits, v.node.topo, rule) >= 0;
}

// 24.11+: Cores= must follow socket boundaries; the first record that does not drains the node
// and ends slurmctld's walk of the records (unless an earlier Cores= it cannot read ended it).
Outcome check_grs311(const RegistrationView& v, Findings& out) {
  const auto rule = v.profile.socket_boundary_check();
  if (rule == SocketBoundaryCheck::none) return Outcome::proceed();
  const std::uint32_t cps = v.node.topo.cores;
  const std::size_t end = v.walk_end();
  if (end < v.records.size()) {
    const GresRecord& r = v.records[end];
    if (!r.core_bits || r.core_bits->empty()) return Outcome::proceed();
    const int bad_socket = split_socket(*r.core_bits, v.node.topo, rule);
    if (bad_socket < 0) return Outcome::proceed();
    const std::uint32_t first = std::uint32_t(bad_socket) * cps, last = first + cps - 1;
    std::string slurm = fmt::format("gres/{} GRES core specification {} for node {} doesn't match socket boundaries. "
                                    "(Socket {} is cores {}-{})", v.name, format_index_list(*r.core_bits), kNode,
                                    bad_socket, first, last);
    // 26.05 keeps a CLOUD node in service, as for a Cores= it cannot read (GRS303): slurmctld
    // walked its records loading its gres.conf at start-up, logged this there, and at
    // registration finds the count it found then and rebuilds nothing (s2040 m37, gm59).
    if (v.ctld_walked_at_startup && v.profile.unread_records_leave_topology()) {
      out.report(GRS311, r.span_of("Cores"),
                 fmt::format("Cores={} splits socket {} (cores {}-{}); slurmctld {} logs it loading the CLOUD nodes' "
                             "gres.conf at start-up and keeps them in service without that record's topology",
                             *r.cores, bad_socket, first, last, v.profile.version().str()))
          .slurm("_check_core_range_matches_sock: " + slurm)
          .effect(Effect::degraded, Daemon::slurmctld)
          .help(fmt::format("use Cores={}-{} (the whole socket)", first, last));
      return Outcome::degraded().and_skip_rest();
    }
    out.report(GRS311, r.span_of("Cores"),
               fmt::format("Cores={} splits socket {} (cores {}-{}); Slurm {} requires {}", *r.cores, bad_socket, first,
                           last, v.profile.version().str(),
                           rule == SocketBoundaryCheck::per_socket ? "whole sockets" : "exactly one whole socket or all cores"))
        .slurm(slurm)
        .help(fmt::format("use Cores={}-{} (the whole socket)", first, last));
    return Outcome::drain(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
