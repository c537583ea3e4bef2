// SPDX-License-Identifier: Apache-2.0
// GRS152 invalid-partition-billing-weights: a partition's TRESBillingWeights slurmctld cannot
// parse: slurmctld exits (docs/rules/GRS152.md).
#include <fmt/format.h>

#include <string>
#include <unordered_set>

#include "rules.hpp"
#include "rules/tres_weights.hpp"

namespace greslint::rules {

const RuleInfo GRS152{"GRS152",          "invalid-partition-billing-weights",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "a partition's TRESBillingWeights slurmctld cannot parse: slurmctld exits"};

// _build_single_partitionline_info builds the partitions in file order: a name seen before
// stops slurmctld at once (GRS131), otherwise the partition's billing weights are parsed
// with fail set. So only partitions before the first duplicate are reached.
Outcome check_grs152(const NodeTableView& v, Findings& out) {
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < v.partitions.size(); ++i) {
    const Directive& d = *v.partitions[i];
    if (!seen.emplace(d.head().value).second) break;
    const KeyValue* weights = v.billing_weights[i];
    if (!weights || weights->value.empty()) continue;
    const auto error = tres_weights_error(weights->value, v.settings);
    if (!error) continue;
    std::string line = tres_weights_fatal(weights->value);
    const bool own = weights == d.find("TRESBillingWeights");  // else reported on the partition that takes it
    auto b = out.report(GRS152, own ? weights->value_span : d.head().value_span,
                        fmt::format("slurmctld cannot take TRESBillingWeights item '{}' of PartitionName={}: {}",
                                    error->item, d.head().value, error->error));
    b.slurm(line).help(std::string(kTresWeightsHelp));
    if (!own) b.related(weights->value_span, "TRESBillingWeights set by PartitionName=DEFAULT here");
    return Outcome::slurmctld_fatal(std::move(line));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
