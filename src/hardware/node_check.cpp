// SPDX-License-Identifier: Apache-2.0
// greslint node-check: the effective configuration of one node (or of every node in a
// captured inventory) compared with the hardware the kernel reports (rules GRS5xx), and
// --suggest, the slurm.conf/gres.conf lines that match the hardware.
// Section and check numbers refer to slurm-semantics.md.
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <spdlog/spdlog.h>
#include <sstream>

#include "gres_parse.hpp"
#include "greslint/config.hpp"
#include "greslint/environment.hpp"
#include "greslint/hardware.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/model.hpp"
#include "hardware/hw_util.hpp"
#include "rules/rules.hpp"
#include "suppress.hpp"
#include "util.hpp"

namespace greslint {
namespace {

using Cores = std::vector<std::uint32_t>;

// --- Inputs: version, slurm.conf, the lines that apply to the node -------------------------

/// One gres.conf line that applies to the node (a Name= line, or a NodeName= line naming it).
struct GresLine {
  const Directive* d = nullptr;
  std::string name;
  std::optional<std::string> type;
  Span type_span;
  std::vector<std::string> paths;
  bool multiple_files = false;
  std::string files_text;
  Span files_span;
  std::optional<std::string> cores;
  std::string cores_key;
  Span cores_span;
  Span head_span;
};

/// Everything parsed once per run (shared by every node of an inventory).
struct Config {
  ResolvedVersion version;
  std::string slurm_conf;
  SourceManager sources;
  Reporter lint_findings;
  Cluster cluster;
  ConfigFile slurm;
  ConfigFile gres;
  std::vector<std::string> grestypes;
  bool config_overrides = false;
  std::string gres_conf_path;
};

FileId file_of(const SourceManager& sources, const std::string& path) {
  for (std::size_t i = 0; i < sources.file_count(); ++i)
    if (sources.path(FileId{std::uint16_t(i)}) == path) return FileId{std::uint16_t(i)};
  return FileId{};
}

std::unique_ptr<Config> load_config(const NodeCheckOptions& o, std::ostream& err) {
  auto version = resolve_slurm_version(o.slurm_version, err);
  if (!version) return nullptr;
  auto conf = locate_slurm_conf(o.path, err);
  if (!conf) return nullptr;
  auto c = std::make_unique<Config>();
  c->version = *version;
  c->slurm_conf = *conf;
  LintInputs in;
  in.slurm_conf_path = *conf;
  in.gres_conf_path = join_path(dirname_of(*conf), "gres.conf");
  in.cgroup_conf_path = join_path(dirname_of(*conf), "cgroup.conf");
  c->gres_conf_path = in.gres_conf_path;
  VersionProfile profile(version->version);
  c->cluster = analyze(in, profile, c->sources, c->lint_findings);
  // Read both files again from the buffers analyze() kept, so spans match its comments.
  Reporter scratch;
  ReadOptions ro;
  ro.slurm_conf_dir = dirname_of(*conf);
  if (FileId f = file_of(c->sources, in.slurm_conf_path); f.valid()) {
    ro.table = KeyTable::slurm_conf;
    c->slurm = parse_config_text(f, ro, profile, c->sources, scratch);
  }
  if (FileId f = file_of(c->sources, in.gres_conf_path); f.valid()) {
    ro.table = KeyTable::gres_conf;
    c->gres = parse_config_text(f, ro, profile, c->sources, scratch);
  }
  for (const Directive& d : c->slurm.directives) {
    if (d.kind != Directive::Kind::setting) continue;
    if (iequals(d.head().spec->name, "GresTypes")) {
      c->grestypes.clear();
      for (std::string_view t : split_commas_view(d.head().value))
        if (!t.empty()) c->grestypes.emplace_back(t);
    }
    if (iequals(d.head().spec->name, "SlurmdParameters"))
      c->config_overrides = icontains(d.head().value, "config_overrides");
  }
  return c;
}

/// slurmd's node name lookup: the short host name, then the full one, then "localhost",
/// each against NodeHostname (which defaults to NodeName); finally NodeName itself.
std::optional<std::string> match_node(const Config& c, const VersionProfile& profile, const std::string& hostname) {
  std::vector<std::pair<std::string, std::string>> pairs;  // (hostname, nodename)
  for (const Directive& d : c.slurm.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().spec->name, "NodeName")) continue;
    if (iequals(d.head().value, "DEFAULT")) continue;
    auto names = parse_hostlist(d.head().value, Span{}, profile);
    if (!names.ok()) continue;
    std::vector<std::string> n = names.list->expand();
    std::vector<std::string> h = n;
    if (const KeyValue* kv = d.find("NodeHostname")) {
      auto hosts = parse_hostlist(kv->value, Span{}, profile);
      if (hosts.ok()) {
        std::vector<std::string> e = hosts.list->expand();
        if (e.size() == n.size()) h = e;
        else if (e.size() == 1) h.assign(n.size(), e.front());
      }
    }
    for (std::size_t i = 0; i < n.size(); ++i) pairs.emplace_back(h[i], n[i]);
  }
  std::string short_name = hostname.substr(0, hostname.find('.'));
  for (const std::string& want : {short_name, hostname, std::string("localhost")})
    for (const auto& [h, n] : pairs)
      if (h == want) return n;
  for (const auto& [h, n] : pairs)
    if (n == short_name || n == hostname) return n;
  return std::nullopt;
}

std::vector<GresLine> lines_for_node(const Config& c, const VersionProfile& profile, const std::string& node) {
  std::vector<GresLine> global, scoped;
  for (const Directive& d : c.gres.directives) {
    if (d.kind != Directive::Kind::record) continue;
    const bool node_scoped = iequals(d.head().spec->name, "NodeName");
    if (node_scoped) {
      auto l = parse_hostlist(d.head().value, Span{}, profile);
      if (!l.ok() || !l.list->contains(node)) continue;
    }
    const KeyValue* name = node_scoped ? d.find("Name") : &d.head();
    GresLine g;
    g.d = &d;
    g.head_span = name ? name->value_span : d.head().value_span;
    if (name) g.name = name->value;
    if (const KeyValue* t = d.find("Type")) g.type = t->value, g.type_span = t->value_span;
    const KeyValue* file = d.find("File");
    if (const KeyValue* files = d.find("Files"); files && (!file || files->key_span.begin > file->key_span.begin)) file = files;
    const KeyValue* mf = d.find("MultipleFiles");
    if (const KeyValue* kv = file ? file : mf) {
      auto l = parse_hostlist(kv->value, Span{}, profile);
      if (l.ok()) g.paths = l.list->expand();
      g.files_text = kv->value;
      g.files_span = kv->value_span;
      g.multiple_files = !file;
    }
    const KeyValue* cores = d.find("Cores");
    if (!cores) cores = d.find("CPUs");
    if (cores) g.cores = cores->value, g.cores_span = cores->value_span, g.cores_key = cores->key;
    (node_scoped ? scoped : global).push_back(std::move(g));
  }
  // slurmd's record order: every Name= line, then the NodeName= lines (§5.2).
  for (GresLine& g : scoped) global.push_back(std::move(g));
  return global;
}

// --- What Slurm counts as one GPU on this node ---------------------------------------------

struct Unit {
  const Gpu* gpu = nullptr;
  const MigInstance* mig = nullptr;
  std::vector<std::string> files;
  std::string type;  ///< the AutoDetect type name
  Cores local;       ///< NUMA-local logical cores (all cores when unknown)
  std::string label() const {
    std::string what = !gpu->model.empty() ? gpu->model
                       : gpu->vendor == GpuVendor::amd ? "AMD GPU"
                       : gpu->vendor == GpuVendor::intel ? "Intel GPU"
                                                         : "NVIDIA GPU";
    if (mig) return fmt::format("MIG instance gi{}/ci{} of {} ({})", mig->gi, mig->ci, gpu->device_file, what);
    return fmt::format("{} ({}, {})", gpu->device_file, gpu->bus_id.empty() ? "bus unknown" : gpu->bus_id, what);
  }
};

std::vector<Unit> units_of(const HardwareInventory& hw) {
  std::vector<Unit> out;
  for (const Gpu& g : hw.gpus) {
    if (g.mig.empty()) {
      out.push_back(Unit{&g, nullptr, {g.device_file}, autodetect_type_name(g.model), g.local_cores});
      continue;
    }
    for (const MigInstance& m : g.mig) out.push_back(Unit{&g, &m, m.files, autodetect_type_name(g.model), g.local_cores});
  }
  return out;
}

std::string fold_paths(std::vector<std::string> paths) {
  if (paths.empty()) return "";
  return fold_hostnames(std::move(paths));
}

std::string socket_range(const CpuTopology& t, int socket) {
  Cores c = t.cores_of_socket(std::uint32_t(socket));
  return c.empty() ? "" : fmt::format("{}-{}", c.front(), c.back());
}

std::string rule_words(const VersionProfile& p) {
  return p.socket_boundary_check() == SocketBoundaryCheck::per_socket ? "whole sockets"
                                                                       : "exactly one whole socket or all cores";
}

// --- The checks for one node ---------------------------------------------------------------

class NodeChecker {
 public:
  NodeChecker(const Config& c, const VersionProfile& profile, const std::string& node, const NodeClass& cls,
              const HardwareInventory& hw, Reporter& out)
      : c_(c), profile_(profile), node_(node), cls_(cls), hw_(hw), out_(out), topo_(hw.cpu) {
    lines_ = lines_for_node(c, profile, node);
    units_ = units_of(hw);
    if (std::find(c.grestypes.begin(), c.grestypes.end(), "gpu") != c.grestypes.end())
      configured_ = count_gres(cls.configured_gres, "gpu");
    detect_vendor_ = autodetect_vendor();
  }

  void run() {
    check_topology();
    check_missing_files();
    if (detect_vendor_) check_autodetect();
    else check_explicit();
  }

 private:
  DiagnosticBuilder report(const RuleInfo& rule, Span span, std::string message) {
    return out_.report(rule, span, std::move(message)).nodes(node_);
  }

  bool in_grestypes(const std::string& name) const {
    return std::any_of(c_.grestypes.begin(), c_.grestypes.end(), [&](const std::string& g) { return iequals(g, name); });
  }
  std::vector<const GresLine*> gpu_lines() const {
    std::vector<const GresLine*> out;
    for (const GresLine& l : lines_)
      if (iequals(l.name, "gpu") && in_grestypes(l.name)) out.push_back(&l);
    return out;
  }

  /// Which vendor's GPUs AutoDetect finds here, or nullopt when it is off or unknown.
  std::optional<GpuVendor> autodetect_vendor() const {
    const std::string& v = cls_.autodetect;
    if (v.empty() || iequals(v, "off")) return std::nullopt;
    for (std::string_view known : profile_.autodetect_values()) {
      if (known == "off" || !icontains(v, known)) continue;
      if (known == "rsmi") return GpuVendor::amd;
      if (known == "oneapi") return GpuVendor::intel;
      if (known == "nrt") return std::nullopt;
      return GpuVendor::nvidia;  // nvml, nvidia, full
    }
    return std::nullopt;
  }

  Span autodetect_span() const {
    Span s;
    for (const Directive& d : c_.gres.directives) {
      if (d.kind == Directive::Kind::setting && iequals(d.head().spec->name, "AutoDetect")) s = d.head().value_span;
    }
    for (const GresLine& l : lines_)
      if (const KeyValue* kv = l.d->find("AutoDetect")) return kv->value_span;
    return s;
  }

  Span node_topology_span(std::uint32_t hs, std::uint32_t hc, std::uint32_t ht, std::uint32_t hcpu) const {
    for (const Directive& d : c_.slurm.directives) {
      if (d.kind != Directive::Kind::record || !iequals(d.head().spec->name, "NodeName")) continue;
      if (iequals(d.head().value, "DEFAULT")) continue;
      auto l = parse_hostlist(d.head().value, Span{}, profile_);
      if (!l.ok() || !l.list->contains(node_)) continue;
      const std::pair<const char*, bool> keys[] = {
          {"Sockets", cls_.sockets != hs},        {"SocketsPerBoard", cls_.sockets != hs},
          {"CoresPerSocket", cls_.cores_per_socket != hc}, {"ThreadsPerCore", cls_.threads_per_core != ht},
          {"CPUs", cls_.cpus != hcpu},            {"Procs", cls_.cpus != hcpu}};
      for (const auto& [key, differs] : keys)
        if (const KeyValue* kv = d.find(key); kv && differs) return kv->key_span;
      return d.head().value_span;
    }
    return Span{};
  }

  /// Where a finding about the node's GPUs as a whole points: its first gpu line, else Gres=.
  Span gpu_anchor() const {
    auto lines = gpu_lines();
    if (!lines.empty()) return lines.front()->files_span.valid() ? lines.front()->files_span : lines.front()->head_span;
    return cls_.configured_gres_span;
  }

  std::string gres_spec(std::uint64_t count) const {
    if (configured_.types.size() == 1) return fmt::format("gpu:{}:{}", configured_.types.front().type, count);
    return fmt::format("gpu:{}", count);
  }

  // GRS506: slurm.conf topology against the CPUs.
  void check_topology() {
    if (topo_.empty()) return;
    const std::uint32_t hs = topo_.sockets(), hc = topo_.cores_per_socket(), ht = topo_.threads_per_core(),
                        hcpu = topo_.cpus();
    if (cls_.sockets == hs && cls_.cores_per_socket == hc && cls_.threads_per_core == ht && cls_.cpus == hcpu) return;
    const std::uint64_t conf_threads = std::uint64_t(cls_.sockets) * cls_.cores_per_socket * cls_.threads_per_core;
    const std::uint64_t hw_threads = std::uint64_t(hs) * hc * ht;
    std::vector<std::string> reasons;
    if (hw_threads < conf_threads) reasons.push_back("Low socket*core*thread count");
    if (hcpu < cls_.cpus) reasons.push_back("Low CPUs");
    const bool drains = !reasons.empty() && !c_.config_overrides;
    std::string line = fmt::format("CPUs={} Sockets={} CoresPerSocket={} ThreadsPerCore={}", hcpu, hs, hc, ht);
    std::string consequence =
        drains ? fmt::format("slurmctld drains it at registration with \"{}\"", fmt::join(reasons, ", "))
               : "Slurm schedules the layout slurm.conf gives, and reads gres.conf Cores= against it";
    auto b = report(rules::GRS506, node_topology_span(hs, hc, ht, hcpu),
                    fmt::format("slurm.conf gives {} Sockets={} CoresPerSocket={} ThreadsPerCore={} ({} CPUs) but the "
                                "node has {}; {}",
                                node_, cls_.sockets, cls_.cores_per_socket, cls_.threads_per_core, cls_.cpus, line,
                                consequence))
                 .slurm(fmt::format("Node configuration differs from hardware: CPUs={}:{}(hw) Boards=1:1(hw) "
                                    "SocketsPerBoard={}:{}(hw) CoresPerSocket={}:{}(hw) ThreadsPerCore={}:{}(hw)",
                                    cls_.cpus, hcpu, cls_.sockets, hs, cls_.cores_per_socket, hc,
                                    cls_.threads_per_core, ht))
                 .help(fmt::format("write {} on the NodeName line (what slurmd -C prints)", line));
    if (drains) b.severity(Severity::error).effect(Effect::drain, Daemon::slurmctld);
    if (!topo_.uniform())
      spdlog::warn("{}: sockets or cores differ in size; Slurm's per-socket numbers are averages", node_);
  }

  // GRS501: every File=/MultipleFiles= path of every line that applies to the node (C11).
  void check_missing_files() {
    for (const GresLine& l : lines_) {
      if (l.paths.empty() || !in_grestypes(l.name)) continue;
      std::vector<std::string> missing;
      for (const std::string& p : l.paths)
        if (!hw_.path_exists(p)) missing.push_back(p);
      if (missing.empty()) continue;
      std::vector<std::string> present;
      for (const Gpu& g : hw_.gpus)
        if (g.device_file_exists) present.push_back(g.device_file);
      std::vector<std::string> instances;
      for (const Unit& u : units_)
        if (u.mig) instances.push_back(fmt::format("{}", fmt::join(u.files, ",")));
      const bool caps = std::any_of(missing.begin(), missing.end(),
                                    [](const std::string& p) { return p.rfind("/dev/nvidia-caps/", 0) == 0; });
      std::string help =
          caps && !instances.empty()
              ? fmt::format("the node's MIG instances are MultipleFiles={}: name those (MIG instances were "
                            "re-created since gres.conf was written)",
                            fmt::join(instances, " and "))
          : iequals(l.name, "gpu") && !present.empty()
              ? fmt::format("the node has {} GPU device file{} {}: list only those (and fix slurm.conf Gres= to match), "
                            "or bring the missing GPU back",
                            present.size(), present.size() == 1 ? "" : "s", fold_paths(present))
              : "list only device files that exist on the node";
      report(rules::GRS501, l.files_span,
             fmt::format("{} {} not exist on {}; slurmd waits 20 s for {} and then exits", fold_paths(missing),
                         missing.size() == 1 ? "does" : "do", node_, missing.size() == 1 ? "it" : "them"))
          .slurm(fmt::format("can't stat gres.conf file {}: No such file or directory", missing.front()))
          .help(std::move(help));
    }
  }

  /// Units whose device files a line names.
  std::vector<const Unit*> units_of_line(const GresLine& l) const {
    std::vector<const Unit*> out;
    std::set<std::string> paths(l.paths.begin(), l.paths.end());
    for (const Unit& u : units_) {
      if (u.mig && !l.multiple_files) continue;
      // A MIG instance is named by its GPU and its GPU-instance capability; AutoDetect adds
      // the compute-instance capability too, but a hand-written line may leave it out.
      const std::size_t needed = u.mig ? 2 : u.files.size();
      if (std::all_of(u.files.begin(), u.files.begin() + needed, [&](const std::string& f) { return paths.count(f) > 0; }))
        out.push_back(&u);
    }
    return out;
  }

  void check_count(std::uint64_t reported, const std::string& why, std::string help = {}) {
    if (!configured_.present || reported >= configured_.total) return;
    report(rules::GRS503, cls_.configured_gres_span,
           fmt::format("{} has {} {} that Slurm can use but slurm.conf configures {}{}", node_, reported,
                       reported == 1 ? "GPU" : "GPUs", configured_.total, why))
        .slurm(fmt::format("gres/gpu count reported lower than configured ({} < {})", reported, configured_.total))
        .help(!help.empty() ? help
                            : fmt::format("repair or reseat the missing GPU, or configure Gres={} for {} until it is back",
                                          gres_spec(reported), node_));
  }

  // Nodes without AutoDetect: what gres.conf says against what is there.
  void check_explicit() {
    const auto lines = gpu_lines();
    // GRS502: GPUs (or MIG instances) no line names.
    std::set<const Unit*> covered;
    std::set<const Gpu*> whole_gpu_lines;  // MIG GPUs given as a whole with File=
    for (const GresLine* l : lines) {
      for (const Unit* u : units_of_line(*l)) covered.insert(u);
      if (!l->multiple_files)
        for (const Gpu& g : hw_.gpus)
          if (!g.mig.empty() && std::find(l->paths.begin(), l->paths.end(), g.device_file) != l->paths.end())
            whole_gpu_lines.insert(&g);
    }
    std::vector<std::string> loose;
    std::map<const Gpu*, std::vector<const Unit*>> loose_mig;
    for (const Unit& u : units_) {
      if (covered.count(&u)) continue;
      if (u.mig) loose_mig[u.gpu].push_back(&u);
      else loose.push_back(u.gpu->device_file);
    }
    if (!loose.empty()) {
      std::vector<std::string> labels;
      for (const Unit& u : units_)
        if (!u.mig && !covered.count(&u)) labels.push_back(u.label());
      report(rules::GRS502, gpu_anchor(),
             fmt::format("{} has {} GPU{} that gres.conf does not configure: {}; no job can use {}", node_, loose.size(),
                         loose.size() == 1 ? "" : "s", fmt::join(labels, ", "), loose.size() == 1 ? "it" : "them"))
          .help(fmt::format("add File={} to a gpu line for {} and raise the count in slurm.conf Gres= "
                            "(greslint node-check --suggest prints the lines)",
                            fold_paths(loose), node_));
    }
    for (const auto& [gpu, list] : loose_mig) {
      std::vector<std::string> ids;
      for (const Unit* u : list) ids.push_back(fmt::format("gi{}/ci{}", u->mig->gi, u->mig->ci));
      const bool whole = whole_gpu_lines.count(gpu) > 0;
      report(rules::GRS502, gpu_anchor(),
             fmt::format("{} on {} is in MIG mode with {} instance{} ({}) that gres.conf does not configure{}", gpu->device_file,
                         node_, list.size(), list.size() == 1 ? "" : "s", fmt::join(ids, ", "),
                         whole ? "; it gives the whole GPU, which jobs cannot use while MIG is on" : ""))
          .help(fmt::format("give each instance a line: Name=gpu MultipleFiles={}", fmt::join(list.front()->files, ",")));
    }
    // GRS503: fewer GPUs than slurm.conf counts.
    check_count(units_.size(), units_.empty() ? " (no GPU found)" : "");
    // GRS504/505/507 per line.
    for (const GresLine* l : lines) {
      auto us = units_of_line(*l);
      if (us.empty()) continue;
      if (l->cores) check_line_cores(*l, us, false);
      if (l->type) check_line_type(*l, us, Severity::note, Effect::advice,
                                   "Slurm accepts any Type= here, but AutoDetect would not match it");
    }
  }

  /// GRS507 for a line naming these units.
  void check_line_type(const GresLine& l, const std::vector<const Unit*>& us, Severity sev, Effect eff,
                       const std::string& consequence) {
    for (const Unit* u : us) {
      if (u->mig || u->gpu->vendor != GpuVendor::nvidia || u->gpu->model.empty()) continue;  // names unknown
      if (icontains(u->type, *l.type)) continue;
      report(rules::GRS507, l.type_span,
             fmt::format("Type={} is not part of {}'s model name \"{}\" (AutoDetect calls it {}); {}", *l.type,
                         u->gpu->device_file, u->gpu->model, u->type, consequence))
          .severity(sev)
          .effect(eff, Daemon::slurmd)
          .help(fmt::format("use a part of the model name, e.g. Type={} (and the same type in slurm.conf Gres=)",
                            short_gpu_type(u->gpu->model)));
      return;
    }
  }

  /// GRS504/GRS505 for a line with Cores= naming these units. `exact`: AutoDetect compares
  /// with the detected affinity itself (E4), so the expected value is the NUMA-local cores.
  void check_line_cores(const GresLine& l, const std::vector<const Unit*>& us, bool exact) {
    const std::uint32_t ncores = topo_.cores();
    if (ncores == 0) return;
    auto conf = parse_core_list(*l.cores, ncores);
    std::vector<Cores> expected;
    Cores all_expected, all_local;
    for (const Unit* u : us) {
      expected.push_back(exact ? u->local : expected_gpu_cores(u->local, topo_, profile_));
      all_expected.insert(all_expected.end(), expected.back().begin(), expected.back().end());
      all_local.insert(all_local.end(), u->local.begin(), u->local.end());
    }
    for (Cores* v : {&all_expected, &all_local}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    const bool same = std::all_of(expected.begin(), expected.end(), [&](const Cores& e) { return e == expected.front(); });
    if (conf && same && *conf == expected.front()) return;
    // Which GPUs the line gets wrong, and what each should have.
    std::vector<std::string> per_gpu;
    std::map<Cores, std::vector<std::string>> groups;
    for (std::size_t i = 0; i < us.size(); ++i) {
      const Unit* u = us[i];
      const std::string file = u->mig ? fmt::format("{}", fmt::join(u->files, ",")) : u->gpu->device_file;
      groups[expected[i]].push_back(file);
      if (!conf || *conf != expected[i])
        per_gpu.push_back(fmt::format("{} is local to cores {}{}", u->mig ? u->label() : u->gpu->device_file,
                                      format_index_list(u->local),
                                      u->gpu->numa_node ? fmt::format(" (NUMA node {})", *u->gpu->numa_node) : ""));
    }
    std::string right;
    if (groups.size() == 1) {
      right = fmt::format("use {}={}", l.cores_key, format_index_list(expected.front()));
    } else {
      std::vector<std::string> parts;
      for (const auto& [cores, files] : groups)
        parts.push_back(fmt::format("{}={} {}={}", l.multiple_files ? "MultipleFiles" : "File",
                                    l.multiple_files ? fmt::format("{}", fmt::join(files, ",")) : fold_paths(files), l.cores_key,
                                    format_index_list(cores)));
      right = fmt::format("split the line: {}", fmt::join(parts, " and "));
    }
    if (!exact && expected.front() != us.front()->local && same)
      right += fmt::format(" (Slurm {} needs {} in Cores=; the GPU's own NUMA-local cores are {})",
                           profile_.version().str(), rule_words(profile_), format_index_list(all_local));
    // GRS505: the numbers are CPU ids; read as CPUs they are the GPUs' cores.
    auto as_ids = parse_core_list(*l.cores, 1u << 20);
    if (as_ids) {
      Cores as_cores = topo_.cores_of_cpus(*as_ids);
      const bool cpu_like = as_cores != *as_ids && (as_cores == all_local || as_cores == all_expected) &&
                            (!conf || *conf != as_cores);
      if (cpu_like) {
        std::vector<std::uint32_t> hyper;
        for (std::uint32_t id : *as_ids) {
          auto core = topo_.core_of_cpu(id);
          if (core && topo_.cpus_of_core(*core).front() != id) hyper.push_back(id);
        }
        auto b = report(rules::GRS505, l.cores_span,
                        fmt::format("{}={} lists CPU ids{}; Slurm reads logical core indexes, and {} has {} cores "
                                    "(0-{}); as cores these GPUs are {}",
                                    l.cores_key, *l.cores,
                                    hyper.empty() ? std::string()
                                                  : fmt::format(" (hyperthread siblings {})", format_index_list(hyper)),
                                    node_, ncores, ncores - 1, format_index_list(as_cores)))
                     .help(right);
        if (!conf) invalid_cores(b, l);
        return;
      }
    }
    auto b = report(rules::GRS504, l.cores_span,
                    fmt::format("{}={} is not the NUMA-local cores of {} on {}: {}", l.cores_key, *l.cores,
                                us.size() == 1 ? "this GPU" : "these GPUs", node_, fmt::join(per_gpu, "; ")))
                 .help(right);
    if (exact) {
      b.severity(Severity::error)
          .effect(Effect::degraded, Daemon::slurmd)
          .slurm("This GPU specified in [slurm|gres].conf has mismatching Cores or Links from the device found on the "
                 "system. Ignoring it.");
      return;
    }
    if (!conf) {
      invalid_cores(b, l);
      return;
    }
    const int bad = socket_rule_violation(*conf, topo_, profile_);
    if (bad >= 0) {
      b.severity(Severity::error)
          .effect(Effect::drain, Daemon::slurmctld)
          .slurm(fmt::format("gres/gpu GRES core specification {} for node {} doesn't match socket boundaries. "
                             "(Socket {} is cores {})",
                             format_index_list(*conf), node_, bad, socket_range(topo_, bad)));
    }
  }

  /// Core indexes beyond the node: slurmd logs C10; from 24.11 slurmctld invalidates the node (F8).
  void invalid_cores(DiagnosticBuilder& b, const GresLine& l) {
    if (profile_.invalid_cores_invalidates_node())
      b.severity(Severity::error)
          .effect(Effect::drain, Daemon::slurmctld)
          .slurm(fmt::format("_foreach_rebuild_topo: invalid GRES core specification ({}) on node {}", *l.cores, node_));
    else
      b.slurm(fmt::format("Invalid GRES data for gpu, {}={}", l.cores_key, *l.cores));
  }

  // Nodes with AutoDetect: replay gres_gpu.c:_merge_system_gres_conf (§5.7) on the GPUs found.
  void check_autodetect() {
    std::vector<const Unit*> detected;
    for (const Unit& u : units_)
      if (u.gpu->vendor == *detect_vendor_) detected.push_back(&u);
    struct Conf {
      std::optional<std::string> type;
      std::vector<std::string> files;  ///< empty: no File
      std::optional<std::string> cores;
      const GresLine* line = nullptr;
    };
    std::vector<Conf> confs;
    std::set<std::string> conf_types;
    for (const EffectiveGres& g : cls_.gres) {
      if (g.name != "gpu") continue;
      if (g.type) conf_types.insert(*g.type);
      std::vector<std::string> paths;
      if (g.files) {
        auto l = parse_hostlist(*g.files, Span{}, profile_);
        if (l.ok()) paths = l.list->expand();
      }
      const GresLine* line = find_line(g, paths);
      if (paths.empty()) {
        for (std::uint64_t i = 0; i < g.count && i < 4096; ++i) confs.push_back(Conf{g.type, {}, g.cores, line});
      } else if (g.count == 1 && paths.size() > 1) {
        confs.push_back(Conf{g.type, paths, g.cores, line});  // MultipleFiles: one device
      } else {
        for (const std::string& p : paths) confs.push_back(Conf{g.type, {p}, g.cores, line});
      }
    }
    // Detected types become the configured type they contain, longest first (§5.5).
    std::vector<std::string> by_length(conf_types.begin(), conf_types.end());
    std::stable_sort(by_length.begin(), by_length.end(),
                     [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    std::vector<std::optional<std::string>> det_type;
    // AMD and Intel model names (rsmi, oneapi) are not in sysfs: such a GPU may carry any type.
    std::vector<bool> any_type;
    for (const Unit* u : detected) {
      any_type.push_back(u->type.empty());
      std::optional<std::string> t = u->type;
      if (conf_types.empty()) t.reset();
      else
        for (const std::string& ct : by_length)
          if (icontains(u->type, ct)) { t = ct; break; }
      det_type.push_back(t);
    }
    std::vector<bool> taken(detected.size(), false);
    std::vector<const Unit*> used;
    std::uint64_t reported = 0, e4 = 0, e5 = 0;
    std::map<const GresLine*, std::vector<const Unit*>> mismatched_cores;
    std::vector<const Conf*> unmatched_typed;
    auto matches = [&](const Conf& c, std::size_t i) {
      if (taken[i]) return false;
      if (c.type && !any_type[i] && (!det_type[i] || *det_type[i] != *c.type)) return false;
      if (!c.files.empty()) {
        std::set<std::string> a(c.files.begin(), c.files.end()), b(detected[i]->files.begin(), detected[i]->files.end());
        if (a != b) return false;
      }
      return true;
    };
    for (int pass = 0; pass < 2; ++pass) {
      for (const Conf& c : confs) {
        if ((pass == 0) == c.files.empty()) continue;
        std::optional<Cores> conf_bits;
        if (c.cores) conf_bits = parse_core_list(*c.cores, std::max<std::uint32_t>(topo_.cores(), 1));
        bool matched = false;
        for (std::size_t i = 0; i < detected.size(); ++i) {
          if (!matches(c, i)) continue;
          if (c.cores && !conf_bits) break;  // an unreadable Cores= never matches (C10)
          taken[i] = true;
          matched = true;
          if (conf_bits && *conf_bits != detected[i]->local) {
            ++e4;
            mismatched_cores[c.line].push_back(detected[i]);
          } else {
            ++reported;
            used.push_back(detected[i]);
          }
          break;
        }
        if (matched) continue;
        if (!c.files.empty()) ++reported;  // config-only, kept
        else ++e5;
        if (c.type) unmatched_typed.push_back(&c);
      }
    }
    // GRS507: a Type= that no detected model contains.
    std::set<const GresLine*> type_done;
    for (const Conf* c : unmatched_typed) {
      if (c->line && !c->line->type) continue;
      if (type_done.count(c->line)) continue;
      bool found = false;
      for (const Unit* u : detected) found = found || u->type.empty() || icontains(u->type, *c->type);
      if (found || detected.empty() || *detect_vendor_ != GpuVendor::nvidia) continue;
      type_done.insert(c->line);
      std::set<std::string> models;
      for (const Unit* u : detected) models.insert(u->type);
      const bool fileless = c->files.empty();
      report(rules::GRS507, c->line ? c->line->type_span : cls_.configured_gres_span,
             fmt::format("Type={} is not part of the model name AutoDetect reports on {} ({}); {}", *c->type, node_,
                         fmt::join(models, ", "),
                         fileless ? "slurmd discards these GPUs, so fewer are reported than configured"
                                  : "the line is kept as configured but the detected GPU is ignored"))
          .severity(fileless ? Severity::error : Severity::warning)
          .effect(Effect::degraded, Daemon::slurmd)
          .slurm(fileless ? "Discarding the following config-only GPU due to lack of File specification:"
                          : "The following autodetected GPUs are being ignored:")
          .help(fmt::format("use a part of the model name, e.g. Type={}, in gres.conf and slurm.conf Gres=",
                            short_gpu_type(detected.front()->gpu->model)));
    }
    // GRS504 (E4): configured Cores= that differ from the detected affinity.
    for (const auto& [line, list] : mismatched_cores) {
      if (line && line->cores) check_line_cores(*line, list, true);
    }
    // GRS502 (E6): detected GPUs nothing claims.
    std::vector<std::string> ignored;
    for (std::size_t i = 0; i < detected.size(); ++i)
      if (!taken[i]) ignored.push_back(detected[i]->label());
    if (!ignored.empty()) {
      report(rules::GRS502, autodetect_span().valid() ? autodetect_span() : gpu_anchor(),
             fmt::format("AutoDetect finds {} GPU{} on {} that the configuration does not claim: {}", ignored.size(),
                         ignored.size() == 1 ? "" : "s", node_, fmt::join(ignored, ", ")))
          .slurm("The following autodetected GPUs are being ignored:")
          .help(fmt::format("configure Gres={} in slurm.conf for {}", gres_spec(detected.size()), node_));
    }
    // GRS503 (F1).
    std::string why;
    if (e4 || e5)
      why = fmt::format(" ({} detected; {})", detected.size(),
                        e4 ? "configured Cores= differ from the detected ones" : "configured GPUs match no detected one");
    check_count(reported, why,
                e4 || e5 ? "make the gres.conf and slurm.conf GPUs match what AutoDetect finds (Type= a part of the model "
                           "name, Cores= the detected affinity)"
                         : "");
    // GRS508 (F9 on the detected affinity), the first record Slurm checks.
    for (const Unit* u : used) {
      const int bad = socket_rule_violation(u->local, topo_, profile_);
      if (bad < 0) continue;
      std::string hint;
      if (profile_.version() >= kSlurm2605) hint = " See Socket Affinity section of gres.html for more information.";
      else if (profile_.version() >= kSlurm2511)
        hint = " Consider setting Parameters=l3cache_as_socket as part of the Node configuration.";
      else if (profile_.version() >= kSlurm2505)
        hint = " Consider setting SlurmdParameters=l3cache_as_socket (recommended) or override this by manually "
               "specifying core affinity in gres.conf.";
      const std::string range = socket_range(topo_, bad);
      report(rules::GRS508, autodetect_span().valid() ? autodetect_span() : gpu_anchor(),
             fmt::format("AutoDetect gives {} the affinity of cores {} on {}, which splits socket {} (cores {}); Slurm {} "
                         "requires {}",
                         u->gpu->device_file, format_index_list(u->local), node_, bad, range, profile_.version().str(),
                         rule_words(profile_)))
          .slurm(fmt::format("gres/gpu GRES autodetected core affinity {} on node {} doesn't match socket boundaries. "
                             "(Socket {} is cores {}).{}",
                             format_index_list(u->local), node_, bad, range, hint))
          .help(profile_.version() >= kSlurm2511
                    ? fmt::format("add Parameters=l3cache_as_socket to the NodeName line of {}", node_)
                : profile_.version() >= kSlurm2505
                    ? "set SlurmdParameters=l3cache_as_socket in slurm.conf"
                    : fmt::format("turn AutoDetect off for {} and list the GPUs with File= and whole-socket Cores= "
                                  "(greslint node-check --suggest)",
                                  node_));
      break;
    }
  }

  /// The gres.conf line an effective record came from (by its files, else its type).
  const GresLine* find_line(const EffectiveGres& g, const std::vector<std::string>& paths) const {
    for (const GresLine* l : gpu_lines()) {
      if (!paths.empty()) {
        if (!l->paths.empty() && std::find(l->paths.begin(), l->paths.end(), paths.front()) != l->paths.end()) return l;
        continue;
      }
      if (l->paths.empty() && ((g.type && l->type && iequals(*g.type, *l->type)) || (!g.type && !l->type))) return l;
    }
    return nullptr;
  }

  const Config& c_;
  const VersionProfile& profile_;
  const std::string& node_;
  const NodeClass& cls_;
  const HardwareInventory& hw_;
  Reporter& out_;
  const CpuTopology& topo_;
  std::vector<GresLine> lines_;
  std::vector<Unit> units_;
  GresCount configured_;
  std::optional<GpuVendor> detect_vendor_;
};

// --- --suggest ----------------------------------------------------------------------------

void suggest(const std::string& node, const HardwareInventory& hw, const VersionProfile& profile, std::ostream& out) {
  const CpuTopology& t = hw.cpu;
  std::vector<Unit> units = units_of(hw);
  const bool any_mig = std::any_of(hw.gpus.begin(), hw.gpus.end(), [](const Gpu& g) { return !g.mig.empty(); });
  // Short types, unless two models would share one.
  std::map<std::string, std::string> type_of_model;
  std::map<std::string, std::set<std::string>> models_of_type;
  // A model sysfs does not name (AMD, Intel) leaves every line untyped: a guessed type
  // would be one AutoDetect does not know.
  const bool untyped = any_mig || std::any_of(hw.gpus.begin(), hw.gpus.end(), [](const Gpu& g) { return g.model.empty(); });
  for (const Gpu& g : hw.gpus) {
    type_of_model[g.model] = g.model.empty() ? std::string() : short_gpu_type(g.model);
    models_of_type[type_of_model[g.model]].insert(g.model);
  }
  for (auto& [model, type] : type_of_model)
    if (models_of_type[type].size() > 1 && !model.empty()) type = autodetect_type_name(model);
  out << fmt::format("# greslint node-check --suggest: {} as its hardware is (Slurm {} profile)\n", node,
                     profile.version().str());
  std::string gres;
  if (!units.empty()) {
    if (untyped) {
      gres = fmt::format(" Gres=gpu:{}", units.size());
    } else {
      std::vector<std::pair<std::string, std::size_t>> counts;
      for (const Unit& u : units) {
        const std::string& ty = type_of_model[u.gpu->model];
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == ty; });
        if (it == counts.end()) counts.emplace_back(ty, 1);
        else ++it->second;
      }
      std::vector<std::string> parts;
      for (const auto& [ty, n] : counts) parts.push_back(fmt::format("gpu:{}:{}", ty, n));
      gres = " Gres=" + fmt::format("{}", fmt::join(parts, ","));
    }
  }
  out << "# slurm.conf (GresTypes=gpu):\n";
  if (t.empty()) out << fmt::format("# no CPU topology under {}/sys/devices/system/cpu\nNodeName={}{}\n", hw.sysroot, node, gres);
  else
    out << fmt::format("NodeName={} CPUs={} Sockets={} CoresPerSocket={} ThreadsPerCore={}{}\n", node, t.cpus(),
                       t.sockets(), t.cores_per_socket(), t.threads_per_core(), gres);
  out << "# gres.conf:\n";
  if (units.empty()) {
    out << "# no GPUs found\n";
    return;
  }
  if (any_mig)
    out << "# MIG profile names cannot be read from /proc; the lines are untyped. To type them, add the profile\n"
           "# (nvidia-smi mig -lgi, e.g. Type=1g.10gb) to every line and to slurm.conf Gres=.\n";
  if (untyped && !any_mig)
    out << "# the GPU model is not in sysfs, so the lines are untyped; to type them, add the same Type= to\n"
           "# every line and to slurm.conf Gres=.\n";
  bool narrowed = false;
  // Whole GPUs: consecutive GPUs with the same type and cores share a line.
  struct Group {
    std::string type;
    Cores cores;
    std::vector<std::string> files;
  };
  std::vector<Group> groups;
  for (const Unit& u : units) {
    Cores cores = t.empty() ? Cores{} : expected_gpu_cores(u.local, t, profile);
    if (cores != u.local) narrowed = true;
    if (u.mig) {
      out << fmt::format("NodeName={} Name=gpu MultipleFiles={}{}\n", node, fmt::join(u.files, ","),
                         cores.empty() ? "" : " Cores=" + format_index_list(cores));
      continue;
    }
    std::string ty = untyped ? "" : type_of_model[u.gpu->model];
    if (!groups.empty() && groups.back().type == ty && groups.back().cores == cores) groups.back().files.push_back(u.gpu->device_file);
    else groups.push_back(Group{ty, cores, {u.gpu->device_file}});
  }
  for (const Group& g : groups)
    out << fmt::format("NodeName={} Name=gpu{} File={}{}\n", node, g.type.empty() ? "" : " Type=" + g.type,
                       fold_paths(g.files), g.cores.empty() ? "" : " Cores=" + format_index_list(g.cores));
  if (narrowed)
    out << fmt::format("# Slurm {} needs {} in Cores=, so these are wider than the GPUs' NUMA-local cores;\n"
                       "# Parameters=l3cache_as_socket (25.11+) makes each L3 cache a socket instead.\n",
                       profile.version().str(), rule_words(profile));
}

// --- Captured inventories ------------------------------------------------------------------

int remove_entry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Unpacks a captured tarball into a fresh temporary directory with the system tar.
std::optional<std::string> extract_tarball(const std::string& archive, std::ostream& err) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = join_path(tmp && *tmp ? tmp : "/tmp", "greslint-inventory.XXXXXX");
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) {
    err << fmt::format("greslint: cannot create a temporary directory for {}\n", archive);
    return std::nullopt;
  }
  std::string dir(buf.data());
  pid_t pid = ::fork();
  if (pid == 0) {
    // No device nodes, owners or modes from the archive: a capture holds plain files.
    ::execlp("tar", "tar", "-x", "-f", archive.c_str(), "-C", dir.c_str(), "--no-same-owner", "--no-same-permissions",
             "--exclude=*..*", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    err << fmt::format("greslint: cannot unpack {} with tar\n", archive);
    ::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return std::nullopt;
  }
  return dir;
}

struct Target {
  std::string node;
  std::string sysroot;
  std::string temp;  ///< a directory to delete afterwards
};

bool inventory_targets(const std::string& dir, std::vector<Target>& out, std::ostream& err) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    err << fmt::format("greslint: --inventory {}: not a directory\n", dir);
    return false;
  }
  bool ok = true;
  for (const std::string& name : hw::list_dir(dir)) {
    if (name.front() == '.') continue;
    const std::string path = join_path(dir, name);
    if (::stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out.push_back(Target{name, path, ""});
      continue;
    }
    std::string node;
    for (std::string_view ext : {".tar.gz", ".tgz", ".tar"})
      if (node.empty() && ends_with(name, ext)) node = name.substr(0, name.size() - ext.size());
    if (node.empty()) continue;
    auto root = extract_tarball(path, err);
    if (!root) {
      ok = false;
      continue;
    }
    out.push_back(Target{node, *root, *root});
  }
  if (out.empty() && ok) {
    err << fmt::format("greslint: --inventory {}: no node folders or tarballs in it\n", dir);
    return false;
  }
  return ok;
}


}  // namespace

int run_node_check(const NodeCheckOptions& o, std::ostream& out, std::ostream& err) {
  auto config = load_config(o, err);
  if (!config) return 2;
  const VersionProfile profile(config->version.version);
  const Cluster& cluster = config->cluster;

  std::vector<Target> targets;
  bool inputs_ok = true;
  if (!o.inventory.empty()) {
    inputs_ok = inventory_targets(o.inventory, targets, err);
  } else {
    std::string sysroot = o.sysroot.empty() ? "/" : o.sysroot;
    targets.push_back(Target{o.node, sysroot, ""});
  }
  Reporter found;
  std::ofstream file;
  std::ostream* sink = &out;
  if (!o.output.empty()) {
    file.open(o.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o.output);
      inputs_ok = false;
    }
    sink = &file;
  }
  for (Target& t : targets) {
    if (!inputs_ok) break;
    HardwareInventory hw = read_inventory(t.sysroot);
    for (const std::string& p : hw.problems) err << "greslint: " << p << "\n";
    if (t.node.empty()) {
      std::string host = hw.hostname;
      if (host.empty() || t.sysroot == "/") {
        char name[256] = {0};
        if (::gethostname(name, sizeof(name) - 1) == 0) host = name;
      }
      auto n = match_node(*config, profile, host);
      if (!n) {
        err << fmt::format("greslint: host {} is not a NodeName (or NodeHostname) in {}; name the node with --node\n",
                           host, config->slurm_conf);
        inputs_ok = false;
        break;
      }
      t.node = *n;
    }
    auto it = std::find(cluster.node_names.begin(), cluster.node_names.end(), t.node);
    if (it == cluster.node_names.end()) {
      err << fmt::format("greslint: {} is not a NodeName in {}\n", t.node, config->slurm_conf);
      inputs_ok = false;
      continue;
    }
    if (hw.cpu.empty() && hw.gpus.empty()) {
      err << fmt::format("greslint: found no CPUs and no GPUs under {}\n", t.sysroot);
      inputs_ok = false;
      continue;
    }
    const NodeClass& cls = cluster.classes[cluster.class_of[std::size_t(it - cluster.node_names.begin())]];
    if (o.suggest) {
      suggest(t.node, hw, profile, *sink);
      continue;
    }
    if (cls.verdict >= Verdict::drain && !o.quiet)
      err << fmt::format("greslint: note: the configuration alone already makes Slurm {} {} ({}); see greslint lint\n",
                         to_string(cls.verdict), t.node, node_reason(cls, t.node));
    NodeChecker(*config, profile, t.node, cls, hw, found).run();
  }
  for (const Target& t : targets)
    if (!t.temp.empty()) ::nftw(t.temp.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (!inputs_ok) return 2;
  if (o.suggest) return 0;

  std::vector<Diagnostic> diags = std::move(found.diagnostics());
  Reporter ignored;
  apply_suppressions(cluster.comments, config->sources, diags, ignored);
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::make_tuple(a.span.file.index, a.span.begin, a.rule->id) <
           std::make_tuple(b.span.file.index, b.span.begin, b.rule->id);
  });
  LintReport report;
  report.slurm_version = config->version.version;
  report.version_source = config->version.source;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < config->sources.file_count(); ++i) {
    const std::string& p = config->sources.path(FileId{std::uint16_t(i)});
    if (seen.insert(p).second) report.inputs.push_back(p);
  }
  report.diagnostics = std::move(diags);
  EmitOptions eo;
  eo.color = o.color && o.output.empty();
  char cwd[4096];
  eo.base_dir = ::getcwd(cwd, sizeof(cwd)) ? cwd : dirname_of(config->slurm_conf);
  if (!(o.quiet && report.diagnostics.empty()) || !o.output.empty())
    emit_report(o.format, report, config->sources, eo, *sink);
  return exit_code_for(report.diagnostics, o.fail_level);
}

}  // namespace greslint
