// SPDX-License-Identifier: Apache-2.0
// GRS126 select-parameters-for-plugin: SelectTypeParameters the select plugin cannot use:
// select/linear with CR_CPU/CR_Core/CR_Socket, or cons_res/cons_tres without one of them
// (docs/rules/GRS126.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS126{"GRS126", "select-parameters-for-plugin", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "SelectTypeParameters the SelectType plugin cannot use: slurmctld exits"};

namespace {

std::uint16_t select_bits(const Settings& s, SlurmVersion v) {
  const KeyValue* kv = s.find("SelectTypeParameters");
  return kv ? parse_select_type_parameters(kv->value, v).bits : 0;
}

}  // namespace

// select_g_init: linear allocates whole nodes, so a per-CPU/core/socket mode is refused.
// 22.05's default SelectType is linear, so deleting the SelectType line lands here.
Outcome check_grs126_linear_select_parameters(const SelectPluginView& v, Findings& out) {
  if (v.select_type != "select/linear") return Outcome::proceed();
  const std::uint16_t bits = select_bits(v.settings, v.profile.version());
  if (!(bits & (kSelectCpu | kSelectCore | kSelectSocket))) return Outcome::proceed();
  const KeyValue* params = v.settings.find("SelectTypeParameters");
  const std::string line =
      fmt::format("Invalid SelectTypeParameters for {}: {} ({}), it can't contain CR_(CPU|CORE|SOCKET).",
                  v.select_type, select_type_param_string(bits, v.profile.version()), bits);
  auto b = out.report(GRS126, params->value_span,
                      fmt::format("SelectTypeParameters={} needs a consumable-resource plugin, and SelectType is "
                                  "select/linear{}",
                                  params->value, v.select ? "" : " (the default of " + v.profile.version().str() + ")"));
  b.slurm(line).help("set SelectType=select/cons_tres");
  if (v.select) b.related(v.select->value_span, "select/linear set here");
  return Outcome::slurmctld_fatal(line);
}

// The cons_res/cons_tres node init: they need a CPU, core or socket unit (CR_Memory alone
// has none). Without SelectTypeParameters they use CR_Core_Memory.
Outcome check_grs126_cons_select_parameters(const NodeTableView& v, Findings& out) {
  const std::string select = effective_select_type(v.settings, v.profile);
  if (select != "select/cons_tres" && select != "select/cons_res") return Outcome::proceed();
  const KeyValue* params = v.settings.find("SelectTypeParameters");
  const std::uint16_t bits = select_bits(v.settings, v.profile.version());
  if (!params || bits == 0 || (bits & (kSelectCpu | kSelectCore | kSelectSocket))) return Outcome::proceed();
  const std::string line = fmt::format("Invalid SelectTypeParameters: {} ({}), You need at least CR_(CPU|CORE|SOCKET)*",
                                       select_type_param_string(bits, v.profile.version()), bits);
  out.report(GRS126, params->value_span,
             fmt::format("SelectTypeParameters={} gives {} no CPU, core or socket unit", params->value, select))
      .slurm(line)
      .help("use CR_Core_Memory (or CR_CPU_Memory, CR_Socket_Memory)");
  return Outcome::slurmctld_fatal(line);
}

}  // namespace greslint::rules
