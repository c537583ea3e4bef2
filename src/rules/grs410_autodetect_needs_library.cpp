// SPDX-License-Identifier: Apache-2.0
// GRS410 autodetect-needs-library: AutoDetect needs a slurmd built with the GPU library and
// the library on the node (docs/rules/GRS410.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS410{"GRS410", "autodetect-needs-library", Severity::note, Effect::advice, Daemon::slurmd,
                      "AutoDetect needs a slurmd built with the GPU library and the library on the node"};

// gpu.c:_get_gpu_type loads the AutoDetect library when slurmd starts and only logs when it
// is missing. One note, for the first GPU node class where such an AutoDetect takes effect
// (nvidia, from 24.11, needs no library).
Outcome check_grs410(const PolicyView& v, Findings& out) {
  auto needs_library = [&](std::string_view value) {
    if (icontains(value, "nvidia") && !icontains(value, "nvml")) return false;
    for (std::string_view known : v.profile.autodetect_values())
      if (known != "off" && known != "nvidia" && icontains(value, known)) return true;
    return false;
  };
  for (const NodeClass& c : v.classes) {
    if (c.nodes.empty() || !v.gpus.has_gpu(c.nodes.front()) || !needs_library(c.autodetect)) continue;
    const KeyValue* where =
        v.global_autodetect && c.autodetect == v.global_autodetect_value ? v.global_autodetect : nullptr;
    for (const GresLine& line : v.gres_lines) {
      if (where) break;
      if (const KeyValue* a = line.d->find("AutoDetect"); a && line.node_scoped && a->value == c.autodetect) where = a;
    }
    if (!where) return Outcome::proceed();
    std::string slurm;
    if (icontains(where->value, "nvml"))
      slurm = "We were configured with nvml functionality, but that lib wasn't found on the system.";
    else if (icontains(where->value, "rsmi"))
      slurm = "Configured with rsmi, but that lib wasn't found.";
    out.report(GRS410, where->value_span,
               fmt::format("AutoDetect={} needs a slurmd built with that library and the library on each node; "
                           "otherwise slurmd only logs it and detects nothing",
                           where->value))
        .slurm(slurm)
        .help("check `slurmd -G` on a GPU node, or list the devices with File=");
    return Outcome::proceed();
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
