// SPDX-License-Identifier: Apache-2.0
// GRS106 node-address-count-mismatch: NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration (docs/rules/GRS106.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS106{"GRS106", "node-address-count-mismatch", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration"};

namespace {

/// node_conf.c:expand_nodeline_info's line, as each release spells it: "of there" up to
/// 24.05; from 24.11 "or there", with two spaces in the NodeAddr line until 26.05.
std::string count_fatal(std::string_view key, SlurmVersion v) {
  const bool double_space = key == "NodeAddr" && v >= kSlurm2411 && v < kSlurm2605;
  return fmt::format("{} count must equal that of NodeName records {}{}there must be no more than one", key,
                     v < kSlurm2411 ? "of" : "or", double_space ? "  " : " ");
}

}  // namespace

// Addresses pair with names one to one, or one address serves every name.
Outcome check_grs106(const NodeAddressView& v, Findings& out) {
  if (!v.list.ok() || v.list.list->size() == v.node_count || v.list.list->size() <= 1) return Outcome::proceed();
  const std::string_view key = v.kv.spec->name;
  std::string slurm = count_fatal(key, v.profile.version());
  out.report(GRS106, v.kv.value_span,
             fmt::format("{}={} names {} addresses for {} nodes", key, v.kv.value, v.list.list->size(), v.node_count))
      .slurm(slurm)
      .related(v.names_span, fmt::format("{} nodes here", v.node_count))
      .help(fmt::format("give exactly {} entries, or one", v.node_count));
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
