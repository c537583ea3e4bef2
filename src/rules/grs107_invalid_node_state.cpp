// SPDX-License-Identifier: Apache-2.0
// GRS107 invalid-node-state: State= is not a node state Slurm knows: the daemons refuse the configuration (docs/rules/GRS107.md).
#include <algorithm>
#include <fmt/format.h>
#include <iterator>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS107{"GRS107", "invalid-node-state", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "State= is not a node state Slurm knows: the daemons refuse the configuration"};

namespace {
/// node_conf.c:state_str2int: a base state name, or anything starting with CLOUD, DRAIN or FAIL.
bool valid_node_state(std::string_view state) {
  static const char* const kBase[] = {"UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE"};
  if (std::any_of(std::begin(kBase), std::end(kBase), [&](const char* k) { return iequals(state, k); })) return true;
  for (std::string_view prefix : {"CLOUD", "DRAIN", "FAIL"})
    if (state.size() >= prefix.size() && iequals(state.substr(0, prefix.size()), prefix)) return true;
  return false;
}
}  // namespace

Outcome check_grs107(const NodeNameLineView& v, Findings& out) {
  if (!v.line || !v.line->state_span.valid() || valid_node_state(v.line->state)) return Outcome::proceed();
  const std::string_view state = v.line->state;
  std::string slurm = fmt::format("Invalid state {} from {}", state, v.d.head().value);
  out.report(GRS107, v.line->state_span, fmt::format("State={} is not a node state Slurm knows", state))
      .slurm(slurm)
      .help("use UNKNOWN, IDLE, DOWN, DRAIN, FAIL, FUTURE or CLOUD (one state; no  combinations)");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
