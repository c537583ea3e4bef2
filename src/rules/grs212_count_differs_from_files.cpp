// SPDX-License-Identifier: Apache-2.0
// GRS212 count-differs-from-files: gres.conf Count= differs from the number of File= devices: slurmd exits (docs/rules/GRS212.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "model/shared_gres.hpp"

namespace greslint::rules {

const RuleInfo GRS212{"GRS212", "count-differs-from-files", Severity::error, Effect::fatal, Daemon::slurmd,
                      "gres.conf Count= differs from the number of File= devices: slurmd exits"};

// _parse_gres_config: Count= must agree with the device files, except for the shared names,
// whose count is how many jobs share them. A MultipleFiles= line is one device.
Outcome check_grs212(const GresRecordView& v, Findings& out) {
  const GresRecord& r = v.record;
  const std::uint64_t from_files = r.files ? r.count : 0;
  if (!v.count_value || !from_files || *v.count_value == from_files || model::is_shared_name(r.name))
    return Outcome::proceed();
  const std::string_view count = v.count->value;
  std::string slurm = fmt::format("Invalid GRES record for {}, count does not match File value", r.name);
  const KeyValue* files_kv = v.keys.file ? v.keys.file : v.keys.multiple_files;
  auto b = r.multiple_files
               ? v.load.report(out, GRS212, v.count->value_span,
                               fmt::format("Count={} on a MultipleFiles= line, which is one device (count 1)", count))
               : v.load.report(out, GRS212, v.count->value_span,
                               fmt::format("Count={} but File= lists {} device{}", count, r.paths.size(),
                                           r.paths.size() == 1 ? "" : "s"));
  b.slurm(slurm)
      .related(files_kv->value_span,
               r.multiple_files ? std::string("one device here") : fmt::format("{} devices here", r.paths.size()))
      .help(r.multiple_files ? std::string("remove Count= (or write Count=1)")
                             : fmt::format("remove Count= (it defaults to the number of files), or set Count={}",
                                           r.paths.size()));
  return Outcome::slurmd_fatal(std::move(slurm));
}

}  // namespace greslint::rules
