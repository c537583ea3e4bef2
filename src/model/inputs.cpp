// SPDX-License-Identifier: Apache-2.0
// Reading the three files the daemons read, from disk or from text held in memory.
#include <fmt/format.h>

#include "model/analyzer.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint {

void Settings::set(const KeyValue& kv) { by_key_[to_lower(kv.spec->name)] = kv; }

const KeyValue* Settings::find(std::string_view key) const {
  auto it = by_key_.find(to_lower(key));
  return it == by_key_.end() ? nullptr : &it->second;
}

namespace model {

namespace {

/// One file, from `text` when the run is in memory (a missing text is a missing file), else
/// from disk. Includes are read from disk either way, relative to slurm.conf's directory.
ConfigFile read_file(const std::string& path, bool in_memory, const std::optional<std::string>* text,
                     const ReadOptions& opts, const VersionProfile& profile, SourceManager& sources, Reporter& out) {
  ConfigFile file;
  if (!in_memory) {
    file = read_config_file(path, opts, profile, sources, out);
  } else if (*text) {
    file = parse_config_text(sources.add(path, **text), opts, profile, sources, out);
  } else {
    file.path = path;
  }
  if (file.truncated) throw LimitExceeded{};
  return file;
}

}  // namespace

ReadOptions Analyzer::read_options(KeyTable table) const {
  ReadOptions opts;
  opts.table = table;
  opts.slurm_conf_dir = dirname_of(in_.slurm_conf_path);
  opts.prefix_map = in_.prefix_map;
  opts.cores = &cores_;
  if (table == KeyTable::gres_conf)
    if (const KeyValue* c = setting("ClusterName")) opts.cluster_name = c->value;
  return opts;
}

ConfigFile Analyzer::read(const std::string& path, const std::optional<std::string>* text, KeyTable table) {
  return read_file(path, texts_ != nullptr, text, read_options(table), profile_, sources_, out_);
}

void Analyzer::read_slurm_conf() {
  const std::optional<std::string> text = texts_ ? std::optional<std::string>(texts_->slurm_conf) : std::nullopt;
  slurm_ = read(in_.slurm_conf_path, &text, KeyTable::slurm_conf);
  slurm_index_ = DirectiveIndex(slurm_.directives);
  for (const Directive* d : slurm_index_.settings()) settings_.set(d->head());
  if (slurm_.failed) ctld_.apply(rules::Outcome::slurmctld_fatal("Unable to process configuration file"));
}

void Analyzer::start_gres_conf_read() {
  // Everything the read uses is copied here or never changes during the run. ClusterName is
  // not known yet: the read is redone in turn if it needed it (ReadAhead::place).
  gres_ahead_.emplace(
      [path = in_.gres_conf_path, in_memory = texts_ != nullptr, text = texts_ ? &texts_->gres_conf : nullptr,
       opts = read_options(KeyTable::gres_conf), &profile = profile_](SourceManager& sources, Reporter& out) {
        return read_file(path, in_memory, text, opts, profile, sources, out);
      },
      // This thread reads gres_ahead_records_ only after finish().
      [&records = gres_ahead_records_, &profile = profile_, cores = &cores_](
          ConfigFile& file, std::uint16_t directives_by, const SourceManager& sources, Reporter& out) {
        records = gather_gres_records(file, profile, sources, out, cores, directives_by);
      },
      &cores_);
}

void Analyzer::place_gres_conf_read() {
  if (gres_ahead_) gres_ahead_->place(sources_, !read_options(KeyTable::gres_conf).cluster_name.empty());
}

void Analyzer::read_gres_conf() {
  std::optional<ConfigFile> ahead;
  if (gres_ahead_) {
    ahead = gres_ahead_->finish(sources_, out_);
    gres_ahead_.reset();
  }
  GresRecords records;
  if (ahead) {
    gres_ = std::move(*ahead);  // moves the directives' buffer: the lines' pointers hold
    records = std::move(gres_ahead_records_);
  } else {
    gres_ = read(in_.gres_conf_path, texts_ ? &texts_->gres_conf : nullptr, KeyTable::gres_conf);
    records = gather_gres_records(gres_, profile_, sources_, out_, &cores_);
  }
  gres_lines_ = std::move(records.lines);
  gres_hostlists_ = std::move(records.hostlists);
  global_lines_ = std::move(records.global_lines);
  gres_contents_ = std::move(records.contents);
  global_autodetect_ = std::move(records.autodetect);
  global_autodetect_head_ = records.autodetect_kv;
  global_autodetect_kv_ = global_autodetect_head_ ? &*global_autodetect_head_ : nullptr;
}

void Analyzer::read_cgroup_conf() {
  cgroup_ = read(in_.cgroup_conf_path, texts_ ? &texts_->cgroup_conf : nullptr, KeyTable::cgroup_conf);
  if (cgroup_.failed)
    ctld_.apply(rules::Outcome::slurmctld_fatal(
        fmt::format("Could not open/read/parse cgroup.conf file {}", in_.cgroup_conf_path)));
}

}  // namespace model

GresLineKeys keys_of(const GresLine& line) {
  const Directive& d = *line.d;
  GresLineKeys k;
  if (!line.node_scoped)
    k.name = d.head();
  else if (const KeyValue* name = d.find("Name"))
    k.name = *name;
  k.type = d.find("Type");
  k.cores = d.find("Cores");
  if (!k.cores) k.cores = d.find("CPUs");
  k.file = d.find("File");
  if (const KeyValue* files = d.find("Files"); files && (!k.file || files->key_span.begin > k.file->key_span.begin))
    k.file = files;
  k.multiple_files = d.find("MultipleFiles");
  k.autodetect = d.find("AutoDetect");
  return k;
}

}  // namespace greslint
