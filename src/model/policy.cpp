// SPDX-License-Identifier: Apache-2.0
// Cluster policy, the GRS4xx rules. Slurm starts happily with these mistakes and the GPU
// pool then misbehaves: GPUs visible to every job, limits not enforced, GPUs no partition
// offers.
#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::model {

namespace {
/// Whether TaskPlugin loads task/cgroup: slurmd's task plugin loader adds the "task/" prefix
/// to a name without one (task_plugin.c), so "affinity,cgroup" is task/affinity,task/cgroup.
bool loads_task_cgroup(std::string_view task_plugin) {
  for (std::string_view name : split_commas_view(task_plugin))
    if (name == "task/cgroup" || name == "cgroup") return true;
  return false;
}
/// A partition named for GPUs: "gpu" as a word of its name (gpu, gpu-a100, a100_gpus), so
/// that "nogpu" or "cpugpuless" do not count.
bool names_gpu(std::string_view name) {
  const std::string n = to_lower(name);
  for (std::size_t at = n.find("gpu"); at != std::string::npos; at = n.find("gpu", at + 1)) {
    const bool start = at == 0 || !is_alpha(n[at - 1]);
    std::size_t end = at + 3;
    if (end < n.size() && n[end] == 's') ++end;
    if (start && (end == n.size() || !is_alpha(n[end]))) return true;
  }
  return false;
}
}  // namespace

void Analyzer::check_policy() {
  // The fatal forms (GRS404's TRES without slurmdbd, GRS125's removed cons_res) are start-up
  // checks (startup_checks.cpp); here only what a running cluster gets wrong.
  if (!in_grestypes_exact("gpu")) return;
  GpuPolicyScope g;
  g.line_has_gpu.assign(node_lines_.size(), false);
  const NodeLine* first_gpu_line = nullptr;
  for (std::size_t i = 0; i < node_lines_.size(); ++i) {
    g.line_has_gpu[i] = count_gres(node_lines_[i].gres, "gpu").total > 0;
    if (g.line_has_gpu[i] && !first_gpu_line) first_gpu_line = &node_lines_[i];
  }
  if (!first_gpu_line) return;
  g.gpu_span = first_gpu_line->gres_span;
  check_gpu_scheduling(g);
  const bool accounted = check_gpu_accounting(g);
  const bool isolated = check_gpu_isolation(g);
  for (NodeClass& c : cluster_.classes) {
    if (c.nodes.empty() || !g.line_has_gpu[node_line_of_[c.nodes.front()]]) continue;
    c.gpus_isolated = isolated;
    c.gpus_accounted = accounted;
  }
  check_gpu_partitions(g);
  check_autodetect_library(g);
}

// Performance: folded only when a finding prints it. Copying and sorting every GPU node's
// name cost ~15 ms on 100,000 nodes for a valid configuration, which prints nothing.
const std::string& Analyzer::policy_gpu_hosts(GpuPolicyScope& g) const {
  if (!g.gpu_hosts) {
    std::vector<std::string> gpu_nodes;
    for (std::uint32_t n = 0; n < cluster_.node_names.size(); ++n)
      if (g.line_has_gpu[node_line_of_[n]]) gpu_nodes.push_back(cluster_.node_names[n]);
    g.gpu_hosts = fold_hostnames(gpu_nodes);
  }
  return *g.gpu_hosts;
}

void Analyzer::check_gpu_scheduling(GpuPolicyScope& g) {
  auto gpu_hosts = [&]() -> const std::string& { return policy_gpu_hosts(g); };
  auto setting_span = [&](const KeyValue* kv) { return kv ? kv->value_span : g.gpu_span; };
  const KeyValue* select = setting("SelectType");
  // Scheduling: GPUs are only scheduled per GPU by select/cons_tres.
  const std::string_view select_type =
      select ? select->value : (profile_.cons_tres_is_default() ? "select/cons_tres" : "select/linear");
  const bool cons_res_fatal = iequals(select_type, "select/cons_res") && profile_.cons_res_removed();
  if (!iequals(select_type, "select/cons_tres") && !cons_res_fatal) {
    if (ctld_.fatal) {
      // A fatal SelectType problem (GRS114) already says it.
    } else {
      out_.report(
              rules::GRS405, setting_span(select),
              fmt::format("GPUs are configured on {} but SelectType is {}{}: --gpus, --gpus-per-node and "
                          "--gpus-per-task are rejected and GPUs cannot be shared per GPU",
                          gpu_hosts(), select_type, select ? "" : " (the default of " + profile_.version().str() + ")"))
          .help("set SelectType=select/cons_tres");
    }
  }
}

bool Analyzer::check_gpu_accounting(GpuPolicyScope& g) {
  auto gpu_hosts = [&]() -> const std::string& { return policy_gpu_hosts(g); };
  const KeyValue* acct_type = setting("AccountingStorageType");
  const bool slurmdbd = acct_type && icontains(acct_type->value, "slurmdbd");
  const KeyValue* tres = setting("AccountingStorageTRES");
  std::vector<std::string_view> tres_list = tres ? split_commas_view(tres->value) : std::vector<std::string_view>{};
  // Accounting: gres/gpu must be a tracked TRES for usage and GrpTRES=gres/gpu limits.
  bool gpu_tres = false, typed_gpu_tres = false;
  for (std::string_view t : tres_list) {
    if (iequals(t, "gres/gpu"))
      gpu_tres = true;
    else if (t.size() > 9 && iequals(t.substr(0, 9), "gres/gpu:"))
      typed_gpu_tres = true;
  }
  if (!slurmdbd) {
    // Nothing is accounted without slurmdbd; GRS404 covered a TRES that needs it.
  } else if (!gpu_tres) {
    if (typed_gpu_tres)
      out_.report(rules::GRS402, tres->value_span,
                  "AccountingStorageTRES tracks only typed gres/gpu:TYPE: a job that asks for untyped --gpus is "
                  "charged to the first tracked type, not the type it got, so per-type limits are wrong and "
                  "there is no total to limit")
          .help("add gres/gpu next to the typed entries");
    else
      out_.report(rules::GRS401, tres ? tres->value_span : acct_type->value_span,
                  fmt::format("GPUs are configured on {} but gres/gpu is not in AccountingStorageTRES: GPU usage "
                              "is not accounted and GrpTRES=gres/gpu limits are not enforced",
                              gpu_hosts()))
          .help(tres ? fmt::format("AccountingStorageTRES={},gres/gpu", tres->value)
                     : "set AccountingStorageTRES=gres/gpu");
  } else {
    const KeyValue* enforce = setting("AccountingStorageEnforce");
    // "safe" and "all" imply "limits"; "qos" alone only checks that a QOS exists.
    const bool limits = enforce && (icontains(enforce->value, "limits") || icontains(enforce->value, "safe") ||
                                    icontains(enforce->value, "all"));
    if (!limits)
      out_.report(rules::GRS403, enforce ? enforce->value_span : tres->value_span,
                  fmt::format("gres/gpu is accounted but AccountingStorageEnforce {}: association and QOS limits "
                              "such as GrpTRES=gres/gpu=8 are recorded, not enforced",
                              enforce ? "is " + std::string(enforce->value) : "is not set"))
          .help("set AccountingStorageEnforce=associations,limits,qos,safe");
  }
  return slurmdbd && gpu_tres;
}

bool Analyzer::check_gpu_isolation(GpuPolicyScope& g) {
  const Span gpu_span = g.gpu_span;
  auto gpu_hosts = [&]() -> const std::string& { return policy_gpu_hosts(g); };
  // Isolation: only the cgroup device constraint stops a job from using GPUs it was not given.
  std::vector<std::string> gaps;
  Span gap_span = gpu_span;
  const KeyValue* constrain = nullptr;
  for (const Directive& d : cgroup_.directives)
    if (iequals(d.head().spec->name, "ConstrainDevices")) constrain = &d.head();
  const KeyValue* task = setting("TaskPlugin");
  const KeyValue* proctrack = setting("ProctrackType");
  if (!cgroup_.exists)
    gaps.push_back("there is no cgroup.conf beside slurm.conf");
  else if (!constrain || !(iequals(constrain->value, "yes") || iequals(constrain->value, "up") ||
                           iequals(constrain->value, "true") || constrain->value == "1")) {
    gaps.push_back("cgroup.conf does not set ConstrainDevices=yes");
    if (constrain) gap_span = constrain->value_span;
  }
  if (!task || !loads_task_cgroup(task->value)) {
    gaps.push_back("TaskPlugin does not include task/cgroup");
    if (task && gap_span.begin == gpu_span.begin) gap_span = task->value_span;
  }
  // proctrack/cgroup is the default ProctrackType (read_config.h); task/none the default TaskPlugin.
  if (proctrack && !iequals(proctrack->value, "proctrack/cgroup"))
    gaps.push_back("ProctrackType is not proctrack/cgroup");
  if (!gaps.empty()) {
    std::string why;
    for (std::size_t i = 0; i < gaps.size(); ++i) why += (i ? "; " : "") + gaps[i];
    out_.report(rules::GRS406, gap_span,
                fmt::format("jobs on {} can use every GPU of the node, not only the ones they were given: {}",
                            gpu_hosts(), why))
        .help(
            "set TaskPlugin=task/affinity,task/cgroup and ProctrackType=proctrack/cgroup, and "
            "ConstrainDevices=yes in cgroup.conf");
  }
  return gaps.empty();
}

void Analyzer::check_gpu_partitions(GpuPolicyScope& g) {
  const std::vector<bool>& line_has_gpu = g.line_has_gpu;
  // Partitions: GPU nodes no partition offers, and GPU partitions without GPUs.
  // Performance: node_index_ (see NodeIndex), not a second std::unordered_map of every name.
  const std::vector<std::string>& names = cluster_.node_names;
  std::uint32_t previous = NodeIndex::kNone;
  std::unordered_map<std::string, const KeyValue*> nodesets;
  for (const Directive& d : slurm_.directives)
    if (d.kind == Directive::Kind::record && iequals(d.head().spec->name, "NodeSet"))
      nodesets[std::string(d.head().value)] = d.find("Nodes");
  std::vector<bool> offered(cluster_.node_names.size(), false);
  bool any_partition = false, opaque = false;
  const KeyValue* default_nodes = nullptr;  // PartitionName=DEFAULT Nodes= is inherited
  for (const Directive& d : slurm_.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().spec->name, "PartitionName")) continue;
    if (iequals(d.head().value, "DEFAULT")) {
      if (const KeyValue* n = d.find("Nodes")) default_nodes = n;
      continue;
    }
    any_partition = true;
    const KeyValue* nodes = d.find("Nodes");
    if (!nodes) nodes = default_nodes;
    if (!nodes) continue;
    bool has_gpu = false;
    auto add = [&](const std::string& host) {
      const std::uint32_t node = node_index_.find_near(names, host, previous);
      if (node == NodeIndex::kNone) {
        auto ns = nodesets.find(host);
        if (ns == nodesets.end()) return;
        if (!ns->second) {
          opaque = true;
          has_gpu = true;
          return;
        }  // a Feature= NodeSet
        if (iequals(ns->second->value, "ALL")) {
          std::fill(offered.begin(), offered.end(), true);
          has_gpu = true;
          return;
        }
        auto l = parse_hostlist(ns->second->value, ns->second->value_span, profile_);
        if (l.ok()) spend(*l.list, ns->second->value_span);
        if (l.ok())
          l.list->for_each([&](const std::string& h, const HostRange&) {
            if (auto i = node_index_.find(names, h); i != NodeIndex::kNone) {
              offered[i] = true;
              has_gpu = has_gpu || line_has_gpu[node_line_of_[i]];
            }
          });
        return;
      }
      offered[node] = true;
      has_gpu = has_gpu || line_has_gpu[node_line_of_[node]];
    };
    if (iequals(nodes->value, "ALL")) {
      std::fill(offered.begin(), offered.end(), true);
      has_gpu = true;
    } else if (auto l = parse_hostlist(nodes->value, nodes->value_span, profile_); l.ok()) {
      spend(*l.list, nodes->value_span);
      l.list->for_each([&](const std::string& h, const HostRange&) { add(h); });
    }
    const bool gpu_partition =
        names_gpu(d.head().value) || d.find("DefCpuPerGPU") || d.find("DefMemPerGPU") ||
        (d.find("TRESBillingWeights") && icontains(d.find("TRESBillingWeights")->value, "gres/gpu"));
    if (gpu_partition && !has_gpu)
      out_.report(rules::GRS407, nodes->value_span,
                  fmt::format("partition {} looks meant for GPU jobs but none of its nodes has GPUs in slurm.conf",
                              d.head().value))
          .help("add GPU nodes to Nodes=, or give its nodes Gres=gpu:...");
  }
  if (any_partition && !opaque) check_stranded_gpus(g, offered);
}

// GRS408: GPU nodes no partition offers.
void Analyzer::check_stranded_gpus(const GpuPolicyScope& g, const std::vector<bool>& offered) {
  std::vector<std::string> stranded;
  for (std::uint32_t n = 0; n < cluster_.node_names.size(); ++n)
    if (!offered[n] && g.line_has_gpu[node_line_of_[n]]) stranded.push_back(cluster_.node_names[n]);
  if (stranded.empty()) return;
  auto first = std::find(cluster_.node_names.begin(), cluster_.node_names.end(), stranded.front());
  const Span where = node_lines_[node_line_of_[std::size_t(first - cluster_.node_names.begin())]].gres_span;
  out_.report(rules::GRS408, where,
              fmt::format("GPU nodes {} are in no partition, so no job can use their GPUs", fold_hostnames(stranded)))
      .nodes(fold_hostnames(stranded))
      .help("add them to a partition's Nodes=");
}

void Analyzer::check_autodetect_library(GpuPolicyScope& g) {
  const std::vector<bool>& line_has_gpu = g.line_has_gpu;
  // AutoDetect relies on a library slurmd may not have (nvidia, from 24.11, needs none).
  auto needs_library = [&](std::string_view value) {
    if (icontains(value, "nvidia") && !icontains(value, "nvml")) return false;
    for (std::string_view v : profile_.autodetect_values())
      if (v != "off" && v != "nvidia" && icontains(value, v)) return true;
    return false;
  };
  // One note, for the first GPU node class where such an AutoDetect takes effect.
  for (const NodeClass& c : cluster_.classes) {
    if (c.nodes.empty() || !line_has_gpu[node_line_of_[c.nodes.front()]] || !needs_library(c.autodetect)) continue;
    const KeyValue* where =
        global_autodetect_kv_ && c.autodetect == global_autodetect_ ? global_autodetect_kv_ : nullptr;
    for (const GresLine& line : gres_lines_) {
      if (where) break;
      if (const KeyValue* a = line.d->find("AutoDetect"); a && line.node_scoped && a->value == c.autodetect) where = a;
    }
    if (!where) break;
    std::string slurm;
    if (icontains(where->value, "nvml"))
      slurm = "We were configured with nvml functionality, but that lib wasn't found on the system.";
    else if (icontains(where->value, "rsmi"))
      slurm = "Configured with rsmi, but that lib wasn't found.";
    out_.report(rules::GRS410, where->value_span,
                fmt::format("AutoDetect={} needs a slurmd built with that library and the library on each node; "
                            "otherwise slurmd only logs it and detects nothing",
                            where->value))
        .slurm(slurm)
        .help("check `slurmd -G` on a GPU node, or list the devices with File=");
    break;
  }
}

}  // namespace greslint::model
