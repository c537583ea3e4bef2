// SPDX-License-Identifier: Apache-2.0
// GRS221 global-device-line: a gres.conf line with File= but no NodeName= makes nodes without that GRES open its devices (docs/rules/GRS221.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS221{"GRS221", "global-device-line", Severity::warning, Effect::fatal, Daemon::slurmd,
                      "a File= line without NodeName= applies to nodes without that GRES: slurmd there exits if the device is missing"};

// A global device line is read by every node, GPU-less ones too: slurmd stats each path
// there and exits after 20 s when it is missing (C11, gotcha 3).
Outcome check_grs221(const GresLoadView& v, Findings& out) {
  for (const GresRecord& r : v.records) {
    if (r.line->node_scoped || !r.files) continue;
    const bool wanted = std::any_of(v.configured.begin(), v.configured.end(),
                                    [&](const auto& kv) { return iequals(kv.first, r.name) && kv.second.present; });
    if (wanted || (v.configured.count(r.name) == 0 && !v.load.in_grestypes_nocase(r.name))) continue;
    v.load
        .report(out, GRS221, r.span_of("File"),
                fmt::format("this Name={} line has no NodeName=, so {} (which have no {} in slurm.conf) also open {}; "
                            "slurmd there waits 20 s and exits if the file is missing",
                            r.name, kNodes, r.name, *r.files))
        .slurm(fmt::format("can't stat gres.conf file {}: No such file or directory", r.paths.front()))
        .help(fmt::format("prefix the line with NodeName=<the {} nodes>", r.name));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
