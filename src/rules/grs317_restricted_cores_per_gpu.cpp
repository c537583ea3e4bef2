// SPDX-License-Identifier: Apache-2.0
// GRS317 restricted-cores-per-gpu: RestrictedCoresPerGPU= cannot be applied to what slurmd reports, or (24.05-25.05.2) hides the node's GRES drain (docs/rules/GRS317.md).
#include <algorithm>
#include <fmt/format.h>
#include <vector>

#include "rules/node_registration_rules.hpp"

namespace greslint::rules {

const RuleInfo GRS317{"GRS317", "restricted-cores-per-gpu", Severity::error, Effect::drain, Daemon::slurmctld,
                      "RestrictedCoresPerGPU= cannot be applied to the node's GPUs, or hides its GRES drain"};

namespace {

/// node_mgr.c:_set_gpu_spec's refusal, as it appends it to the reason; empty when it
/// reserves the cores.
std::string gpu_spec_problem(const NodeRegistrationView& v) {
  const std::uint32_t n = v.node.restricted_cores_per_gpu;
  if (!v.gpu_records) return fmt::format("RestrictedCoresPerGPU={} but no gpus on node {}", n, v.rep);
  const std::vector<GresRecord>& records = *v.gpu_records;
  // slurmctld builds the GPUs' topology from device files with Cores= or Type=, or from any
  // device files when a shared GRES is configured beside the GPUs: then every slot lacks
  // cores, no core is reserved and the step succeeds (case gm69).
  const bool typed_or_cored = std::any_of(records.begin(), records.end(), [](const GresRecord& r) { return r.type || r.cores; });
  const bool has_files = std::any_of(records.begin(), records.end(), [](const GresRecord& r) { return r.files.has_value(); });
  if ((!typed_or_cored && !v.gpus_shared) || !has_files)
    return fmt::format("RestrictedCoresPerGPU={} but the gpus given don't have any topology on node {}.", n, v.rep);
  // Each record in turn takes N cores per GPU from its Cores=, lowest first, skipping those
  // an earlier record took; a record without Cores= takes none.
  const std::uint32_t cores = v.node.topo.core_count();
  std::vector<bool> taken(cores, false);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const GresRecord& r = records[i];
    if (!r.core_bits) continue;
    std::vector<std::uint32_t> bits = *r.core_bits;
    std::sort(bits.begin(), bits.end());
    const std::uint64_t wanted = std::uint64_t(n) * r.count;
    std::uint64_t got = 0;
    for (std::uint32_t core : bits) {
      if (core >= cores || taken[core]) continue;
      taken[core] = true;
      if (++got >= wanted) break;
    }
    if (got != wanted)
      return fmt::format(
          "RestrictedCoresPerGPU: We can't restrict {} core(s) per gpu. GPU {}({}) doesn't have access to that many "
          "unique cores ({}).",
          n, r.type ? *r.type : std::string("(null)"), i, got);
  }
  return {};
}

}  // namespace

// node_mgr.c:validate_node_specs, after gres_node_config_validate: a node with
// RestrictedCoresPerGPU= reserves that many of each GPU's cores (_set_gpu_spec). Its refusal
// is appended to the GRES checks' reason and drains the node. In 24.05 to 25.05.2 its result
// also takes the place of theirs: when it reserves the cores, a GRES refusal before it is
// lost and the node returns to service (fixed in 25.05.3, ticket 22844).
Outcome check_grs317(const NodeRegistrationView& v, Findings& out) {
  const std::uint32_t n = v.node.restricted_cores_per_gpu;
  if (n == 0 || v.profile.version() < kSlurm2405) return Outcome::proceed();
  // Not modelled: which cores CoreSpecCount=/CpuSpecList= keep for the node (skipped when
  // the GPUs' cores are reserved), and what AutoDetect finds (GRS222 says so).
  if (v.node.spec_cores || v.gpus_detected) return Outcome::proceed();
  const Span at = v.node.restricted_cores_span;
  const std::string problem = gpu_spec_problem(v);
  if (!problem.empty()) {
    std::string reason = v.drain_reason.empty() ? problem : fmt::format("{}, {}", v.drain_reason, problem);
    out.report(GRS317, at,
               fmt::format("{}: RestrictedCoresPerGPU={} cannot reserve cores for their GPUs, and slurmctld drains them",
                           kNodes, n))
        .slurm(reason)
        .help("give every GPU line File= and Cores= with at least RestrictedCoresPerGPU cores per GPU of its own, "
              "or remove RestrictedCoresPerGPU=");
    return Outcome::drain_replacing(std::move(reason));
  }
  const bool overwrites_refusal = v.profile.version() < kSlurm2505;
  if (!v.invalid_reg || !overwrites_refusal) return Outcome::proceed();
  out.report(GRS317, at,
             fmt::format("{}: RestrictedCoresPerGPU={} makes slurmctld {} forget that it refused their GRES (\"{}\"): "
                         "they return to service as they are",
                         kNodes, n, v.profile.version().str(), v.drain_reason))
      .effect(Effect::degraded, Daemon::slurmctld)
      .severity(Severity::warning)
      .help("fix what the GRES check refused; Slurm 25.05.3 and later drain these nodes");
  return Outcome::lifts_drain();
}

}  // namespace greslint::rules
