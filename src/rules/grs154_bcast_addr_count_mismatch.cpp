// SPDX-License-Identifier: Apache-2.0
// GRS154 bcast-addr-count-mismatch: BcastAddr count differs from the NodeName count: the
// daemons exit (docs/rules/GRS154.md).
#include <fmt/format.h>

#include <optional>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS154{"GRS154",          "bcast-addr-count-mismatch",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "BcastAddr count differs from the NodeName count: the daemons exit"};

namespace {

/// The line expand_nodeline_info exits with for `count` addresses and `names` names, if any.
/// From 24.11: one address, or one per name. Up to 24.05 it depends on the build: with
/// --enable-multiple-slurmd (Debian) the same test in other words; without it, fewer
/// addresses than names, even one (more are fine).
std::optional<std::string> count_fatal(std::uint64_t count, std::uint64_t names, SlurmVersion v) {
  if (count == 0 || count == names) return std::nullopt;
  if (v < kSlurm2411 && !v.multiple_slurmd) {
    if (count < names) return "At least as many BcastAddr are required as NodeName";
    return std::nullopt;
  }
  if (count == 1) return std::nullopt;
  if (v >= kSlurm2411) return "BcastAddr count must equal that of NodeName records or there must be no more than one";
  return "BcastAddr count must equal that of NodeName records, or there must be no more than one";
}

}  // namespace

Outcome check_grs154(const NodeAddressView& v, Findings& out) {
  if (!v.valid() || !iequals(v.kv.spec->name, "BcastAddr")) return Outcome::proceed();
  const std::uint64_t count = v.address_count();
  auto line = count_fatal(count, v.node_count, v.profile.version());
  if (!line) return Outcome::proceed();
  out.report(GRS154, v.kv.value_span,
             fmt::format("BcastAddr={} names {} addresses for {} nodes", v.kv.value, count, v.node_count))
      .slurm(*line)
      .related(v.names_span, fmt::format("{} nodes here", v.node_count))
      .help(fmt::format("give exactly {} addresses, or one", v.node_count));
  return Outcome::slurmctld_fatal(std::move(*line));
}

}  // namespace greslint::rules
