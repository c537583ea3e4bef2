// SPDX-License-Identifier: Apache-2.0
// The checks of one node against its hardware: topology (GRS506), device files (GRS501),
// and, without AutoDetect, what gres.conf names against the GPUs there (GRS502-505, GRS507).
// Section and check numbers refer to slurm-semantics.md.
#include "hardware/node_checker.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <set>

#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::node_check {

void check_node(const Cluster& cluster, const VersionProfile& profile, std::uint32_t node, const HardwareInventory& hw,
                Reporter& out) {
  const ConfigModel& config = *cluster.config;
  // The class is shared with nodes whose lines say the same; findings point at this node's own Gres=.
  NodeClass cls = cluster.classes[cluster.class_of[node]];
  cls.configured_gres_span = cluster.configured_gres_span(node);
  const std::string& name = cluster.node_names[node];
  NodeChecker(config, profile, config.node_lines[cluster.node_line_of[node]], name, cls,
              line_facts(config, node, profile), hw, out)
      .run();
}

NodeChecker::NodeChecker(const ConfigModel& config, const VersionProfile& profile, const NodeLine& node_line,
                         const std::string& node, const NodeClass& cls, std::vector<LineFacts> lines,
                         const HardwareInventory& hw, Reporter& out)
    : config_(config),
      profile_(profile),
      node_line_(node_line),
      node_(node),
      cls_(cls),
      hw_(hw),
      out_(out),
      topo_(hw.cpu),
      lines_(std::move(lines)),
      units_(units_of(hw)) {
  if (std::find(config.grestypes.begin(), config.grestypes.end(), "gpu") != config.grestypes.end())
    configured_ = count_gres(cls.configured_gres, "gpu");
  detect_vendor_ = autodetect_vendor();
  const KeyValue* p = config.settings.find("SlurmdParameters");
  config_overrides_ = p && icontains(p->value, "config_overrides");
}

void NodeChecker::run() {
  check_topology();
  check_missing_files();
  if (detect_vendor_)
    check_autodetect();
  else
    check_explicit();
}

DiagnosticBuilder NodeChecker::report(const RuleInfo& rule, Span span, std::string message) {
  return out_.report(rule, span, std::move(message)).nodes(node_);
}

bool NodeChecker::in_grestypes(const std::string& name) const {
  return std::any_of(config_.grestypes.begin(), config_.grestypes.end(),
                     [&](const std::string& g) { return iequals(g, name); });
}
std::vector<const LineFacts*> NodeChecker::gpu_lines() const {
  std::vector<const LineFacts*> out;
  for (const LineFacts& l : lines_)
    if (iequals(l.name, "gpu") && in_grestypes(l.name)) out.push_back(&l);
  return out;
}

/// Which vendor's GPUs AutoDetect finds here, or nullopt when it is off or unknown.
std::optional<GpuVendor> NodeChecker::autodetect_vendor() const {
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

Span NodeChecker::autodetect_span() const {
  for (const LineFacts& l : lines_)
    if (const KeyValue* kv = l.line->d->find("AutoDetect")) return kv->value_span;
  return config_.global_autodetect ? config_.global_autodetect->value_span : Span{};
}

Span NodeChecker::node_topology_span(std::uint32_t hs, std::uint32_t hc, std::uint32_t ht, std::uint32_t hcpu) const {
  const Directive& d = *node_line_.d;
  // SocketsPerBoard= first: beside it, Slurm resets Sockets= and keeps Boards*SocketsPerBoard.
  const std::pair<const char*, bool> keys[] = {{"SocketsPerBoard", cls_.sockets != hs},
                                               {"Sockets", cls_.sockets != hs},
                                               {"CoresPerSocket", cls_.cores_per_socket != hc},
                                               {"ThreadsPerCore", cls_.threads_per_core != ht},
                                               {"CPUs", cls_.cpus != hcpu},
                                               {"Procs", cls_.cpus != hcpu}};
  for (const auto& [key, differs] : keys)
    if (const KeyValue* kv = d.find(key); kv && differs) return kv->key_span;
  return d.head().value_span;
}

/// Where a finding about the node's GPUs as a whole points: its first gpu line, else Gres=.
Span NodeChecker::gpu_anchor() const {
  auto lines = gpu_lines();
  if (!lines.empty()) return lines.front()->files_span.valid() ? lines.front()->files_span : lines.front()->head_span;
  return cls_.configured_gres_span;
}

std::string NodeChecker::gres_spec(std::uint64_t count) const {
  if (configured_.types.size() == 1) return fmt::format("gpu:{}:{}", configured_.types.front().type, count);
  return fmt::format("gpu:{}", count);
}

// GRS506: slurm.conf topology against the CPUs.
void NodeChecker::check_topology() {
  if (topo_.empty()) return;
  const std::uint32_t hs = topo_.sockets(), hc = topo_.cores_per_socket(), ht = topo_.threads_per_core(),
                      hcpu = topo_.cpus();
  if (cls_.sockets == hs && cls_.cores_per_socket == hc && cls_.threads_per_core == ht && cls_.cpus == hcpu) return;
  const std::uint64_t conf_threads = std::uint64_t(cls_.sockets) * cls_.cores_per_socket * cls_.threads_per_core;
  const std::uint64_t hw_threads = std::uint64_t(hs) * hc * ht;
  std::vector<std::string> reasons;
  if (hw_threads < conf_threads) reasons.push_back("Low socket*core*thread count");
  if (hcpu < cls_.cpus) reasons.push_back("Low CPUs");
  const bool drains = !reasons.empty() && !config_overrides_;
  std::string line = fmt::format("CPUs={} Sockets={} CoresPerSocket={} ThreadsPerCore={}", hcpu, hs, hc, ht);
  std::string consequence =
      drains ? fmt::format("slurmctld drains it at registration with \"{}\"", fmt::join(reasons, ", "))
             : "Slurm schedules the layout slurm.conf gives, and reads gres.conf Cores= against it";
  auto b =
      report(
          rules::GRS506, node_topology_span(hs, hc, ht, hcpu),
          fmt::format("slurm.conf gives {} Sockets={} CoresPerSocket={} ThreadsPerCore={} ({} CPUs) but the "
                      "node has {}; {}",
                      node_, cls_.sockets, cls_.cores_per_socket, cls_.threads_per_core, cls_.cpus, line, consequence))
          .slurm(fmt::format("Node configuration differs from hardware: CPUs={}:{}(hw) Boards=1:1(hw) "
                             "SocketsPerBoard={}:{}(hw) CoresPerSocket={}:{}(hw) ThreadsPerCore={}:{}(hw)",
                             cls_.cpus, hcpu, cls_.sockets, hs, cls_.cores_per_socket, hc, cls_.threads_per_core, ht))
          .help(fmt::format("write {} on the NodeName line (what slurmd -C prints)", line));
  if (drains) b.severity(Severity::error).effect(Effect::drain, Daemon::slurmctld);
  if (!topo_.uniform())
    spdlog::warn("{}: sockets or cores differ in size; Slurm's per-socket numbers are averages", node_);
}

// GRS501: every File=/MultipleFiles= path of every line that applies to the node (C11).
void NodeChecker::check_missing_files() {
  for (const LineFacts& l : lines_) {
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
            ? fmt::format(
                  "the node's MIG instances are MultipleFiles={}: name those (MIG instances were "
                  "re-created since gres.conf was written)",
                  fmt::join(instances, " and "))
        : iequals(l.name, "gpu") && !present.empty()
            ? fmt::format(
                  "the node has {} GPU device file{} {}: list only those (and fix slurm.conf Gres= to match), "
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
std::vector<const Unit*> NodeChecker::units_of_line(const LineFacts& l) const {
  std::vector<const Unit*> out;
  std::set<std::string> paths(l.paths.begin(), l.paths.end());
  for (const Unit& u : units_) {
    if (u.mig && !l.multiple_files) continue;
    // A MIG instance is named by its GPU and its GPU-instance capability; AutoDetect adds
    // the compute-instance capability too, but a hand-written line may leave it out.
    const std::size_t needed = u.mig ? 2 : u.files.size();
    if (std::all_of(u.files.begin(), u.files.begin() + needed,
                    [&](const std::string& f) { return paths.count(f) > 0; }))
      out.push_back(&u);
  }
  return out;
}

void NodeChecker::check_count(std::uint64_t reported, const std::string& why, std::string help) {
  if (!configured_.present || reported >= configured_.total) return;
  report(rules::GRS503, cls_.configured_gres_span,
         fmt::format("{} has {} {} that Slurm can use but slurm.conf configures {}{}", node_, reported,
                     reported == 1 ? "GPU" : "GPUs", configured_.total, why))
      .slurm(fmt::format("gres/gpu count reported lower than configured ({} < {})", reported, configured_.total))
      .help(!help.empty()
                ? help
                : fmt::format("repair or reseat the missing GPU, or configure Gres={} for {} until it is back",
                              gres_spec(reported), node_));
}

// Nodes without AutoDetect: what gres.conf says against what is there.
void NodeChecker::check_explicit() {
  const auto lines = gpu_lines();
  // GRS502: GPUs (or MIG instances) no line names.
  std::set<const Unit*> covered;
  std::set<const Gpu*> whole_gpu_lines;  // MIG GPUs given as a whole with File=
  for (const LineFacts* l : lines) {
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
    if (u.mig)
      loose_mig[u.gpu].push_back(&u);
    else
      loose.push_back(u.gpu->device_file);
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
           fmt::format("{} on {} is in MIG mode with {} instance{} ({}) that gres.conf does not configure{}",
                       gpu->device_file, node_, list.size(), list.size() == 1 ? "" : "s", fmt::join(ids, ", "),
                       whole ? "; it gives the whole GPU, which jobs cannot use while MIG is on" : ""))
        .help(fmt::format("give each instance a line: Name=gpu MultipleFiles={}", fmt::join(list.front()->files, ",")));
  }
  // GRS503: fewer GPUs than slurm.conf counts.
  check_count(units_.size(), units_.empty() ? " (no GPU found)" : "");
  // GRS504/505/507 per line.
  for (const LineFacts* l : lines) {
    auto us = units_of_line(*l);
    if (us.empty()) continue;
    if (l->cores) check_line_cores(*l, us, false);
    if (l->type)
      check_line_type(*l, us, Severity::note, Effect::advice,
                      "Slurm accepts any Type= here, but AutoDetect would not match it");
  }
}

/// GRS507 for a line naming these units.
void NodeChecker::check_line_type(const LineFacts& l, const std::vector<const Unit*>& us, Severity sev, Effect eff,
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

namespace {

/// The GPUs' cores, each list sorted and without repeats.
Cores sorted_union(const std::vector<Cores>& lists) {
  Cores all;
  for (const Cores& c : lists) all.insert(all.end(), c.begin(), c.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

/// The help of GRS504/GRS505: the Cores= to write, or how to split the line when its GPUs
/// need different ones.
std::string cores_fix(const LineFacts& l, const std::vector<const Unit*>& us, const std::vector<Cores>& expected) {
  std::map<Cores, std::vector<std::string>> groups;
  for (std::size_t i = 0; i < us.size(); ++i)
    groups[expected[i]].push_back(us[i]->mig ? fmt::format("{}", fmt::join(us[i]->files, ","))
                                             : us[i]->gpu->device_file);
  if (groups.size() == 1) return fmt::format("use {}={}", l.cores_key, format_index_list(expected.front()));
  std::vector<std::string> parts;
  for (const auto& [cores, files] : groups)
    parts.push_back(fmt::format("{}={} {}={}", l.multiple_files ? "MultipleFiles" : "File",
                                l.multiple_files ? fmt::format("{}", fmt::join(files, ",")) : fold_paths(files),
                                l.cores_key, format_index_list(cores)));
  return fmt::format("split the line: {}", fmt::join(parts, " and "));
}

}  // namespace

/// GRS504/GRS505 for a line with Cores= naming these units. `exact`: AutoDetect compares
/// with the detected affinity itself (E4), so the expected value is the NUMA-local cores.
void NodeChecker::check_line_cores(const LineFacts& l, const std::vector<const Unit*>& us, bool exact) {
  const std::uint32_t ncores = topo_.cores();
  if (ncores == 0) return;
  const std::optional<Cores> conf = parse_core_list(*l.cores, ncores);
  std::vector<Cores> expected, local;
  for (const Unit* u : us) {
    expected.push_back(exact ? u->local : expected_gpu_cores(u->local, topo_, profile_));
    local.push_back(u->local);
  }
  const Cores all_expected = sorted_union(expected), all_local = sorted_union(local);
  const bool same =
      std::all_of(expected.begin(), expected.end(), [&](const Cores& e) { return e == expected.front(); });
  if (conf && same && *conf == expected.front()) return;
  // Which GPUs the line gets wrong, and what each should have.
  std::vector<std::string> per_gpu;
  for (std::size_t i = 0; i < us.size(); ++i) {
    const Unit* u = us[i];
    if (!conf || *conf != expected[i])
      per_gpu.push_back(fmt::format("{} is local to cores {}{}", u->mig ? u->label() : u->gpu->device_file,
                                    format_index_list(u->local),
                                    u->gpu->numa_node ? fmt::format(" (NUMA node {})", *u->gpu->numa_node) : ""));
  }
  std::string right = cores_fix(l, us, expected);
  if (!exact && expected.front() != us.front()->local && same)
    right += fmt::format(" (Slurm {} needs {} in Cores=; the GPU's own NUMA-local cores are {})",
                         profile_.version().str(), rule_words(profile_), format_index_list(all_local));
  if (check_cpu_ids(l, conf, all_local, all_expected, right)) return;
  // Cores= that are the GPUs' own NUMA-local cores break only the release's socket rule:
  // saying they are not local would contradict the GPUs' own affinity printed after it.
  const bool local_but_split = !exact && conf && std::all_of(local.begin(), local.end(), [&](const Cores& c) {
    return c == *conf;
  });
  const std::string what = us.size() == 1 ? "this GPU" : "these GPUs";
  const std::string headline =
      local_but_split
          ? fmt::format("{}={} are the NUMA-local cores of {} on {}, but Slurm {} needs {} in Cores=", l.cores_key,
                        *l.cores, what, node_, profile_.version().str(), rule_words(profile_))
          : fmt::format("{}={} is not the NUMA-local cores of {} on {}: {}", l.cores_key, *l.cores, what, node_,
                        fmt::join(per_gpu, "; "));
  auto b = report(rules::GRS504, l.cores_span, headline).help(right);
  if (exact) {
    b.severity(Severity::error)
        .effect(Effect::degraded, Daemon::slurmd)
        .slurm(
            "This GPU specified in [slurm|gres].conf has mismatching Cores or Links from the device found on the "
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

/// GRS505: the numbers are CPU ids; read as CPUs they are the GPUs' cores. True when reported.
bool NodeChecker::check_cpu_ids(const LineFacts& l, const std::optional<Cores>& conf, const Cores& all_local,
                                const Cores& all_expected, const std::string& right) {
  const std::optional<Cores> as_ids = parse_core_list(*l.cores, 1u << 20);
  if (!as_ids) return false;
  const Cores as_cores = topo_.cores_of_cpus(*as_ids);
  const bool cpu_like =
      as_cores != *as_ids && (as_cores == all_local || as_cores == all_expected) && (!conf || *conf != as_cores);
  if (!cpu_like) return false;
  std::vector<std::uint32_t> hyper;
  for (std::uint32_t id : *as_ids) {
    auto core = topo_.core_of_cpu(id);
    if (core && topo_.cpus_of_core(*core).front() != id) hyper.push_back(id);
  }
  const std::uint32_t ncores = topo_.cores();
  auto b = report(rules::GRS505, l.cores_span,
                  fmt::format("{}={} lists CPU ids{}; Slurm reads logical core indexes, and {} has {} cores "
                              "(0-{}); as cores these GPUs are {}",
                              l.cores_key, *l.cores,
                              hyper.empty() ? std::string()
                                            : fmt::format(" (hyperthread siblings {})", format_index_list(hyper)),
                              node_, ncores, ncores - 1, format_index_list(as_cores)))
               .help(right);
  if (!conf) invalid_cores(b, l);
  return true;
}

/// Core indexes beyond the node: slurmd logs C10; from 24.11 slurmctld invalidates the node (F8).
void NodeChecker::invalid_cores(DiagnosticBuilder& b, const LineFacts& l) {
  if (profile_.invalid_cores_invalidates_node())
    b.severity(Severity::error)
        .effect(Effect::drain, Daemon::slurmctld)
        .slurm(fmt::format("_foreach_rebuild_topo: invalid GRES core specification ({}) on node {}", *l.cores, node_));
  else
    b.slurm(fmt::format("Invalid GRES data for gpu, {}={}", l.cores_key, *l.cores));
}

}  // namespace greslint::node_check
