// SPDX-License-Identifier: Apache-2.0
// Stage C of the replay: slurmd reads gres.conf for one node class (slurm-semantics.md §5),
// line by line in _parse_gres_config's order of keys.
#include <algorithm>
#include <fmt/format.h>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "model/gres_flags.hpp"
#include "model/shared_gres.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::model {

std::string type_text(const std::optional<std::string>& t) { return t ? *t : "(null)"; }

bool Analyzer::known_autodetect(std::string_view value) const {
  if (iequals(value, "off")) return true;
  for (std::string_view v : profile_.autodetect_values())
    if (v != "off" && icontains(value, v)) return true;
  return false;
}

std::string Analyzer::known_autodetect_values_help() const {
  std::vector<std::string_view> values = profile_.autodetect_values();
  std::string last(values.back());
  values.pop_back();
  return fmt::format("use {} or {} (the values Slurm {} knows)", fmt::join(values, ", "), last,
                     profile_.version().str());
}

DiagnosticBuilder Analyzer::report_load(const ClassReplay& rp, const RuleInfo& rule, Span span, std::string message) {
  DiagnosticBuilder b = report_for(rule, span, std::move(message));
  // slurmctld runs this whole load itself at start-up for CLOUD nodes (_gres_reconfig), so
  // for them its fatals are slurmctld's.
  if (rp.node.cloud && rule.effect == Effect::fatal) b.effect(Effect::fatal, Daemon::slurmctld);
  return b;
}

bool Analyzer::read_records(ClassReplay& rp) {
  if (global_autodetect_kv_ && !known_autodetect(global_autodetect_)) {
    report_load(rp, rules::GRS204, global_autodetect_kv_->value_span,
                fmt::format("AutoDetect={} is not a value Slurm {} knows; it is ignored", global_autodetect_,
                            profile_.version().str()))
        .slurm(fmt::format("unknown autodetect flag '{}'", global_autodetect_))
        .help(known_autodetect_values_help());
    degrade(rp.cls);
  }
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
  // A global device line is read by every node, GPU-less ones too: slurmd stats each path
  // there and exits after 20 s when it is missing (C11, gotcha 3).
  for (auto& entry : parsed) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const GresLine* line = entry.first;
    const GresRecord& r = entry.second;
    if (line->node_scoped || !r.files) continue;
    auto it = rp.conf.find(r.name);
    const bool wanted = std::any_of(rp.conf.begin(), rp.conf.end(),
                                    [&](const auto& kv) { return iequals(kv.first, r.name) && kv.second.present; });
    if (wanted || (it == rp.conf.end() && !in_grestypes_nocase(r.name))) continue;
    report_load(rp, rules::GRS221, r.span_of("File"),
                fmt::format("this Name={} line has no NodeName=, so {} (which have no {} in slurm.conf) also open {}; "
                            "slurmd there waits 20 s and exits if the file is missing",
                            r.name, kNodes, r.name, *r.files))
        .slurm(fmt::format("can't stat gres.conf file {}: No such file or directory", r.paths.front()))
        .help(fmt::format("prefix the line with NodeName=<the {} nodes>", r.name));
  }
  std::vector<GresRecord>& records = rp.records;
  for (auto& [line, r] : parsed)
    if (!line->node_scoped) records.push_back(r);
  for (auto& [line, r] : parsed)
    if (line->node_scoped) records.push_back(r);
  rp.cls.autodetect = rp.node_autodetect ? *rp.node_autodetect : global_autodetect_;
  rp.autodetect_active =
      !rp.cls.autodetect.empty() && !iequals(rp.cls.autodetect, "off") && known_autodetect(rp.cls.autodetect);
  return true;
}

Analyzer::LineRead Analyzer::read_line(ClassReplay& rp, const GresLine& gres_line, PreviousFlags& previous,
                                       GresRecord& r) {
  const GresLine* line = &gres_line;
  const Directive& d = *line->d;
  const GresLineKeys keys = keys_of(*line);
  const KeyValue* autodetect = keys.autodetect;
  if (autodetect && !line->node_scoped) {
    report_load(rp, rules::GRS203, autodetect->key_span, "AutoDetect on a Name= line has no effect")
        .slurm("gres.conf: In-line AutoDetect requires NodeName to take effect")
        .help("put AutoDetect= on a line of its own, or on a NodeName= line");
    degrade(rp.cls);
  } else if (autodetect) {
    if (!known_autodetect(autodetect->value)) {
      report_load(rp, rules::GRS204, autodetect->value_span,
                  fmt::format("AutoDetect={} is not a value Slurm {} knows; it is ignored", autodetect->value,
                              profile_.version().str()))
          .slurm(fmt::format("unknown autodetect flag '{}'", autodetect->value))
          .help(known_autodetect_values_help());
      degrade(rp.cls);
    } else if (rp.node_autodetect && !iequals(*rp.node_autodetect, autodetect->value)) {
      report_load(rp, rules::GRS207, autodetect->value_span,
                  fmt::format("AutoDetect={} contradicts AutoDetect={} given earlier for {}", autodetect->value,
                              *rp.node_autodetect, kNodes))
          .slurm("gres.conf: duplicate node-local AutoDetect specification does not match the first")
          .help("give one AutoDetect value per node");
      fatal(rp.cls, rp.load_fatal, "gres.conf: duplicate node-local AutoDetect specification does not match the first");
      return LineRead::stop;
    } else {
      rp.node_autodetect = autodetect->value;
    }
  }
  const KeyValue* name_kv = keys.name;
  if (!name_kv) {
    if (autodetect) return LineRead::skip;
    std::string rest = std::string(sources_.text(Span{d.head().key_span.file, d.head().value_span.end, d.span.end}));
    while (!rest.empty() && is_space(rest.front())) rest.erase(rest.begin());
    report_load(rp, rules::GRS202, d.head().key_span, "this NodeName= line has no Name=, so Slurm ignores it")
        .slurm(fmt::format("Invalid GRES data, no type name ({})", rest))
        .help("add Name=gpu (or the GRES this line describes)");
    degrade(rp.cls);
    return LineRead::skip;
  }
  r.line = line;
  r.name = name_kv->value;
  if (keys.type) r.type = keys.type->value;
  // _parse_gres_config's order: Cores, File, MultipleFiles, Flags, Links, Count; the name is
  // checked against GresTypes last, so a record of a GRES slurmd then ignores can still be fatal.
  if (!read_cores(rp, keys, r) || !read_files(rp, keys, r) || !check_flags(rp, r, previous)) return LineRead::stop;
  read_links(rp, r);
  if (!read_count(rp, keys, r)) return LineRead::stop;
  if (!in_grestypes_nocase(name_kv->value)) {
    report_load(rp, rules::GRS201, name_kv->value_span,
                fmt::format("Name={} is not in GresTypes, so slurmd ignores this line", name_kv->value))
        .slurm(fmt::format("Ignoring gres.conf record, invalid name: {}", name_kv->value))
        .help(grestypes_.empty() ? "set GresTypes in slurm.conf"
                                 : "add it to GresTypes in slurm.conf, or fix the name");
    degrade(rp.cls);
    return LineRead::skip;
  }
  return LineRead::record;
}

bool Analyzer::read_cores(ClassReplay& rp, const GresLineKeys& keys, GresRecord& r) {
  const KeyValue* cores = keys.cores;
  if (!cores) return true;
  {
    r.cores = cores->value;
    r.core_bits = parse_core_list(cores->value, rp.node.topo.core_count());
    // slurmctld reads gres.conf for CLOUD nodes and checks the core list against the CPU count (C10b).
    if (rp.node.cloud && !parse_core_list(cores->value, rp.node.topo.cpus)) {
      std::string slurm = fmt::format("Invalid GRES data for {}, {}={} (only {} CPUs are available)", r.name,
                                      cores->spec->name, cores->value, rp.node.topo.cpus);
      report_load(rp, rules::GRS208, cores->value_span,
                  fmt::format("{}={} is beyond the {} CPUs of CLOUD nodes {}; slurmctld checks it and exits",
                              cores->key, cores->value, rp.node.topo.cpus, kNodes))
          .slurm(slurm)
          .effect(Effect::fatal, Daemon::slurmctld)
          .severity(Severity::error)
          .help(fmt::format("use core indexes below {}", rp.node.topo.core_count()));
      fatal(rp.cls, Verdict::slurmctld_fatal, slurm);
      return false;
    }
    if (!r.core_bits) {
      report_load(rp, rules::GRS208, cores->value_span,
                  fmt::format("{}={} is outside the node's cores 0-{} ({} sockets x {} cores); {} takes core "
                              "indexes, not CPU ids",
                              cores->key, cores->value, rp.node.topo.core_count() - 1, rp.node.topo.sockets,
                              rp.node.topo.cores, cores->key))
          .slurm(fmt::format("Invalid GRES data for {}, {}={}", r.name, cores->spec->name, cores->value))
          .help(fmt::format("use core indexes below {} (check Sockets/CoresPerSocket in slurm.conf)",
                            rp.node.topo.core_count()));
      degrade(rp.cls);
    }
  }
  return true;
}

bool Analyzer::read_files(ClassReplay& rp, const GresLineKeys& keys, GresRecord& r) {
  const KeyValue* file = keys.file;
  const KeyValue* mf = keys.multiple_files;
  if (file && mf) {
    report_load(rp, rules::GRS209, mf->key_span, "File= and MultipleFiles= cannot both be given")
        .slurm("File and MultipleFiles options are mutually exclusive")
        .help("use MultipleFiles= for one MIG device made of several files, File= otherwise");
    fatal(rp.cls, rp.load_fatal, "File and MultipleFiles options are mutually exclusive");
    return false;
  }
  if (file || mf) {
    const KeyValue* kv = file ? file : mf;
    auto l = parse_hostlist(kv->value, kv->value_span, profile_);
    if (!l.ok()) {
      report_load(rp, rules::GRS215, kv->value_span,
                  fmt::format("{}={} is not a valid device list", kv->key, kv->value))
          .slurm(fmt::format("can't parse File={}", kv->value))
          .help("write device ranges like /dev/nvidia[0-3]");
      fatal(rp.cls, rp.load_fatal, fmt::format("can't parse File={}", kv->value));
      return false;
    }
    spend(*l.list, kv->value_span);
    r.paths = l.list->expand();
    r.files = kv->value;
    r.multiple_files = mf != nullptr;
    if (mf && r.paths.size() < 2) {
      report_load(rp, rules::GRS210, mf->value_span, "MultipleFiles= names a single file")
          .slurm("MultipleFiles does not contain multiple files. Use File instead")
          .help("use File= for a single device file");
      fatal(rp.cls, rp.load_fatal, "MultipleFiles does not contain multiple files. Use File instead");
      return false;
    }
    r.count = mf ? 1 : r.paths.size();
  } else {
    r.count = 1;
  }
  return true;
}

// Flags: checked against and inherited from the previous record of the same name (§5.6).
bool Analyzer::check_flags(ClassReplay& rp, GresRecord& r, PreviousFlags& previous) {
  const KeyValue* flags = r.line->d->find("Flags");
  if (flags) r.flags = flags->value;
  const PreviousFlags::Check flags_check = previous.take(r.name, flags, profile_);
  if (flags_check == PreviousFlags::Check::no_gpu_env_mixed) {
    std::string slurm = fmt::format(
        "Invalid GRES record name={} type={}: Flags ({}) contains \"no_gpu_env\", which must be mutually "
        "exclusive to all other GRES env flags of same node and name",
        r.name, type_text(r.type), flags->value);
    report_load(rp, rules::GRS205, flags->value_span, "no_gpu_env cannot be combined with another *_env flag")
        .slurm(slurm)
        .help("keep either no_gpu_env or the *_env flags");
    fatal(rp.cls, rp.load_fatal, slurm);
    return false;
  }
  if (flags_check == PreviousFlags::Check::differs) {
    std::string slurm = fmt::format(
        "Invalid GRES record name={} type={}: Flags ({}) does not match env flags for previous GRES of same "
        "node and name",
        r.name, type_text(r.type), flags->value);
    report_load(rp, rules::GRS206, flags->value_span,
                "Flags differ from the previous gres.conf line for this GRES; every line of a name must carry "
                "the same env flags")
        .slurm(slurm)
        .help(
            "give every line of this GRES the same Flags= (a line without Flags, or with Flags= but no *_env "
            "word, counts as all env flags)");
    fatal(rp.cls, rp.load_fatal, slurm);
    return false;
  }
  return true;
}

void Analyzer::read_links(ClassReplay& rp, GresRecord& r) {
  const KeyValue* links = r.line->d->find("Links");
  if (!links) links = r.line->d->find("Link");
  if (links) {
    std::string bad = validate_links(links->value);
    if (bad.empty())
      r.links = links->value;
    else {
      report_load(
          rp, rules::GRS214, links->value_span,
          fmt::format("Links={} is not valid, so Slurm drops it: {}", links->value, bad.substr(bad.find(':') + 2)))
          .slurm(fmt::format("gres.conf: Ignoring invalid Links={} for Name={}", links->value, r.name))
          .help("list one entry per GPU with exactly one -1 for the device itself");
      degrade(rp.cls);
    }
  }
}

bool Analyzer::read_count(ClassReplay& rp, const GresLineKeys& keys, GresRecord& r) {
  // Only the exact names mps and shard are shared, so Name=MPS gets the File check too.
  if (const KeyValue* c = r.line->d->find("Count")) {
    auto n = parse_gres_count(c->value);
    if (!n) {
      std::string slurm = fmt::format("Invalid GRES record for {}, invalid count {}", r.name, c->value);
      report_load(rp, rules::GRS211, c->value_span, fmt::format("Count={} is not a count Slurm can read", c->value))
          .slurm(slurm)
          .help("write a whole number with an optional K/M/G suffix");
      fatal(rp.cls, rp.load_fatal, slurm);
      return false;
    }
    // A MultipleFiles= line is one device: its count from the files is 1.
    const std::uint64_t from_files = r.files ? r.count : 0;
    if (from_files && *n != from_files && !is_shared_name(r.name)) {
      std::string slurm = fmt::format("Invalid GRES record for {}, count does not match File value", r.name);
      const KeyValue* files_kv = keys.file ? keys.file : keys.multiple_files;
      auto b =
          r.multiple_files
              ? report_load(rp, rules::GRS212, c->value_span,
                            fmt::format("Count={} on a MultipleFiles= line, which is one device (count 1)", c->value))
              : report_load(rp, rules::GRS212, c->value_span,
                            fmt::format("Count={} but File= lists {} device{}", c->value, r.paths.size(),
                                        r.paths.size() == 1 ? "" : "s"));
      b.slurm(slurm)
          .related(files_kv->value_span,
                   r.multiple_files ? std::string("one device here") : fmt::format("{} devices here", r.paths.size()))
          .help(r.multiple_files ? std::string("remove Count= (or write Count=1)")
                                 : fmt::format("remove Count= (it defaults to the number of files), or set Count={}",
                                               r.paths.size()));
      fatal(rp.cls, rp.load_fatal, slurm);
      return false;
    }
    if (*n >= ~std::uint64_t(0) - 1) {
      std::string slurm = fmt::format("GRES {} has invalid count value {}", r.name, *n);
      report_load(rp, rules::GRS211, c->value_span, fmt::format("Count={} is too large", c->value)).slurm(slurm);
      fatal(rp.cls, rp.load_fatal, slurm);
      return false;
    }
    r.count = *n;
  }
  return true;
}

}  // namespace greslint::model
