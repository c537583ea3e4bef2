// SPDX-License-Identifier: Apache-2.0
// GRS162 configured-node-state-kept: State=DOWN or DRAIN on a NodeName or DownNodes line keeps the node out of service when its slurmd registers (docs/rules/GRS162.md).
#include <fmt/format.h>

#include "rules/node_registration_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS162{"GRS162", "configured-node-state-kept", Severity::warning, Effect::drain, Daemon::slurmctld,
                      "State=DOWN or DRAIN on a NodeName or DownNodes line keeps the node out of service when its slurmd registers"};

// Follows node_mgr.c:validate_node_specs. A registration takes a node out of UNKNOWN, but a
// DOWN node returns to service only with ReturnToService=2 (or =1 when its reason is "Not
// responding", which a configured DOWN node's empty reason is not), and nothing there clears
// the DRAIN flag. FAIL is left alone: scontrol shows IDLE+FAIL, which no check drains.
Outcome check_grs162(const NodeRegistrationView& v, Findings& out) {
  if (!v.state_at.valid()) return Outcome::proceed();
  const std::string_view state = v.state;
  const Span at = v.state_at;
  // The reason scontrol shows is the configured one: the line's Reason= (none: empty), a
  // DownNodes= line's Reason= or its "Set in slurm.conf" (case rw126).
  const std::string setting = v.down_nodes ? fmt::format("DownNodes State={}", state) : fmt::format("State={}", state);
  if (v.held == HeldState::down) {
    if (v.ret2service == 2) return Outcome::proceed();
    const std::string why =
        v.ret2service == 1
            ? std::string("ReturnToService=1 returns only a node set DOWN for \"Not responding\"")
            : fmt::format("ReturnToService={} returns no DOWN node to service", v.ret2service);
    auto b = out.report(GRS162, at,
                        fmt::format("{}: {} keeps them DOWN after their slurmd registers ({})", kNodes, setting, why))
                 .help(fmt::format("remove {} (or set ReturnToService=2); on a running cluster, "
                                   "`scontrol update NodeName={} State=RESUME`",
                                   setting, kNodes));
    if (v.return_to_service) b.related(v.return_to_service->value_span, "ReturnToService is set here");
    return Outcome::drain(std::string(v.reason));
  }
  if (v.held == HeldState::drain) {
    out.report(GRS162, at,
               fmt::format("{}: {} keeps them drained after their slurmd registers (IDLE+DRAIN until "
                           "resumed; ReturnToService does not clear DRAIN)",
                           kNodes, setting))
        .help(fmt::format("remove {}; on a running cluster, `scontrol update NodeName={} State=RESUME`", setting,
                          kNodes));
    return Outcome::drain(std::string(v.reason));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
