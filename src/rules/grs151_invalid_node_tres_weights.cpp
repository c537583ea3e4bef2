// SPDX-License-Identifier: Apache-2.0
// GRS151 invalid-node-tres-weights: a NodeName line's TRESWeights slurmctld cannot parse:
// slurmctld exits (docs/rules/GRS151.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/tres_weights.hpp"

namespace greslint::rules {

const RuleInfo GRS151{"GRS151",          "invalid-node-tres-weights",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "a NodeName line's TRESWeights slurmctld cannot parse: slurmctld exits"};

// slurmctld parses each NodeName line's TRESWeights (its own or NodeName=DEFAULT's) as it
// builds the line's config record, before it expands the names; slurmd does not parse them.
Outcome check_grs151(const NodeNameLineView& v, Findings& out) {
  if (v.kind != NodeNameLineView::Kind::nodes || !v.tres_weights || v.tres_weights->value.empty())
    return Outcome::proceed();
  const auto error = tres_weights_error(v.tres_weights->value, v.settings);
  if (!error) return Outcome::proceed();
  std::string line = tres_weights_fatal(v.tres_weights->value);
  // An inherited value is reported on the line that takes it, which is where Slurm fails.
  const bool own = v.tres_weights == v.d.find("TRESWeights");
  auto b = out.report(GRS151, own ? v.tres_weights->value_span : v.d.head().value_span,
                      fmt::format("slurmctld cannot take TRESWeights item '{}' of NodeName={}: {}", error->item,
                                  v.d.head().value, error->error));
  b.slurm(line).help(std::string(kTresWeightsHelp));
  if (!own) b.related(v.tres_weights->value_span, "TRESWeights set by NodeName=DEFAULT here");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
