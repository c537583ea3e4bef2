// SPDX-License-Identifier: Apache-2.0
// slurmd (stages B-E) and slurmctld (stage F) for one node class (slurm-semantics.md §8).
#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "model/shared_gres.hpp"
#include "rules/rules.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {
namespace {
namespace flag_bits {
constexpr std::uint32_t count_only = 1u << 0, nvidia = 1u << 1, amd = 1u << 2, intel = 1u << 3,
                        opencl = 1u << 4, one_sharing = 1u << 5, all_sharing = 1u << 6,
                        no_gpu_env = 1u << 7, explicit_ = 1u << 8, env_uuid = 1u << 9, env_default = 1u << 10;
constexpr std::uint32_t env = nvidia | amd | intel | opencl | no_gpu_env;
}  // namespace flag_bits

std::uint32_t parse_flags(std::string_view text, const VersionProfile& profile) {
  using namespace flag_bits;
  std::uint32_t f = 0;
  if (icontains(text, "CountOnly")) f |= count_only;
  if (icontains(text, "nvidia_gpu_env")) f |= nvidia;
  if (icontains(text, "amd_gpu_env")) f |= amd;
  if (icontains(text, "intel_gpu_env")) f |= intel;
  if (icontains(text, "opencl_env")) f |= opencl;
  if (icontains(text, "one_sharing")) f |= one_sharing;
  if (icontains(text, "all_sharing")) f |= all_sharing;
  if (icontains(text, "no_gpu_env")) f |= no_gpu_env;
  if (profile.has_flag("explicit") && icontains(text, "explicit")) f |= explicit_;
  if (profile.has_flag("env_uuid") && icontains(text, "env_uuid")) f |= env_uuid;
  return f;
}

/// The flags _parse_gres_config remembers from the previous record (its static prev_env):
/// a later record of the same name must repeat them, or give no Flags= and inherit them.
/// Names compare as written (Slurm compares gres_build_id hashes): Name=GPU is not gpu.
class PreviousFlags {
 public:
  enum class Check : std::uint8_t { ok, no_gpu_env_mixed, differs };
  Check take(const std::string& name, const KeyValue* flags, const VersionProfile& profile);

 private:
  std::string name_;
  std::uint32_t word_ = 0;
  bool remembered_ = false;
};

PreviousFlags::Check PreviousFlags::take(const std::string& name, const KeyValue* flags, const VersionProfile& profile) {
  using namespace flag_bits;
  bool defaults = true;
  if (flags) {
    std::uint32_t f = parse_flags(flags->value, profile);
    if ((f & no_gpu_env) && (f & env & ~no_gpu_env)) return Check::no_gpu_env_mixed;
    if (!(f & env) && profile.flags_without_env_take_defaults()) {
      if (iequals(name, "gpu"))
        name_ = name, word_ = nvidia | amd | intel | opencl | env_default | (f & env_uuid), remembered_ = true;
      return Check::ok;
    }
    // 22.05 remembers the env words only, and a Flags= without one (CountOnly, a sharing
    // word) takes the defaults like a line without Flags; 23.02+ remembers the whole word,
    // with the one_sharing that mps implies.
    std::uint32_t word = f & env;
    if (profile.flags_compare_whole_word()) {
      if (iequals(name, "mps") && !(f & (one_sharing | all_sharing))) f |= one_sharing;
      word = f & ~all_sharing;
    }
    if (word || profile.flags_compare_whole_word()) {
      defaults = false;
      if (remembered_ && name == name_ && word != word_) return Check::differs;
      name_ = name, word_ = word, remembered_ = true;
    }
  } else if (remembered_ && word_ && name == name_) {
    defaults = false;  // inherits them
  }
  if (defaults && iequals(name, "gpu")) name_ = name, word_ = nvidia | amd | intel | opencl | env_default, remembered_ = true;
  return Check::ok;
}

}  // namespace
std::string type_text(const std::optional<std::string>& t) { return t ? *t : "(null)"; }

/// The count slurmctld sees for one name: each record's count (a device file list counts at
/// most 1024), except File-less GPUs under AutoDetect, which stand for devices to detect.
std::uint64_t reported_count(const std::vector<GresRecord>& recs, const std::string& name, bool detect) {
  std::uint64_t reported = 0;
  for (const GresRecord& r : recs)
    if (!(detect && !r.files)) reported += (r.files && r.count > 1024 && name != "mps" && name != "shard") ? 1024 : r.count;
  return reported;
}

/// slurmctld rebuilds a name's per-device topology only for records it tracks per device
/// (_foreach_rebuild_topo): device files with a Type= or Cores=, or 23.02+ GPUs shared by
/// mps/shard.
bool tracked_per_device(const rules::RegistrationView& v) {
  const auto& recs = v.records;
  const bool has_file = std::any_of(recs.begin(), recs.end(), [](const GresRecord& r) { return r.files.has_value(); });
  return has_file && (std::any_of(recs.begin(), recs.end(), [](const GresRecord& r) { return r.type || r.cores; }) ||
                      (v.profile.version() >= kSlurm2302 && v.name == "gpu" && v.shared_on_node));
}

void Analyzer::evaluate(NodeClass& cls, const NodeLine& node, const std::vector<const GresLine*>& lines,
                        const std::string& rep) {
  const Topology& topo = node.topo;
  const std::uint32_t core_cnt = topo.core_count();
  cls.sockets = topo.sockets;
  cls.cores_per_socket = topo.cores;
  cls.threads_per_core = topo.threads;
  cls.cpus = topo.cpus;
  cls.configured_gres = node.gres;
  cls.configured_gres_span = node.gres_span;
  const bool config_overrides = [&] {
    const KeyValue* p = setting("SlurmdParameters");
    return p && icontains(p->value, "config_overrides");
  }();

  // Stage B: slurm.conf Gres=, its tokens filtered by name (B5) and counted per name.
  std::string filtered;
  std::vector<std::string_view> dropped;
  for (std::string_view tok : node.gres.empty() ? std::vector<std::string_view>{} : split_commas(node.gres)) {
    if (!in_grestypes_exact(tok.substr(0, tok.find(':')))) {
      dropped.push_back(tok);
      continue;
    }
    if (!filtered.empty()) filtered += ',';
    filtered += tok;
  }
  std::map<std::string, GresCount> conf;
  for (const std::string& name : grestypes_) conf.emplace(name, count_gres(filtered, name));
  const rules::NodeGresView gres_view{node, grestypes_, dropped, conf};
  for (const auto& check : rules::kNodeGresStage)
    if (check.run(gres_view, findings_).kind() == rules::Outcome::Kind::degraded) degrade(cls);

  // Stage C: gres.conf, for this node (§5). slurmctld runs this whole load itself at
  // start-up for CLOUD nodes (_gres_reconfig), so for them its fatals are slurmctld's.
  const Verdict load_fatal = node.cloud ? Verdict::slurmctld_fatal : Verdict::slurmd_fatal;
  auto report_load = [&](const RuleInfo& rule, Span span, std::string message) {
    DiagnosticBuilder b = report_for(rule, span, std::move(message));
    if (node.cloud && rule.effect == Effect::fatal) b.effect(Effect::fatal, Daemon::slurmctld);
    return b;
  };
  auto known_autodetect = [&](std::string_view value) {
    if (iequals(value, "off")) return true;
    for (std::string_view v : profile_.autodetect_values())
      if (v != "off" && icontains(value, v)) return true;
    return false;
  };
  if (global_autodetect_kv_ && !known_autodetect(global_autodetect_)) {
    report_load(rules::GRS204, global_autodetect_kv_->value_span,
               fmt::format("AutoDetect={} is not a value Slurm {} knows; it is ignored", global_autodetect_,
                           profile_.version().str()))
        .slurm(fmt::format("unknown autodetect flag '{}'", global_autodetect_))
        .help("use nvml, rsmi, oneapi or off");
    degrade(cls);
  }
  std::vector<const GresLine*> by_file = lines;
  std::sort(by_file.begin(), by_file.end(), [](auto* a, auto* b) { return a->file_order < b->file_order; });
  std::vector<std::pair<const GresLine*, GresRecord>> parsed;
  PreviousFlags previous_flags;
  std::optional<std::string> node_autodetect;
  for (const GresLine* line : by_file) {
    const Directive& d = *line->d;
    const GresLineKeys keys = keys_of(*line);
    const KeyValue* autodetect = keys.autodetect;
    if (autodetect && !line->node_scoped) {
      report_load(rules::GRS203, autodetect->key_span, "AutoDetect on a Name= line has no effect")
          .slurm("gres.conf: In-line AutoDetect requires NodeName to take effect")
          .help("put AutoDetect= on a line of its own, or on a NodeName= line");
      degrade(cls);
    } else if (autodetect) {
      if (!known_autodetect(autodetect->value)) {
        report_load(rules::GRS204, autodetect->value_span,
                   fmt::format("AutoDetect={} is not a value Slurm {} knows; it is ignored", autodetect->value,
                               profile_.version().str()))
            .slurm(fmt::format("unknown autodetect flag '{}'", autodetect->value))
            .help("use nvml, rsmi, oneapi or off");
        degrade(cls);
      } else if (node_autodetect && !iequals(*node_autodetect, autodetect->value)) {
        report_load(rules::GRS207, autodetect->value_span,
                   fmt::format("AutoDetect={} contradicts AutoDetect={} given earlier for {}", autodetect->value,
                               *node_autodetect, kNodes))
            .slurm("gres.conf: duplicate node-local AutoDetect specification does not match the first")
            .help("give one AutoDetect value per node");
        fatal(cls, load_fatal, "gres.conf: duplicate node-local AutoDetect specification does not match the first");
        return;
      } else {
        node_autodetect = autodetect->value;
      }
    }
    const KeyValue* name_kv = keys.name;
    if (!name_kv) {
      if (autodetect) continue;
      std::string rest = std::string(sources_.text(Span{d.head().key_span.file, d.head().value_span.end, d.span.end}));
      while (!rest.empty() && is_space(rest.front())) rest.erase(rest.begin());
      report_load(rules::GRS202, d.head().key_span, "this NodeName= line has no Name=, so Slurm ignores it")
          .slurm(fmt::format("Invalid GRES data, no type name ({})", rest))
          .help("add Name=gpu (or the GRES this line describes)");
      degrade(cls);
      continue;
    }
    GresRecord r;
    r.line = line;
    r.name = name_kv->value;
    if (keys.type) r.type = keys.type->value;
    // _parse_gres_config's order: Cores, File, MultipleFiles, Flags, Links, Count; the name is
    // checked against GresTypes last, so a record of a GRES slurmd then ignores can still be fatal.
    const KeyValue* cores = keys.cores;
    if (cores) {
      r.cores = cores->value;
      r.core_bits = parse_core_list(cores->value, core_cnt);
      // slurmctld reads gres.conf for CLOUD nodes and checks the core list against the CPU count (C10b).
      if (node.cloud && !parse_core_list(cores->value, topo.cpus)) {
        std::string slurm = fmt::format("Invalid GRES data for {}, {}={} (only {} CPUs are available)", r.name,
                                        cores->spec->name, cores->value, topo.cpus);
        report_load(rules::GRS208, cores->value_span,
                   fmt::format("{}={} is beyond the {} CPUs of CLOUD nodes {}; slurmctld checks it and exits",
                               cores->key, cores->value, topo.cpus, kNodes))
            .slurm(slurm)
            .effect(Effect::fatal, Daemon::slurmctld)
            .severity(Severity::error)
            .help(fmt::format("use core indexes below {}", core_cnt));
        fatal(cls, Verdict::slurmctld_fatal, slurm);
        return;
      }
      if (!r.core_bits) {
        report_load(rules::GRS208, cores->value_span,
                   fmt::format("{}={} is outside the node's cores 0-{} ({} sockets x {} cores); {} takes core "
                               "indexes, not CPU ids",
                               cores->key, cores->value, core_cnt - 1, topo.sockets, topo.cores, cores->key))
            .slurm(fmt::format("Invalid GRES data for {}, {}={}", r.name, cores->spec->name, cores->value))
            .help(fmt::format("use core indexes below {} (check Sockets/CoresPerSocket in slurm.conf)", core_cnt));
        degrade(cls);
      }
    }
    const KeyValue* file = keys.file;
    const KeyValue* mf = keys.multiple_files;
    if (file && mf) {
      report_load(rules::GRS209, mf->key_span, "File= and MultipleFiles= cannot both be given")
          .slurm("File and MultipleFiles options are mutually exclusive")
          .help("use MultipleFiles= for one MIG device made of several files, File= otherwise");
      fatal(cls, load_fatal, "File and MultipleFiles options are mutually exclusive");
      return;
    }
    if (file || mf) {
      const KeyValue* kv = file ? file : mf;
      auto l = parse_hostlist(kv->value, kv->value_span, profile_);
      if (!l.ok()) {
        report_load(rules::GRS215, kv->value_span, fmt::format("{}={} is not a valid device list", kv->key, kv->value))
            .slurm(fmt::format("can't parse File={}", kv->value))
            .help("write device ranges like /dev/nvidia[0-3]");
        fatal(cls, load_fatal, fmt::format("can't parse File={}", kv->value));
        return;
      }
      spend(*l.list, kv->value_span);
      r.paths = l.list->expand();
      r.files = kv->value;
      r.multiple_files = mf != nullptr;
      if (mf && r.paths.size() < 2) {
        report_load(rules::GRS210, mf->value_span, "MultipleFiles= names a single file")
            .slurm("MultipleFiles does not contain multiple files. Use File instead")
            .help("use File= for a single device file");
        fatal(cls, load_fatal, "MultipleFiles does not contain multiple files. Use File instead");
        return;
      }
      r.count = mf ? 1 : r.paths.size();
    } else {
      r.count = 1;
    }
    // Flags: checked against and inherited from the previous record of the same name (§5.6).
    const KeyValue* flags = d.find("Flags");
    if (flags) r.flags = flags->value;
    const PreviousFlags::Check flags_check = previous_flags.take(r.name, flags, profile_);
    if (flags_check == PreviousFlags::Check::no_gpu_env_mixed) {
      std::string slurm = fmt::format(
          "Invalid GRES record name={} type={}: Flags ({}) contains \"no_gpu_env\", which must be mutually "
          "exclusive to all other GRES env flags of same node and name",
          r.name, type_text(r.type), flags->value);
      report_load(rules::GRS205, flags->value_span, "no_gpu_env cannot be combined with another *_env flag")
          .slurm(slurm)
          .help("keep either no_gpu_env or the *_env flags");
      fatal(cls, load_fatal, slurm);
      return;
    }
    if (flags_check == PreviousFlags::Check::differs) {
      std::string slurm = fmt::format(
          "Invalid GRES record name={} type={}: Flags ({}) does not match env flags for previous GRES of same "
          "node and name",
          r.name, type_text(r.type), flags->value);
      report_load(rules::GRS206, flags->value_span,
                  "Flags differ from the previous gres.conf line for this GRES; every line of a name must carry "
                  "the same env flags")
          .slurm(slurm)
          .help("give every line of this GRES the same Flags= (a line without Flags, or with Flags= but no *_env "
                "word, counts as all env flags)");
      fatal(cls, load_fatal, slurm);
      return;
    }
    const KeyValue* links = d.find("Links");
    if (!links) links = d.find("Link");
    if (links) {
      std::string bad = validate_links(links->value);
      if (bad.empty()) r.links = links->value;
      else {
        report_load(rules::GRS214, links->value_span, fmt::format("Links={} is not valid, so Slurm drops it: {}",
                                                                 links->value, bad.substr(bad.find(':') + 2)))
            .slurm(fmt::format("gres.conf: Ignoring invalid Links={} for Name={}", links->value, r.name))
            .help("list one entry per GPU with exactly one -1 for the device itself");
        degrade(cls);
      }
    }
    // Only the exact names mps and shard are shared, so Name=MPS gets the File check too.
    if (const KeyValue* c = d.find("Count")) {
      auto n = parse_gres_count(c->value);
      if (!n) {
        std::string slurm = fmt::format("Invalid GRES record for {}, invalid count {}", r.name, c->value);
        report_load(rules::GRS211, c->value_span, fmt::format("Count={} is not a count Slurm can read", c->value))
            .slurm(slurm)
            .help("write a whole number with an optional K/M/G suffix");
        fatal(cls, load_fatal, slurm);
        return;
      }
      // A MultipleFiles= line is one device: its count from the files is 1.
      const std::uint64_t from_files = r.files ? r.count : 0;
      if (from_files && *n != from_files && !is_shared_name(r.name)) {
        std::string slurm = fmt::format("Invalid GRES record for {}, count does not match File value", r.name);
        const KeyValue* files_kv = file ? file : mf;
        auto b = r.multiple_files
                     ? report_load(rules::GRS212, c->value_span,
                                   fmt::format("Count={} on a MultipleFiles= line, which is one device (count 1)", c->value))
                     : report_load(rules::GRS212, c->value_span,
                                   fmt::format("Count={} but File= lists {} device{}", c->value, r.paths.size(),
                                               r.paths.size() == 1 ? "" : "s"));
        b.slurm(slurm)
            .related(files_kv->value_span, r.multiple_files ? std::string("one device here")
                                                           : fmt::format("{} devices here", r.paths.size()))
            .help(r.multiple_files ? std::string("remove Count= (or write Count=1)")
                                   : fmt::format("remove Count= (it defaults to the number of files), or set Count={}",
                                                 r.paths.size()));
        fatal(cls, load_fatal, slurm);
        return;
      }
      if (*n >= ~std::uint64_t(0) - 1) {
        std::string slurm = fmt::format("GRES {} has invalid count value {}", r.name, *n);
        report_load(rules::GRS211, c->value_span, fmt::format("Count={} is too large", c->value)).slurm(slurm);
        fatal(cls, load_fatal, slurm);
        return;
      }
      r.count = *n;
    }
    if (!in_grestypes_nocase(name_kv->value)) {
      report_load(rules::GRS201, name_kv->value_span,
                 fmt::format("Name={} is not in GresTypes, so slurmd ignores this line", name_kv->value))
          .slurm(fmt::format("Ignoring gres.conf record, invalid name: {}", name_kv->value))
          .help(grestypes_.empty() ? "set GresTypes in slurm.conf" : "add it to GresTypes in slurm.conf, or fix the name");
      degrade(cls);
      continue;
    }
    parsed.emplace_back(line, std::move(r));
  }
  // s_p_parse_file reads every line, running each record's checks, before it fails: a
  // record's fatal anywhere in the file comes before the parse error.
  if (gres_.failed) {
    fatal(cls, load_fatal, fmt::format("error opening/reading {}", in_.gres_conf_path));
    return;
  }
  // A global device line is read by every node, GPU-less ones too: slurmd stats each path
  // there and exits after 20 s when it is missing (C11, gotcha 3).
  for (auto& entry : parsed) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const GresLine* line = entry.first;
    const GresRecord& r = entry.second;
    if (line->node_scoped || !r.files) continue;
    auto it = conf.find(r.name);
    const bool wanted = std::any_of(conf.begin(), conf.end(), [&](const auto& kv) { return iequals(kv.first, r.name) && kv.second.present; });
    if (wanted || (it == conf.end() && !in_grestypes_nocase(r.name))) continue;
    report_load(rules::GRS221, r.span_of("File"),
               fmt::format("this Name={} line has no NodeName=, so {} (which have no {} in slurm.conf) also open {}; "
                           "slurmd there waits 20 s and exits if the file is missing",
                           r.name, kNodes, r.name, *r.files))
        .slurm(fmt::format("can't stat gres.conf file {}: No such file or directory", r.paths.front()))
        .help(fmt::format("prefix the line with NodeName=<the {} nodes>", r.name));
  }
  std::vector<GresRecord> records;
  for (auto& [line, r] : parsed)
    if (!line->node_scoped) records.push_back(r);
  for (auto& [line, r] : parsed)
    if (line->node_scoped) records.push_back(r);
  cls.autodetect = node_autodetect ? *node_autodetect : global_autodetect_;
  const bool autodetect_active = [&] {
    std::string v = node_autodetect ? *node_autodetect : global_autodetect_;
    return !v.empty() && !iequals(v, "off") && known_autodetect(v);
  }();

  if (node.cloud && autodetect_active && profile_.cloud_autodetect_fatal()) {
    std::string slurm = fmt::format("Cannot use AutoDetect on cloud node \"{}\"", kNode);
    report_load(rules::GRS223, node.names_span, fmt::format("AutoDetect applies to CLOUD nodes {}; slurmctld {} refuses that",
                                                           kNodes, profile_.version().str()))
        .slurm(slurm)
        .help("set AutoDetect=off for cloud nodes and list their devices with File=");
    fatal(cls, Verdict::slurmctld_fatal, slurm);
    return;
  }
  // D1: typed and untyped counts mixed in slurm.conf (slurmd only).
  for (const std::string& name : grestypes_) {
    const GresCount& c = conf[name];
    if (!c.types.empty() && c.total > c.typed_sum()) {
      std::string slurm = fmt::format(
          "_foreach_slurm_conf: Some {} GRES in slurm.conf have a type while others do not "
          "(gres_ns->gres_cnt_config ({}) > tmp_count ({}))",
          name, c.total, c.typed_sum());
      report_load(rules::GRS116, node.gres_span,
                 fmt::format("Gres= mixes typed and untyped {} counts ({} in all, {} typed)", name, c.total, c.typed_sum()))
          .slurm(slurm)
          .help(fmt::format("give every {} count a type, or none", name));
      fatal(cls, load_fatal, slurm);
      return;
    }
  }

  // Stage D, per GRES name in Slurm's context order: gres.conf checked against itself and
  // slurm.conf (_validate_gres_conf, _check_conf_mismatch), then merged with slurm.conf.
  std::map<std::string, std::vector<GresRecord>> merged;
  for (const std::string& name : grestypes_) {
    const GresCount& c = conf[name];
    std::vector<GresRecord> recs;
    for (const GresRecord& r : records)
      if (iequals(r.name, name)) recs.push_back(r);
    // D2, D3, D4.
    const auto with_file = std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.files.has_value(); });
    const auto with_type = std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.type.has_value(); });
    auto fatal_record = [&](const RuleInfo& rule, const GresRecord& at, std::string message, std::string slurm, std::string help) {
      report_load(rule, at.line->d->head().value_span, std::move(message)).slurm(slurm).help(std::move(help));
      fatal(cls, load_fatal, slurm);
    };
    if (with_file > 0 && with_file < std::ptrdiff_t(recs.size())) {
      const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files; });
      fatal_record(rules::GRS217, odd, fmt::format("this {} line has no File= while other {} lines for {} have one", name, name, kNodes),
                   fmt::format("gres.conf for {}, some records have \"File\" specification while others do not", name),
                   "give every line of this GRES a File= (or none)");
      return;
    }
    if (with_type > 0 && with_type < std::ptrdiff_t(recs.size())) {
      const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.type; });
      fatal_record(rules::GRS218, odd, fmt::format("this {} line has no Type= while other {} lines for {} have one", name, name, kNodes),
                   fmt::format("gres.conf for {}, some records have \"Type=\" specification while others do not", name),
                   "give every line of this GRES a Type= (or none)");
      return;
    }
    if (std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files && !r.type; }) > 1) {
      const GresRecord& second = *std::find_if(recs.begin() + 1, recs.end(), [](const GresRecord& r) { return !r.files && !r.type; });
      fatal_record(rules::GRS219, second, fmt::format("a second {} line with neither File= nor Type= for {}", name, kNodes),
                   fmt::format("gres.conf duplicate records for {}", name),
                   "keep one such line (AutoDetect needs no Name= line at all)");
      return;
    }
    // D5: what gres.conf has beyond slurm.conf (_check_conf_mismatch).
    {
      std::vector<std::uint64_t> left;
      for (const GresRecord& r : recs) left.push_back(r.count);
      auto consume = [&](std::uint64_t count, const std::string* type) {
        for (std::size_t i = 0; i < recs.size(); ++i) {
          const bool match = type ? (recs[i].type ? iequals(*recs[i].type, *type) : !profile_.untyped_record_vs_typed_conf_warns())
                                  : !recs[i].type.has_value();
          if (!match) continue;
          if (left[i] > count) { left[i] -= count; return; }
          count -= left[i];
          left[i] = 0;
        }
      };
      if (c.types.empty()) consume(c.total, nullptr);
      else for (const auto& t : c.types) consume(t.count, &t.type);
      for (std::size_t i = 0; i < recs.size(); ++i) {
        if (left[i] == 0) continue;
        std::string label = name + (recs[i].type ? ":" + *recs[i].type : "");
        std::string why;
        if (!c.present) why = fmt::format("slurm.conf gives {} no {}", kNodes, name);
        else if (c.types.empty() && recs[i].type)
          why = fmt::format("slurm.conf Gres= is untyped, so Slurm keeps these GPUs but drops Type={}", *recs[i].type);
        else if (!recs[i].type) why = fmt::format("slurm.conf Gres= is typed and this line has no Type=");
        else why = fmt::format("slurm.conf configures {} {}", c.total, name);
        report_load(rules::GRS302, recs[i].line->d->head().value_span,
                   fmt::format("gres.conf has {} more {} than slurm.conf expects on {}: {}", left[i], label, kNodes, why))
            .slurm(fmt::format("A line in gres.conf for GRES {} has {} more configured than expected in slurm.conf. "
                               "Ignoring extra GRES.", label, left[i]))
            .related(node.gres_span, "slurm.conf Gres= for these nodes")
            .help(!c.present ? fmt::format("add Gres={}{}:{} to these nodes in slurm.conf, or drop the gres.conf line", name,
                                           recs[i].type ? ":" + *recs[i].type : std::string(), recs[i].count)
                  : c.types.empty() && recs[i].type ? fmt::format("write Gres={}:{}:N in slurm.conf to keep the type", name, *recs[i].type)
                                                    : "make slurm.conf Gres= and gres.conf agree");
        degrade(cls);
      }
    }
    merged[name] = std::move(recs);
  }
  for (const std::string& name : grestypes_) {
    const GresCount& c = conf[name];
    const std::vector<GresRecord>& recs = merged[name];
    // D6: merge.
    std::vector<GresRecord> pool = recs, out;
    auto take = [&](const std::string* type, std::uint64_t count) {
      if (count == 0) return;
      for (auto it = pool.begin(); it != pool.end() && count > 0;) {
        if (type && !(it->type && iequals(*it->type, *type))) { ++it; continue; }
        GresRecord r = *it;
        it = pool.erase(it);
        if (!type) r.type.reset();
        if (r.count > count) {
          r.count = count;
          if (r.files && count < r.paths.size()) {  // _set_file_subset: the first `count` files
            r.paths.resize(count);
            r.files = fold_hostnames(r.paths, false);
          }
          count = 0;
        } else {
          count -= r.count;
        }
        out.push_back(std::move(r));
      }
      if (count > 0) {
        GresRecord filler;
        filler.origin = node.gres_span;
        filler.name = name;
        if (type) filler.type = *type;
        filler.count = count;
        out.push_back(std::move(filler));
      }
    };
    if (c.types.empty()) take(nullptr, c.total);
    else for (const auto& t : c.types) take(&t.type, t.count);
    merged[name] = std::move(out);
  }
  // Stage E: each plugin loads its records, in context order (node_config_load).
  for (const std::string& name : grestypes_) {
    if (is_shared_name(name)) {
      if (!share_gres_devices(cls, merged, name, load_fatal)) return;
      continue;
    }
    // E1: the same device file twice.
    {
      std::unordered_map<std::string, const GresRecord*> seen;
      for (const GresRecord& r : merged[name]) {
        if (r.multiple_files || r.name != name) continue;
        for (const std::string& p : r.paths) {
          auto [it, fresh] = seen.emplace(p, &r);
          if (fresh) continue;
          std::string slurm = name == "gpu" ? "Gres GPU plugin failed to load configuration" : "failed to load configuration";
          report_load(rules::GRS220, r.line ? r.span_of("File") : node.gres_span,
                     fmt::format("device file {} is listed twice for {}", p, kNodes))
              .slurm(fmt::format("{} duplicate device file name ({})", name, p))
              .related(it->second->line ? it->second->span_of("File") : Span{}, "first listed here")
              .help("list each device file once");
          fatal(cls, load_fatal, slurm);
          return;
        }
      }
    }
  }
  // E3: GPUs without File are dropped (unless AutoDetect fills them in).
  if (!autodetect_active)
    for (auto& [name, recs] : merged)
      if (iequals(name, "gpu"))
        recs.erase(std::remove_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files; }), recs.end());
  // With shared GRES configured, slurmd lists GPUs one record per file.
  const bool shared_on_node = std::any_of(grestypes_.begin(), grestypes_.end(), [&](const std::string& n) {
    return is_shared_name(n) && conf[n].total > 0;
  });

  // Stage F: slurmctld at registration, per name (§6.F, order as in §8 step 6-8).
  std::optional<std::string> drain_reason;  // the first one is what scontrol shows
  for (const std::string& name : grestypes_) {
    // F7: slurmctld finds no plugin for a record whose name is not spelled as GresTypes has it.
    std::vector<GresRecord> recs, misspelled;
    for (const GresRecord& r : merged[name]) (r.name == name ? recs : misspelled).push_back(r);
    const bool detect = name == "gpu" && autodetect_active;  // File-less GPUs are found by AutoDetect
    rules::RegistrationView view{profile_,    node,          rep,   name,   conf[name], recs, misspelled, records,
                                 reported_count(recs, name, detect), detect, shared_on_node, config_overrides, false};
    register_name(cls, view, drain_reason);
  }
  if (drain_reason) drain(cls, *drain_reason);

  // What slurmd -G prints.
  for (const std::string& name : grestypes_) {
    for (const GresRecord& r : merged[name]) {
      if (r.count == 0 && !is_shared_name(r.name)) continue;  // slurmd lists a GPU's empty mps/shard record
      auto emit = [&](const GresRecord& rec, std::uint64_t count, std::optional<std::string> files) {
        EffectiveGres g;
        g.name = rec.name;
        g.type = rec.type;
        g.count = count;
        g.files = std::move(files);
        g.cores = rec.cores;
        g.links = rec.links;
        g.flags = rec.flags;
        cls.gres.push_back(std::move(g));
      };
      emit(r, r.count, r.files);
    }
  }
}

void Analyzer::register_name(NodeClass& cls, rules::RegistrationView& view, std::optional<std::string>& drain_reason) {
  auto run = [&](const auto& stage) {
    for (const auto& check : stage) {
      view.drained = drain_reason.has_value();
      const rules::Outcome o = check.run(view, findings_);
      if (o.kind() == rules::Outcome::Kind::drain && !drain_reason) drain_reason = o.reason();
      if (o.kind() == rules::Outcome::Kind::degraded) degrade(cls);
      if (o.skips_rest()) return false;
    }
    return true;
  };
  if (run(rules::kRegistrationCountStage) && tracked_per_device(view)) run(rules::kRegistrationTopologyStage);
}

}  // namespace greslint::model

namespace greslint::model {

bool Analyzer::share_gres_devices(NodeClass& cls, std::map<std::string, std::vector<GresRecord>>& merged,
                                  const std::string& name, Verdict load_fatal) {
  std::vector<GresRecord> no_gpus;
  auto gpu = std::find_if(merged.begin(), merged.end(), [](const auto& kv) { return iequals(kv.first, "gpu"); });
  std::uint64_t configured = 0, fileless = 0;
  for (const GresRecord& r : merged[name]) (r.files ? configured : fileless) += r.count;
  configured += fileless;
  ShareOutcome o = share_devices(gpu == merged.end() ? no_gpus : gpu->second, merged[name], name,
                                 profile_.sharing_splits_multiple_files());
  if (!o.fatal.empty()) {
    const std::string message =
        o.no_sharing ? fmt::format("{} is configured on {} but their GPUs have no device files to share (the plugin "
                                   "shares only Name=gpu lines with File=, spelt exactly so)", name, kNodes)
        : o.fatal.find("with and without") != std::string::npos
            ? fmt::format("gres.conf gives {} {} of {} {} configured in slurm.conf; slurmd adds a File-less record for "
                          "the rest, which cannot be mixed with File= records", kNodes, configured - fileless, configured, name)
            : fmt::format("more than one {} line without File= for {}", name, kNodes);
    DiagnosticBuilder b = report_for(rules::GRS314, cls.configured_gres_span, message);
    b.slurm(o.fatal).help("give each GPU a File= and write the shared line with the GPUs' device files, or without File= once");
    if (load_fatal == Verdict::slurmctld_fatal) b.effect(Effect::fatal, Daemon::slurmctld);
    fatal(cls, load_fatal, o.fatal);
    return false;
  }
  for (const ShareOutcome::Discarded& d : o.discarded) {
    const Span at = d.from.span_of(d.from.multiple_files ? "MultipleFiles" : "File");
    const std::string message =
        d.file_is_a_gpu ? fmt::format("a second {} line for {} on {}: the GPU keeps the first one's count, Slurm discards "
                                      "this one", name, d.file, kNodes)
                        : fmt::format("{} File={} names a device file that no gpu line on {} has; Slurm discards it",
                                      name, d.file, kNodes);
    report_for(rules::GRS313, at, message)
        .slurm(fmt::format("Discarding gres/'shared' configuration (File={}) without matching gres/'sharing' record", d.file))
        .help(d.file_is_a_gpu ? "give each GPU one line (or one File-less line for all)" : "use the GPUs' exact device paths");
    degrade(cls);
  }
  // _build_shared_dev_info: with no shared count at all on the node, the plugin's records go.
  std::uint64_t total = 0;
  for (const auto& [n, recs] : merged)
    if (is_shared_name(n)) total += shared_total(recs);
  if (total == 0) {
    std::vector<GresRecord>& recs = merged[name];
    recs.erase(std::remove_if(recs.begin(), recs.end(), [&](const GresRecord& r) { return r.name == name; }), recs.end());
  }
  return true;
}

}  // namespace greslint::model
