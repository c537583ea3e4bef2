// SPDX-License-Identifier: Apache-2.0
// GRS210 multiplefiles-single-file: MultipleFiles= with one file: slurmd exits (docs/rules/GRS210.md).
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS210{"GRS210", "multiplefiles-single-file", Severity::error, Effect::fatal, Daemon::slurmd,
                      "MultipleFiles= with one file: slurmd exits"};

Outcome check_grs210(const GresRecordView& v, Findings& out) {
  const KeyValue* mf = v.keys.multiple_files;
  if (!mf || v.record.paths.size() >= 2) return Outcome::proceed();
  v.load.report(out, GRS210, mf->value_span, "MultipleFiles= names a single file")
      .slurm("MultipleFiles does not contain multiple files. Use File instead")
      .help("use File= for a single device file");
  return Outcome::slurmd_fatal("MultipleFiles does not contain multiple files. Use File instead");
}

}  // namespace greslint::rules
