// SPDX-License-Identifier: Apache-2.0
// GRS215 invalid-file-hostlist: File= is not a valid device list: slurmd exits (docs/rules/GRS215.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS215{"GRS215", "invalid-file-hostlist", Severity::error, Effect::fatal, Daemon::slurmd,
                      "File= is not a valid device list: slurmd exits"};

// _parse_gres_config expands File= (or MultipleFiles=) as a hostlist.
Outcome check_grs215(const GresRecordView& v, Findings& out) {
  if (!v.file_list || v.file_list->ok()) return Outcome::proceed();
  const KeyValue* kv = v.keys.file ? v.keys.file : v.keys.multiple_files;
  v.load.report(out, GRS215, kv->value_span, fmt::format("{}={} is not a valid device list", kv->key, kv->value))
      .slurm(fmt::format("can't parse File={}", kv->value))
      .help("write device ranges like /dev/nvidia[0-3]");
  return Outcome::slurmd_fatal(fmt::format("can't parse File={}", kv->value));
}

}  // namespace greslint::rules
