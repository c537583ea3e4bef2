// SPDX-License-Identifier: Apache-2.0
// GRS213 glued-device-path: a line continuation glued the next line's key onto a File= path: slurmd cannot stat it and exits (docs/rules/GRS213.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS213{"GRS213", "glued-device-path", Severity::error, Effect::fatal, Daemon::slurmd,
                      "a line continuation glued the next line's key onto a File= path: slurmd cannot stat it and exits"};

namespace {

/// Whether a line continuation runs through the value: the reader drops the backslash and
/// the newline, so the value's text in the file is longer than the value Slurm reads.
bool continued_inside(const KeyValue& kv) { return kv.value_span.size() > kv.value.size(); }

/// The first device path of the list that holds the next line's `Key=` word, glued on by a
/// continuation: a path no node has, whatever devices it has. Empty when there is none (a
/// path split across two lines on purpose, `/dev/nvidia\` then `0`, is still a path).
std::string first_glued_path(const KeyValue& kv, const HostlistResult& list) {
  if (!continued_inside(kv) || kv.value.find('=') == std::string_view::npos) return {};
  std::string found;
  list.list->for_each([&](const std::string& path, const HostRange&) {
    if (found.empty() && path.find('=') != std::string::npos) found = path;
  });
  return found;
}

}  // namespace

// _validate_file stats every path of File= (or MultipleFiles=) as _parse_gres_config reads
// the record, before its Flags=, Links= and Count=, and exits when one is missing after
// waiting 20 s. greslint takes the device files a configuration names to exist, but not a
// path that a continuation made of a device and the next line's `Flags=...` (GRS007).
Outcome check_grs213(const GresRecordView& v, Findings& out) {
  if (!v.file_list || !v.file_list->ok()) return Outcome::proceed();
  const KeyValue* kv = v.keys.file ? v.keys.file : v.keys.multiple_files;
  const std::string path = first_glued_path(*kv, *v.file_list);
  if (path.empty()) return Outcome::proceed();
  std::string slurm = fmt::format("can't stat gres.conf file {}: No such file or directory", path);
  v.load
      .report(out, GRS213, kv->value_span,
              fmt::format("the line continuation glued the next line's first word onto {}=: slurmd stats \"{}\", "
                          "which is no device, on {}, waits 20 s for it and exits",
                          kv->key, path, kNodes))
      .slurm(slurm)
      .help("end the continued line with a space before the backslash");
  return Outcome::slurmd_fatal(std::move(slurm));
}

}  // namespace greslint::rules
