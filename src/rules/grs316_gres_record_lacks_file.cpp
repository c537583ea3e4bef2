// SPDX-License-Identifier: Apache-2.0
// GRS316 gres-record-lacks-file: a record without File= after one with File= for the same GRES: slurmctld logs it and counts it anyway (docs/rules/GRS316.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS316{"GRS316", "gres-record-lacks-file", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a record without File= after one with File= for the same GRES: slurmctld logs it and counts it anyway"};

// slurmctld unpacks the node's records in slurmd's order and remembers, per GRES, that one had
// a File=; a later record of the GRES with a count and no File= is logged and then treated as
// if it had one. slurmd makes such a record itself for the part of a slurm.conf count that
// gres.conf does not cover (_merge_gres2), and the mps/shard plugins never see it when their
// GRES only counts (Flags=CountOnly on its first record).
Outcome check_grs316(const RegistrationView& v, Findings& out) {
  const auto& recs = v.records;
  const auto with_file = std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.files.has_value(); });
  // Under AutoDetect a File-less GPU stands for the devices slurmd finds, each with its file.
  const auto odd_at = std::find_if(with_file, recs.end(),
                                   [&](const GresRecord& r) { return !r.files && r.count > 0 && !v.autodetect_gpu; });
  if (odd_at == recs.end()) return Outcome::proceed();
  const GresRecord& odd = *odd_at;
  const bool made_up = odd.line == nullptr;
  out.report(GRS316, made_up ? odd.origin : odd.line->d->head().value_span,
             made_up ? fmt::format("gres.conf gives {} only part of the {} slurm.conf configures; slurmd adds the other "
                                   "{} without File=, after {} with File=, and slurmctld logs it",
                                   kNodes, v.name, odd.count, v.name)
                     : fmt::format("this {} line has no File= while an earlier {} line for {} has one; slurmctld "
                                   "logs it",
                                   v.name, v.name, kNodes))
      .slurm(fmt::format("{}: gres/{} lacks \"File=\" parameter for node {}",
                         v.profile.version() >= kSlurm2511 ? "_add_to_gres_conf_list" : "gres_node_config_unpack",
                         v.name, v.rep))
      .help(made_up ? fmt::format("make the gres.conf lines for {} add up to the slurm.conf count", v.name)
                    : fmt::format("give every {} line a File=, or none", v.name));
  return Outcome::degraded();
}

}  // namespace greslint::rules
