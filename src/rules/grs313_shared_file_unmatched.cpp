// SPDX-License-Identifier: Apache-2.0
// GRS313 shared-file-unmatched: an mps/shard line names device files no gpu line has: its count is discarded (docs/rules/GRS313.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "model/shared_gres.hpp"

namespace greslint::rules {

const RuleInfo GRS313{"GRS313", "shared-file-unmatched", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "an mps/shard line names device files no gpu line has: its count is discarded"};

// gres_c_s.c: a shared record's device file no GPU record takes is discarded, with its count.
Outcome check_grs313(const GresPluginView& v, Findings& out) {
  if (!v.share || v.share->discarded.empty()) return Outcome::proceed();
  for (const model::ShareOutcome::Discarded& d : v.share->discarded) {
    const Span at = d.from.span_of(d.from.multiple_files ? "MultipleFiles" : "File");
    const std::string message =
        d.file_is_a_gpu ? fmt::format(
                              "a second {} line for {} on {}: the GPU keeps the first one's count, Slurm discards "
                              "this one",
                              v.name, d.file, kNodes)
                        : fmt::format("{} File={} names a device file that no gpu line on {} has; Slurm discards it",
                                      v.name, d.file, kNodes);
    out.report(GRS313, at, message)
        .slurm(fmt::format("Discarding gres/'shared' configuration (File={}) without matching gres/'sharing' record",
                           d.file))
        .help(d.file_is_a_gpu ? "give each GPU one line (or one File-less line for all)"
                              : "use the GPUs' exact device paths");
  }
  return Outcome::degraded();
}

}  // namespace greslint::rules
