// SPDX-License-Identifier: Apache-2.0
// GRS106 node-address-count-mismatch: NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration (docs/rules/GRS106.md).
#include <fmt/format.h>

#include <optional>
#include <string>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS106{"GRS106", "node-address-count-mismatch", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeAddr/NodeHostname count differs from the NodeName count: the daemons refuse the configuration"};

namespace {

/// node_conf.c:expand_nodeline_info's line for `count` entries of `key` and `names` names, if
/// it refuses them. From 24.11 (every build): one entry, or one per name; "or there", with
/// two spaces in the NodeAddr line until 26.05. Up to 24.05 it depends on the build: with
/// --enable-multiple-slurmd (Debian) only NodeAddr is counted, the same way, "of there"
/// (live s105: a NodeHostname count is not checked); without it, fewer entries than names
/// (even one) are refused and more are fine.
std::optional<std::string> count_fatal(std::string_view key, std::uint64_t count, std::uint64_t names,
                                       SlurmVersion v) {
  if (count == names) return std::nullopt;
  if (v < kSlurm2411 && !v.multiple_slurmd) {
    if (count < names) return fmt::format("At least as many {} are required as NodeName", key);
    return std::nullopt;
  }
  if (count <= 1) return std::nullopt;
  if (v < kSlurm2411) {
    if (key != "NodeAddr") return std::nullopt;
    return std::string("NodeAddr count must equal that of NodeName records of there must be no more than one");
  }
  const bool double_space = key == "NodeAddr" && v < kSlurm2605;
  return fmt::format("{} count must equal that of NodeName records or{}there must be no more than one", key,
                     double_space ? "  " : " ");
}

}  // namespace

// Addresses pair with names one to one, or one address serves every name (BcastAddr: GRS154).
Outcome check_grs106(const NodeAddressView& v, Findings& out) {
  const std::string_view key = v.kv.spec->name;
  if (!v.valid() || key == "BcastAddr") return Outcome::proceed();
  const std::uint64_t count = v.address_count();
  auto slurm = count_fatal(key, count, v.node_count, v.profile.version());
  if (!slurm) return Outcome::proceed();
  out.report(GRS106, v.kv.value_span,
             fmt::format("{}={} names {} addresses for {} nodes", key, v.kv.value, count, v.node_count))
      .slurm(*slurm)
      .related(v.names_span, fmt::format("{} nodes here", v.node_count))
      .help(fmt::format("give exactly {} entries, or one", v.node_count));
  return Outcome::slurmctld_fatal(std::move(*slurm));
}

}  // namespace greslint::rules
