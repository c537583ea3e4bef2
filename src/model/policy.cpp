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
/// TRES types whose records need an id from slurmdbd (controller.c: only cpu, mem, energy,
/// node, billing, fs/disk, vmem and pages have fixed ids).
bool tres_needs_slurmdbd(std::string_view tres) {
  auto starts = [&](std::string_view p) { return tres.size() > p.size() && iequals(tres.substr(0, p.size()), p); };
  if (starts("fs/")) return !iequals(tres, "fs/disk");
  return starts("gres/") || starts("license/") || starts("ic/") || starts("bb/");
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
  auto fatal_everywhere = [&](const std::string& reason) {
    for (NodeClass& c : cluster_.classes) fatal(c, Verdict::slurmctld_fatal, reason);
  };
  // Two mistakes stop slurmctld whether or not the cluster has GPUs.
  const KeyValue* select = setting("SelectType");
  if (select && iequals(select->value, "select/cons_res") && profile_.cons_res_removed()) {
    std::string slurm = profile_.version() >= kSlurm2511 ? "failed to initialize node selection plugin"
                                                          : "Can't find plugin for select/cons_res";
    out_.report(rules::GRS405, select->value_span,
                fmt::format("select/cons_res was removed in Slurm 23.11; slurmctld {} cannot start", profile_.version().str()))
        .slurm(slurm)
        .effect(Effect::fatal, Daemon::slurmctld)
        .severity(Severity::error)
        .help("set SelectType=select/cons_tres");
    fatal_everywhere(slurm);
  }
  const KeyValue* acct_type = setting("AccountingStorageType");
  const bool slurmdbd = acct_type && icontains(acct_type->value, "slurmdbd");
  const KeyValue* tres = setting("AccountingStorageTRES");
  std::vector<std::string_view> tres_list = tres ? split_commas_view(tres->value) : std::vector<std::string_view>{};
  if (!slurmdbd) {
    for (std::string_view t : tres_list) {
      if (!tres_needs_slurmdbd(t)) continue;
      std::string slurm = fmt::format(
          "slurmdbd is required to run with TRES {}. Either setup slurmdbd or remove this TRES from your configuration.", t);
      auto b = out_.report(rules::GRS404, tres->value_span,
                           fmt::format("AccountingStorageTRES names {} but AccountingStorageType is {}", t,
                                       acct_type ? acct_type->value : "not set"))
                   .slurm(slurm)
                   .help("set AccountingStorageType=accounting_storage/slurmdbd, or drop the TRES");
      if (acct_type) b.related(acct_type->value_span, "accounting storage set here");
      fatal_everywhere(slurm);
      break;
    }
  }

  if (!in_grestypes_exact("gpu")) return;
  std::vector<bool> line_has_gpu(node_lines_.size(), false);
  const NodeLine* first_gpu_line = nullptr;
  for (std::size_t i = 0; i < node_lines_.size(); ++i) {
    line_has_gpu[i] = count_gres(node_lines_[i].gres, "gpu").total > 0;
    if (line_has_gpu[i] && !first_gpu_line) first_gpu_line = &node_lines_[i];
  }
  if (!first_gpu_line) return;
  // Performance: folded only when a finding prints it. Copying and sorting every GPU node's
  // name cost ~15 ms on 100,000 nodes for a valid configuration, which prints nothing.
  std::optional<std::string> gpu_hosts_folded;
  auto gpu_hosts = [&]() -> const std::string& {
    if (!gpu_hosts_folded) {
      std::vector<std::string> gpu_nodes;
      for (std::uint32_t n = 0; n < cluster_.node_names.size(); ++n)
        if (line_has_gpu[node_line_of_[n]]) gpu_nodes.push_back(cluster_.node_names[n]);
      gpu_hosts_folded = fold_hostnames(gpu_nodes);
    }
    return *gpu_hosts_folded;
  };
  const Span gpu_span = first_gpu_line->gres_span;
  auto setting_span = [&](const KeyValue* kv) { return kv ? kv->value_span : gpu_span; };

  // Scheduling: GPUs are only scheduled per GPU by select/cons_tres.
  const std::string select_type =
      select ? select->value : (profile_.cons_tres_is_default() ? "select/cons_tres" : "select/linear");
  const bool cons_res_fatal = iequals(select_type, "select/cons_res") && profile_.cons_res_removed();
  if (!iequals(select_type, "select/cons_tres") && !cons_res_fatal) {
    if (ctld_.fatal) {
      // A fatal SelectType problem (GRS114) already says it.
    } else {
      out_.report(rules::GRS405, setting_span(select),
                  fmt::format("GPUs are configured on {} but SelectType is {}{}: --gpus, --gpus-per-node and "
                              "--gpus-per-task are rejected and GPUs cannot be shared per GPU",
                              gpu_hosts(), select_type, select ? "" : " (the default of " + profile_.version().str() + ")"))
          .help("set SelectType=select/cons_tres");
    }
  }

  // Accounting: gres/gpu must be a tracked TRES for usage and GrpTRES=gres/gpu limits.
  bool gpu_tres = false, typed_gpu_tres = false;
  for (std::string_view t : tres_list) {
    if (iequals(t, "gres/gpu")) gpu_tres = true;
    else if (t.size() > 9 && iequals(t.substr(0, 9), "gres/gpu:")) typed_gpu_tres = true;
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
                              "is not accounted and GrpTRES=gres/gpu limits are not enforced", gpu_hosts()))
          .help(tres ? fmt::format("AccountingStorageTRES={},gres/gpu", tres->value) : "set AccountingStorageTRES=gres/gpu");
  } else {
    const KeyValue* enforce = setting("AccountingStorageEnforce");
    // "safe" and "all" imply "limits"; "qos" alone only checks that a QOS exists.
    const bool limits = enforce && (icontains(enforce->value, "limits") || icontains(enforce->value, "safe") ||
                                    icontains(enforce->value, "all"));
    if (!limits)
      out_.report(rules::GRS403, enforce ? enforce->value_span : tres->value_span,
                  fmt::format("gres/gpu is accounted but AccountingStorageEnforce {}: association and QOS limits "
                              "such as GrpTRES=gres/gpu=8 are recorded, not enforced",
                              enforce ? "is " + enforce->value : "is not set"))
          .help("set AccountingStorageEnforce=associations,limits,qos,safe");
  }
  const bool accounted = slurmdbd && gpu_tres;

  // Isolation: only the cgroup device constraint stops a job from using GPUs it was not given.
  std::vector<std::string> gaps;
  Span gap_span = gpu_span;
  const KeyValue* constrain = nullptr;
  for (const Directive& d : cgroup_.directives)
    if (iequals(d.head().spec->name, "ConstrainDevices")) constrain = &d.head();
  const KeyValue* task = setting("TaskPlugin");
  const KeyValue* proctrack = setting("ProctrackType");
  if (!cgroup_.exists) gaps.push_back("there is no cgroup.conf beside slurm.conf");
  else if (!constrain || !(iequals(constrain->value, "yes") || iequals(constrain->value, "up") ||
                           iequals(constrain->value, "true") || constrain->value == "1")) {
    gaps.push_back("cgroup.conf does not set ConstrainDevices=yes");
    if (constrain) gap_span = constrain->value_span;
  }
  if (!task || !icontains(task->value, "task/cgroup")) {
    gaps.push_back("TaskPlugin does not include task/cgroup");
    if (task && gap_span.begin == gpu_span.begin) gap_span = task->value_span;
  }
  // proctrack/cgroup is the default ProctrackType (read_config.h); task/none the default TaskPlugin.
  if (proctrack && !iequals(proctrack->value, "proctrack/cgroup")) gaps.push_back("ProctrackType is not proctrack/cgroup");
  if (!gaps.empty()) {
    std::string why;
    for (std::size_t i = 0; i < gaps.size(); ++i) why += (i ? "; " : "") + gaps[i];
    out_.report(rules::GRS406, gap_span,
                fmt::format("jobs on {} can use every GPU of the node, not only the ones they were given: {}", gpu_hosts(), why))
        .help("set TaskPlugin=task/affinity,task/cgroup and ProctrackType=proctrack/cgroup, and "
              "ConstrainDevices=yes in cgroup.conf");
  }

  for (NodeClass& c : cluster_.classes) {
    if (c.nodes.empty() || !line_has_gpu[node_line_of_[c.nodes.front()]]) continue;
    c.gpus_isolated = gaps.empty();
    c.gpus_accounted = accounted;
  }

  // Partitions: GPU nodes no partition offers, and GPU partitions without GPUs.
  // Performance: node_index_ (see NodeIndex), not a second std::unordered_map of every name.
  const std::vector<std::string>& names = cluster_.node_names;
  std::uint32_t previous = NodeIndex::kNone;
  std::unordered_map<std::string, const KeyValue*> nodesets;
  for (const Directive& d : slurm_.directives)
    if (d.kind == Directive::Kind::record && iequals(d.head().spec->name, "NodeSet")) nodesets[d.head().value] = d.find("Nodes");
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
        if (!ns->second) { opaque = true; has_gpu = true; return; }  // a Feature= NodeSet
        if (iequals(ns->second->value, "ALL")) { std::fill(offered.begin(), offered.end(), true); has_gpu = true; return; }
        auto l = parse_hostlist(ns->second->value, ns->second->value_span, profile_);
        if (l.ok()) spend(*l.list, ns->second->value_span);
        if (l.ok()) l.list->for_each([&](const std::string& h, const HostRange&) {
          if (auto i = node_index_.find(names, h); i != NodeIndex::kNone) { offered[i] = true; has_gpu = has_gpu || line_has_gpu[node_line_of_[i]]; }
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
    const bool gpu_partition = names_gpu(d.head().value) || d.find("DefCpuPerGPU") || d.find("DefMemPerGPU") ||
                               (d.find("TRESBillingWeights") && icontains(d.find("TRESBillingWeights")->value, "gres/gpu"));
    if (gpu_partition && !has_gpu)
      out_.report(rules::GRS407, nodes->value_span,
                  fmt::format("partition {} looks meant for GPU jobs but none of its nodes has GPUs in slurm.conf",
                              d.head().value))
          .help("add GPU nodes to Nodes=, or give its nodes Gres=gpu:...");
  }
  if (any_partition && !opaque) {
    std::vector<std::string> stranded;
    for (std::uint32_t n = 0; n < cluster_.node_names.size(); ++n)
      if (!offered[n] && line_has_gpu[node_line_of_[n]]) stranded.push_back(cluster_.node_names[n]);
    Span where = gpu_span;
    if (!stranded.empty()) {
      auto first = std::find(cluster_.node_names.begin(), cluster_.node_names.end(), stranded.front());
      where = node_lines_[node_line_of_[std::size_t(first - cluster_.node_names.begin())]].gres_span;
    }
    if (!stranded.empty())
      out_.report(rules::GRS408, where,
                  fmt::format("GPU nodes {} are in no partition, so no job can use their GPUs", fold_hostnames(stranded)))
          .nodes(fold_hostnames(stranded))
          .help("add them to a partition's Nodes=");
  }

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
    const KeyValue* where = global_autodetect_kv_ && c.autodetect == global_autodetect_ ? global_autodetect_kv_ : nullptr;
    for (const GresLine& g : gres_lines_) {
      if (where) break;
      if (const KeyValue* a = g.d->find("AutoDetect"); a && g.node_scoped && a->value == c.autodetect) where = a;
    }
    if (!where) break;
    std::string slurm;
    if (icontains(where->value, "nvml")) slurm = "We were configured with nvml functionality, but that lib wasn't found on the system.";
    else if (icontains(where->value, "rsmi")) slurm = "Configured with rsmi, but that lib wasn't found.";
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
