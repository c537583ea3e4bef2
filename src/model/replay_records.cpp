// SPDX-License-Identifier: Apache-2.0
// Stage C of the replay: slurmd reads gres.conf for one node class (slurm-semantics.md §5),
// line by line in _parse_gres_config's order of keys. The model reads each line into a
// record; the checks of each step are the registry's (kGresRecordStage and the others).
#include <algorithm>
#include <fmt/format.h>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "model/gres_flags.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {

bool Analyzer::known_autodetect(std::string_view value) const {
  if (iequals(value, "off")) return true;
  for (std::string_view v : profile_.autodetect_values())
    if (v != "off" && icontains(value, v)) return true;
  return false;
}

bool Analyzer::apply_load(ClassReplay& rp, const rules::Outcome& o) {
  switch (o.kind()) {
    case rules::Outcome::Kind::proceed:
      return true;
    case rules::Outcome::Kind::degraded:
    case rules::Outcome::Kind::skip_record:
      degrade(rp.cls);
      return true;
    case rules::Outcome::Kind::drain:
      drain(rp.cls, o.reason());
      return true;
    case rules::Outcome::Kind::slurmd_fatal:
      fatal(rp.cls, rp.load_fatal, o.reason());
      return false;
    case rules::Outcome::Kind::slurmctld_fatal:
      fatal(rp.cls, Verdict::slurmctld_fatal, o.reason());
      return false;
  }
  return true;
}

rules::GresLoadView Analyzer::load_view(const ClassReplay& rp) const {
  return rules::GresLoadView{rp.load,
                             global_autodetect_kv_,
                             global_autodetect_kv_ && known_autodetect(global_autodetect_),
                             rp.conf,
                             rp.records,
                             rp.autodetect_active};
}

bool Analyzer::read_records(ClassReplay& rp) {
  std::vector<const GresLine*> by_file = rp.lines;
  std::sort(by_file.begin(), by_file.end(), [](auto* a, auto* b) { return a->file_order < b->file_order; });
  std::vector<std::pair<const GresLine*, GresRecord>> parsed;
  PreviousFlags previous_flags;
  for (const GresLine* line : by_file) {
    GresRecord r;
    const LineRead read = read_line(rp, *line, previous_flags, r);
    if (read == LineRead::stop) return false;
    if (read == LineRead::record) parsed.emplace_back(line, std::move(r));
  }
  // s_p_parse_file reads every line, running each record's checks, before it fails: a
  // record's fatal anywhere in the file comes before the parse error.
  if (gres_.failed) {
    fatal(rp.cls, rp.load_fatal, fmt::format("error opening/reading {}", in_.gres_conf_path));
    return false;
  }
  // The file's own AutoDetect= line is taken once every record is read
  // (_handle_global_autodetect), and not at all for a node whose NodeName= line set its own:
  // a value this release does not know is then never looked at (s2042 m249).
  if (!rp.node_autodetect &&
      run_load_stage(rp, rules::kGresConfAutoDetectStage, load_view(rp)) == LineRead::stop)
    return false;
  // Slurm's record list: every Name= record, then every NodeName= record.
  std::vector<GresRecord>& records = rp.records;
  for (auto& [line, r] : parsed)
    if (!line->node_scoped) records.push_back(r);
  for (auto& [line, r] : parsed)
    if (line->node_scoped) records.push_back(r);
  rp.cls.autodetect = rp.node_autodetect ? *rp.node_autodetect : global_autodetect_;
  rp.autodetect_active =
      !rp.cls.autodetect.empty() && !iequals(rp.cls.autodetect, "off") && known_autodetect(rp.cls.autodetect);
  // The gpu plugin detects the GPUs; a gpu that only counts loads none (s2031 m553).
  rp.gpus_detected = rp.autodetect_active && !counts_only(rp.records, "gpu");
  return run_load_stage(rp, rules::kGresNodeRecordsStage, load_view(rp)) != LineRead::stop;
}

// _parse_gres_config's order: AutoDetect, Name, Cores, File, MultipleFiles, Flags, Links,
// Count; the name is checked against GresTypes last, so a record of a GRES slurmd then
// ignores can still be fatal.
Analyzer::LineRead Analyzer::read_line(ClassReplay& rp, const GresLine& line, PreviousFlags& previous,
                                       GresRecord& r) {
  const Directive& d = *line.d;
  const GresLineKeys keys = keys_of(line);
  const KeyValue* autodetect = keys.autodetect;
  const Topology& topo = rp.node.topo;
  r.line = &line;
  if (keys.name) r.name = keys.name->value;
  if (keys.type) r.type = keys.type->value;
  bool cores_fit_cpus = true;
  if (keys.cores) {
    r.cores = keys.cores->value;
    r.core_bits = parse_core_list(keys.cores->value, topo.core_count());
    cores_fit_cpus = !rp.node.cloud || parse_core_list(keys.cores->value, topo.cpus).has_value();
  }
  const KeyValue* files_kv = keys.file ? keys.file : keys.multiple_files;
  std::optional<HostlistResult> file_list;
  if (keys.name && files_kv && !(keys.file && keys.multiple_files))
    file_list = parse_hostlist(files_kv->value, files_kv->value_span, profile_);
  rules::GresRecordView view{rp.load,
                             line,
                             keys,
                             r,
                             rp.node_autodetect,
                             autodetect && known_autodetect(autodetect->value),
                             cores_fit_cpus,
                             file_list ? &*file_list : nullptr,
                             sources_.text(Span{d.head().key_span.file, d.head().value_span.end, d.span.end})};
  const LineRead keys_read = run_load_stage(rp, rules::kGresRecordStage, view);
  if (keys_read == LineRead::stop) return LineRead::stop;
  if (autodetect && line.node_scoped && view.autodetect_known) rp.node_autodetect = autodetect->value;
  if (keys_read == LineRead::skip) return LineRead::skip;

  if (file_list) {
    spend(file_list->list->size(), files_kv->value_span);
    r.paths = file_list->list->expand();
    r.files = files_kv->value;
    r.multiple_files = keys.multiple_files != nullptr;
    r.count = r.multiple_files ? 1 : r.paths.size();
  } else {
    r.count = 1;
  }
  view.flags = d.find("Flags");
  if (view.flags) r.flags = view.flags->value;
  // Flags are checked against and inherited from the previous record of the same name (§5.6).
  view.flags_check = previous.take(r.name, view.flags, profile_);
  view.links = d.find("Links");
  if (!view.links) view.links = d.find("Link");
  const std::string links_error = view.links ? validate_links(view.links->value) : std::string();
  view.links_error = links_error;
  view.count = d.find("Count");
  if (view.count) view.count_value = parse_gres_count(view.count->value);
  const LineRead read = run_load_stage(rp, rules::kGresRecordAfterFilesStage, view);
  if (read != LineRead::record) return read;
  if (view.links && links_error.empty()) r.links = view.links->value;
  if (view.count_value) r.count = *view.count_value;
  return LineRead::record;
}

}  // namespace greslint::model
