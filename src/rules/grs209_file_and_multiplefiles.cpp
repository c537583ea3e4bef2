// SPDX-License-Identifier: Apache-2.0
// GRS209 file-and-multiplefiles: File= and MultipleFiles= on one line: slurmd exits (docs/rules/GRS209.md).
#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS209{"GRS209", "file-and-multiplefiles", Severity::error, Effect::fatal, Daemon::slurmd,
                      "File= and MultipleFiles= on one line: slurmd exits"};

Outcome check_grs209(const GresRecordView& v, Findings& out) {
  if (!v.keys.file || !v.keys.multiple_files) return Outcome::proceed();
  v.load.report(out, GRS209, v.keys.multiple_files->key_span, "File= and MultipleFiles= cannot both be given")
      .slurm("File and MultipleFiles options are mutually exclusive")
      .help("use MultipleFiles= for one MIG device made of several files, File= otherwise");
  return Outcome::slurmd_fatal("File and MultipleFiles options are mutually exclusive");
}

}  // namespace greslint::rules
