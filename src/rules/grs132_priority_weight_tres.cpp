// SPDX-License-Identifier: Apache-2.0
// GRS132 invalid-priority-weight-tres: priority/multifactor cannot parse PriorityWeightTRES:
// slurmctld exits (docs/rules/GRS132.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/tres_weights.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS132{"GRS132", "invalid-priority-weight-tres", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "priority/multifactor cannot parse PriorityWeightTRES: slurmctld exits"};

namespace {

bool runs_multifactor(const SlurmConfView& v) {
  const KeyValue* type = v.settings.find("PriorityType");
  if (type) return type->value == "priority/multifactor";
  return v.profile.version() >= kSlurm2311;  // read_config.h DEFAULT_PRIORITY_TYPE
}

}  // namespace

// priority/multifactor's init (_internal_setup) parses PriorityWeightTRES with fail=true:
// the first item it cannot take ends slurmctld. 22.05 loads the plugin after
// read_slurm_conf, 23.02+ before it (Analyzer::run places the stage). priority/basic never
// reads the weights; the default plugin is basic up to 23.02 and multifactor from 23.11.
Outcome check_grs132_priority_weight_tres(const SlurmConfView& v, Findings& out) {
  const KeyValue* weights = v.settings.find("PriorityWeightTRES");
  if (!weights || weights->value.empty() || !runs_multifactor(v)) return Outcome::proceed();
  const auto error = tres_weights_error(weights->value, v.settings);
  if (!error) return Outcome::proceed();
  std::string slurm = tres_weights_fatal(weights->value);
  const KeyValue* plugin = v.settings.find("PriorityType");
  const std::string which =
      plugin ? std::string("priority/multifactor")
             : fmt::format("priority/multifactor (Slurm {}'s default PriorityType)", v.profile.version().str());
  auto b = out.report(GRS132, weights->value_span,
                      fmt::format("{} cannot take PriorityWeightTRES item '{}': {}", which, error->item, error->error));
  b.slurm(slurm).help(std::string(kTresWeightsHelp));
  if (plugin) b.related(plugin->value_span, "priority plugin chosen here");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
