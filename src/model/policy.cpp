// SPDX-License-Identifier: Apache-2.0
// Cluster policy (GRS4xx): Slurm starts happily with these mistakes and the GPU pool then
// misbehaves. The model computes what the checks look at (which nodes have GPUs, the
// accounting and isolation settings, which nodes the partitions offer) into a PolicyView
// and runs the cluster-policy stages; the checks are in src/rules/grs4*.cpp.
#include <algorithm>
#include <unordered_map>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "rules/stages.hpp"
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

rules::GpuAccounting gpu_accounting(const Settings& settings) {
  rules::GpuAccounting a{settings.find("AccountingStorageType"), settings.find("AccountingStorageTRES"),
                         settings.find("AccountingStorageEnforce"), false, false, false, false};
  a.slurmdbd = a.storage_type && icontains(a.storage_type->value, "slurmdbd");
  if (a.tres)
    for (std::string_view t : split_commas_view(a.tres->value)) {
      if (iequals(t, "gres/gpu"))
        a.gpu_tres = true;
      else if (t.size() > 9 && iequals(t.substr(0, 9), "gres/gpu:"))
        a.typed_gpu_tres = true;
    }
  const KeyValue* e = a.enforce;
  a.enforces_limits =
      e && (icontains(e->value, "limits") || icontains(e->value, "safe") || icontains(e->value, "all"));
  return a;
}

rules::GpuIsolation gpu_isolation(const Settings& settings, const ConfigFile& cgroup) {
  rules::GpuIsolation iso{cgroup.exists, std::nullopt, false, settings.find("TaskPlugin"), false,
                          settings.find("ProctrackType"), false};
  for (const Directive& d : cgroup.directives)
    if (iequals(d.head_spec()->name, "ConstrainDevices")) iso.constrain_devices = d.head();
  if (const auto& c = iso.constrain_devices)
    iso.constrains_devices =
        iequals(c->value, "yes") || iequals(c->value, "up") || iequals(c->value, "true") || c->value == "1";
  iso.task_cgroup = iso.task_plugin && loads_task_cgroup(iso.task_plugin->value);
  // proctrack/cgroup is the default ProctrackType (read_config.h); task/none the default TaskPlugin.
  iso.proctrack_cgroup = !iso.proctrack || iequals(iso.proctrack->value, "proctrack/cgroup");
  return iso;
}

}  // namespace

void Analyzer::check_policy() {
  // The fatal forms (GRS404's TRES without slurmdbd, GRS125's removed cons_res) are start-up
  // checks (startup_checks.cpp); here only what a running cluster gets wrong.
  if (!in_grestypes_exact("gpu")) return;
  rules::GpuNodes gpus{cluster_.node_names, node_line_of_, node_lines_, std::vector<bool>(node_lines_.size()), {}};
  const NodeLine* first_gpu_line = nullptr;
  // A file written node by node repeats a few Gres= texts, in any order: each counted once.
  // Performance: counting allocates; on 100,000 shuffled lines of four node types, compared
  // only with the line before, it was ~2.5 ms of the run's CPU time (perf).
  std::unordered_map<std::string_view, bool> text_has_gpu;
  for (std::size_t i = 0; i < node_lines_.size(); ++i) {
    const std::string_view gres = node_lines_[i].gres;
    if (i > 0 && gres == node_lines_[i - 1].gres) {
      gpus.line_has_gpu[i] = bool(gpus.line_has_gpu[i - 1]);
    } else {
      auto [it, fresh] = text_has_gpu.try_emplace(gres, false);
      if (fresh) it->second = count_gres(gres, "gpu").total > 0;
      gpus.line_has_gpu[i] = it->second;
    }
    if (gpus.line_has_gpu[i] && !first_gpu_line) first_gpu_line = &node_lines_[i];
  }
  if (!first_gpu_line) return;
  gpus.first_gres = first_gpu_line->gres_span;
  const rules::GpuAccounting accounting = gpu_accounting(settings_);
  const rules::GpuIsolation isolation = gpu_isolation(settings_, cgroup_);
  rules::PolicyView view{profile_,   settings_,          cgroup_,      gpus, accounting, isolation, ctld_.fatal,
                         cluster_.classes, gres_lines_, global_autodetect_kv_, global_autodetect_};
  // The policy changes no node's verdict: Slurm runs, and only the GPU pool misbehaves.
  for (const auto& check : rules::kClusterPolicyStage) check.run(view, findings_);
  for (NodeClass& c : cluster_.classes) {
    if (c.nodes.empty() || !gpus.has_gpu(c.nodes.front())) continue;
    c.gpus_isolated = isolation.isolated();
    c.gpus_accounted = accounting.accounted();
  }
  const rules::PartitionCover cover = walk_partitions(view);
  view.partitions = &cover;
  for (const auto& check : rules::kClusterPolicyNodesStage) check.run(view, findings_);
}

// Each PartitionName line's Nodes= as slurmctld resolves it (NodeSets, ALL, the DEFAULT
// line's Nodes=), each partition checked (kGpuPartition) as the walk reaches it. Every name
// made from a hostlist counts against the model's budget (spend()).
// Performance: node_index_ (see NodeIndex), not a second std::unordered_map of every name.
rules::PartitionCover Analyzer::walk_partitions(const rules::PolicyView& policy) {
  const std::vector<std::string>& names = cluster_.node_names;
  NodeIndex::Near near;
  std::unordered_map<std::string, const KeyValue*> nodesets;
  for (const Directive* d : slurm_index_.records("NodeSet")) nodesets[std::string(d->head().value)] = d->find("Nodes");
  rules::PartitionCover cover;
  cover.offered.assign(names.size(), false);
  const KeyValue* default_nodes = nullptr;  // PartitionName=DEFAULT Nodes= is inherited
  const std::vector<const Directive*>& lines = slurm_index_.records("PartitionName");
  for (std::size_t line_number = 0; line_number < lines.size(); ++line_number) {
    const Directive& d = *lines[line_number];
    if (iequals(d.head().value, "DEFAULT")) {
      if (const KeyValue* n = d.find("Nodes")) default_nodes = n;
      continue;
    }
    cover.any_partition = true;
    const KeyValue* nodes = d.find("Nodes");
    if (!nodes) nodes = default_nodes;
    if (!nodes) continue;
    bool has_gpu = false;
    auto offer = [&](std::uint32_t node) {
      cover.offered[node] = true;
      has_gpu = has_gpu || policy.gpus.has_gpu(node);
    };
    auto offer_all = [&] {
      std::fill(cover.offered.begin(), cover.offered.end(), true);
      has_gpu = true;
    };
    auto add = [&](const std::string& host) {
      if (const std::uint32_t node = node_index_.find_near(names, host, near); node != NodeIndex::kNone)
        return offer(node);
      auto ns = nodesets.find(host);
      if (ns == nodesets.end()) return;
      if (!ns->second) {  // a Feature= NodeSet
        cover.opaque = true;
        has_gpu = true;
      } else if (iequals(ns->second->value, "ALL")) {
        offer_all();
      } else if (auto l = parse_hostlist(ns->second->value, ns->second->value_span, profile_); l.ok()) {
        spend(l.list->size(), ns->second->value_span);
        l.list->for_each([&](const std::string& h, const HostRange&) {
          if (auto i = node_index_.find(names, h); i != NodeIndex::kNone) offer(i);
        });
      }
    };
    const std::optional<ResolvedPartitionLine>& resolved =
        line_number < resolved_partition_lines_.size() ? resolved_partition_lines_[line_number] : std::nullopt;
    if (iequals(nodes->value, "ALL")) {
      offer_all();
    } else if (resolved) {  // node names only: the nodes check_partitions found
      spend(resolved->names, nodes->value_span);
      for (const std::uint32_t node : cluster_.partitions[resolved->partition].nodes) offer(node);
    } else if (auto l = parse_hostlist(nodes->value, nodes->value_span, profile_); l.ok()) {
      spend(l.list->size(), nodes->value_span);
      l.list->for_each([&](const std::string& h, const HostRange&) { add(h); });
    }
    const rules::GpuPartitionView view{policy, d, *nodes, has_gpu};
    for (const auto& check : rules::kGpuPartitionStage) check.run(view, findings_);
  }
  return cover;
}

}  // namespace greslint::model
