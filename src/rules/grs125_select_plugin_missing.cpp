// SPDX-License-Identifier: Apache-2.0
// GRS125 select-plugin-missing: SelectType names a select plugin this release does not
// ship: slurmctld exits when it loads the plugins, before it reads GresTypes
// (docs/rules/GRS125.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS125{"GRS125", "select-plugin-missing", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "SelectType names a select plugin this Slurm release does not have: slurmctld exits"};

namespace {

// src/plugins/select/ at each release tag. Upstream builds cray_aries on Cray systems only, but
// Debian's build (slurm-wlm) ships select_cray_aries.so, and its 22.05.8 slurmctld loads
// SelectType=select/cray_aries on an ordinary host (layered on cons_res with other_cons_res:
// rw55_cray_smw_aries_craynetwork). Upstream removed the plugin in 24.05.
bool release_has(std::string_view plugin, const VersionProfile& p) {
  if (plugin == "select/cons_tres" || plugin == "select/linear") return true;
  if (plugin == "select/cons_res") return !p.cons_res_removed();
  if (plugin == "select/cray_aries") return p.version().multiple_slurmd && p.version() < kSlurm2405;
  return false;
}

}  // namespace

// Plugin names are matched exactly, as plugrack compares them.
Outcome check_grs125_select_plugin(const SelectPluginView& v, Findings& out) {
  if (!v.select || release_has(v.select_type, v.profile)) return Outcome::proceed();
  const bool removed = v.select_type == "select/cons_res";
  const std::string line = v.profile.version() >= kSlurm2505 ? std::string("failed to initialize node selection plugin")
                                                              : fmt::format("Can't find plugin for {}", v.select_type);
  out.report(GRS125, v.select->value_span,
             removed ? fmt::format("select/cons_res was removed in Slurm 23.11; slurmctld {} cannot load it",
                                   v.profile.version().str())
                     : fmt::format("SelectType={} is not a select plugin of Slurm {}", v.select_type,
                                   v.profile.version().str()))
      .slurm(v.profile.version() >= kSlurm2505 ? fmt::format("cannot create select context for {}", v.select_type)
                                               : line)
      .help("set SelectType=select/cons_tres");
  return Outcome::slurmctld_fatal(line);
}

}  // namespace greslint::rules
