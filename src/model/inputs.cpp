// SPDX-License-Identifier: Apache-2.0
// Reading the three files the daemons read, from disk or from text held in memory.
#include <fmt/format.h>

#include "model/analyzer.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint {

void Settings::set(const KeyValue& kv) { by_key_[to_lower(kv.spec->name)] = &kv; }

const KeyValue* Settings::find(std::string_view key) const {
  auto it = by_key_.find(to_lower(key));
  return it == by_key_.end() ? nullptr : it->second;
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
  // Everything the read uses is copied here or never changes during the run.
  gres_ahead_.emplace(sources_, [path = in_.gres_conf_path, in_memory = texts_ != nullptr,
                                 text = texts_ ? &texts_->gres_conf : nullptr,
                                 opts = read_options(KeyTable::gres_conf),
                                 &profile = profile_](SourceManager& sources, Reporter& out) {
    return read_file(path, in_memory, text, opts, profile, sources, out);
  });
}

void Analyzer::read_gres_conf() {
  std::optional<ConfigFile> ahead;
  if (gres_ahead_) {
    ahead = gres_ahead_->finish(sources_, out_);
    gres_ahead_.reset();
  }
  gres_ = ahead ? std::move(*ahead) : read(in_.gres_conf_path, texts_ ? &texts_->gres_conf : nullptr, KeyTable::gres_conf);
  // Slurm's record list: every Name= record, then every NodeName= record, each in file order.
  // One pass over the file sorts the records into the two kinds (with their place among all
  // records); gres_lines_ is then sized once: a per-node gres.conf has 200,000 lines, and
  // vectors grown by doubling and then copied held up to three times that (a GresLine is ~100
  // bytes). Three passes over the directives (144 bytes each, a cache miss each) were 6% of
  // linting such a file.
  struct Record {
    const Directive* d;
    std::uint32_t file_order;
  };
  std::vector<Record> name_records, node_records;
  std::uint32_t order = 0;
  for (const Directive& d : gres_.directives) {
    if (d.kind == Directive::Kind::record) {
      (iequals(d.head().key, "NodeName") ? node_records : name_records).push_back(Record{&d, order++});
      continue;
    }
    if (iequals(d.head().spec->name, "AutoDetect")) {
      global_autodetect_ = d.head().value;
      global_autodetect_kv_ = &d.head();
    }
  }
  gres_lines_.reserve(name_records.size() + node_records.size());
  for (const bool scoped : {false, true})
    for (const Record& r : scoped ? node_records : name_records) {
      GresLine g;
      g.d = r.d;
      g.file_order = r.file_order;
      g.node_scoped = scoped;
      if (scoped) read_gres_nodes(g);
      gres_lines_.push_back(std::move(g));
    }
}

/// The nodes a gres.conf NodeName= line names, the line checked (kGresConfNodeName); an
/// invalid list names none (GresLine::nodes unset).
void Analyzer::read_gres_nodes(GresLine& g) {
  const KeyValue& head = g.d->head();
  // A per-node line names one host as written: a valid list of itself, no Hostlist needed
  // (building one per line was a quarter of reading a gres.conf written node by node).
  if (is_single_host(head.value)) {
    const rules::GresConfLineView view{profile_, *g.d, nullptr};
    for (const auto& check : rules::kGresConfNodeNameStage) check.run(view, findings_);
    g.nodes = GresLineNodes(head.value);
    return;
  }
  auto l = parse_hostlist(head.value, head.value_span, profile_);
  const rules::GresConfLineView view{profile_, *g.d, &l};
  for (const auto& check : rules::kGresConfNodeNameStage) check.run(view, findings_);
  if (!l.ok()) return;
  // A plain host name (the common per-node line) is its own one name: keep the view.
  const auto& ranges = l.list->ranges();
  const bool plain = ranges.size() == 1 && ranges.front().count() == 1 && ranges.front().host(0) == head.value;
  g.nodes = plain ? GresLineNodes(head.value) : GresLineNodes(std::move(*l.list));
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
  k.name = line.node_scoped ? d.find("Name") : &d.head();
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
