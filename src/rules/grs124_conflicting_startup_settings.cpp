// SPDX-License-Identifier: Apache-2.0
// GRS124 conflicting-startup-settings: slurm.conf settings that are fine alone but that
// read_config.c refuses together: every daemon exits (docs/rules/GRS124.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS124{"GRS124", "conflicting-startup-settings", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "slurm.conf settings Slurm refuses together: every daemon exits"};

namespace {

Outcome conflict(Findings& out, const KeyValue& kv, const KeyValue* other, std::string what, std::string line,
                 std::string help, bool own_fatal) {
  auto b = out.report(GRS124, kv.value_span, std::move(what));
  b.slurm(line).help(std::move(help));
  if (other) b.related(other->value_span, fmt::format("{} set here", other->spec ? other->spec->name : other->key));
  return Outcome::slurmctld_fatal(own_fatal ? std::move(line) : std::string(kUnableToProcess));
}

}  // namespace

Outcome check_grs124_job_acct_gather_params(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("JobAcctGatherParams");
  if (!kv || !icontains(kv->value, "UsePss") || !icontains(kv->value, "NoShare")) return Outcome::proceed();
  return conflict(out, *kv, nullptr, "JobAcctGatherParams has both UsePSS and NoShared",
                  "JobAcctGatherParams options UsePSS and NoShared are mutually exclusive.", "keep one of them", true);
}

Outcome check_grs124_launch_parameters(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("LaunchParameters");
  if (!kv || !icontains(kv->value, "enable_nss_slurm") || !icontains(kv->value, "disable_send_gids"))
    return Outcome::proceed();
  return conflict(out, *kv, nullptr, "LaunchParameters has both enable_nss_slurm and disable_send_gids",
                  "LaunchParameters options enable_nss_slurm and disable_send_gids are mutually exclusive.",
                  "keep one of them", true);
}

// FirstJobId defaults to 1 and MaxJobId to 0x03ff0000.
Outcome check_grs124_first_job_id_above_max(const SlurmConfView& v, Findings& out) {
  const KeyValue* first = v.settings.find("FirstJobId");
  const KeyValue* max = v.settings.find("MaxJobId");
  if (!first && !max) return Outcome::proceed();
  const long long first_id = first ? slurm_number(first->value).value_or(1) : 1;
  const long long max_id = max ? std::min(slurm_number(max->value).value_or(0x03ff0000), 0x03ff0000LL) : 0x03ff0000;
  if (first_id <= max_id) return Outcome::proceed();
  return conflict(out, first ? *first : *max, first ? max : nullptr,
                  fmt::format("FirstJobId={} is above MaxJobId={}", first_id, max_id), "FirstJobId > MaxJobId",
                  "lower FirstJobId or raise MaxJobId", false);
}

Outcome check_grs124_mcs(const SlurmConfView& v, Findings& out) {
  const KeyValue* params = v.settings.find("MCSParameters");
  const KeyValue* plugin = v.settings.find("MCSPlugin");
  if (params && (!plugin || iequals(plugin->value, "mcs/none")) && !plugin)
    return conflict(out, *params, nullptr, "MCSParameters without an MCSPlugin",
                    fmt::format("MCSParameters={} used and no MCSPlugin", params->value), "set MCSPlugin, or drop MCSParameters",
                    false);
  if (plugin && iequals(plugin->value, "mcs/group") && !params)
    return conflict(out, *plugin, nullptr, "MCSPlugin=mcs/group without MCSParameters",
                    "MCSPlugin is mcs/group and no MCSParameters", "set MCSParameters=ondemand,...:group1|group2",
                    false);
  return Outcome::proceed();
}

// Mode SUSPEND alone needs gang scheduling (PreemptMode=SUSPEND,GANG).
Outcome check_grs124_preempt_type(const SlurmConfView& v, Findings& out) {
  const KeyValue* mode_kv = v.settings.find("PreemptMode");
  const auto mode = mode_kv ? parse_preempt_mode(mode_kv->value) : std::optional<PreemptMode>(PreemptMode{});
  if (!mode) return Outcome::proceed();  // GRS123
  using Mode = PreemptMode::Mode;
  if (mode_kv && mode->mode == Mode::suspend && !mode->gang && !mode->within)
    return conflict(out, *mode_kv, nullptr, "PreemptMode=SUSPEND needs GANG", "PreemptMode=SUSPEND requires GANG too",
                    "write PreemptMode=SUSPEND,GANG", false);
  const KeyValue* type = v.settings.find("PreemptType");
  const std::string_view preempt_type = type ? type->value : "preempt/none";
  const bool off = mode->mode == Mode::off;
  const bool incompatible = ((preempt_type == "preempt/qos" || preempt_type == "preempt/partition_prio") && off) ||
                            (preempt_type == "preempt/none" && (!off || mode->within));
  if (!incompatible) return Outcome::proceed();
  const KeyValue& at = type ? *type : *mode_kv;
  return conflict(out, at, type ? mode_kv : nullptr,
                  fmt::format("PreemptType={} does not go with PreemptMode={}", preempt_type,
                              mode_kv ? mode_kv->value : "OFF (the default)"),
                  "PreemptType and PreemptMode values incompatible",
                  off ? "set PreemptMode (e.g. REQUEUE) for this PreemptType" : "set a PreemptType, or PreemptMode=OFF",
                  false);
}

// MaxNodeCount reserves room for dynamic nodes, which only cons_tres supports.
Outcome check_grs124_max_node_count(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("MaxNodeCount");
  const auto n = kv ? slurm_number(kv->value) : std::nullopt;
  if (!n || *n == 0) return Outcome::proceed();
  const std::string select = effective_select_type(v.settings, v.profile);
  if (select.find("cons_tres") != std::string::npos) return Outcome::proceed();
  return conflict(out, *kv, v.settings.find("SelectType"),
                  fmt::format("MaxNodeCount needs select/cons_tres, and SelectType is {}{}", select,
                              v.settings.find("SelectType") ? "" : " (the default of " + v.profile.version().str() + ")"),
                  "MaxNodeCount only compatible with cons_tres", "set SelectType=select/cons_tres, or drop MaxNodeCount",
                  false);
}

Outcome check_grs124_linear_with_topology_tree(const SlurmConfView& v, Findings& out) {
  if (v.profile.version() < kSlurm2405) return Outcome::proceed();
  const KeyValue* topo = v.settings.find("TopologyPlugin");
  if (!topo || topo->value != "topology/tree") return Outcome::proceed();
  if (effective_select_type(v.settings, v.profile) != "select/linear") return Outcome::proceed();
  return conflict(out, *topo, v.settings.find("SelectType"), "select/linear does not support topology/tree",
                  "select/linear with topology/tree is not supported. Please switch to select/cons_tres or stop using "
                  "topology/tree.",
                  "set SelectType=select/cons_tres", true);
}


}  // namespace greslint::rules
