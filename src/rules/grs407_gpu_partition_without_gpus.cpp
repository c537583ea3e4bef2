// SPDX-License-Identifier: Apache-2.0
// GRS407 gpu-partition-without-gpus: a partition meant for GPU jobs contains no GPU node
// (docs/rules/GRS407.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS407{"GRS407", "gpu-partition-without-gpus", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a partition meant for GPU jobs contains no GPU node"};

namespace {

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

// slurmctld/read_config.c builds each partition's node bitmap; a partition that looks meant
// for GPU jobs (its name, DefCpuPerGPU=, DefMemPerGPU=, a gres/gpu billing weight) gets none.
Outcome check_grs407(const GpuPartitionView& v, Findings& out) {
  if (v.has_gpu) return Outcome::proceed();
  const Directive& d = v.d;
  const KeyValue* billing = d.find("TRESBillingWeights");
  const bool gpu_partition = names_gpu(d.head().value) || d.find("DefCpuPerGPU") || d.find("DefMemPerGPU") ||
                             (billing && icontains(billing->value, "gres/gpu"));
  if (!gpu_partition) return Outcome::proceed();
  out.report(GRS407, v.nodes.value_span,
             fmt::format("partition {} looks meant for GPU jobs but none of its nodes has GPUs in slurm.conf",
                         d.head().value))
      .help("add GPU nodes to Nodes=, or give its nodes Gres=gpu:...");
  return Outcome::degraded();
}

}  // namespace greslint::rules
