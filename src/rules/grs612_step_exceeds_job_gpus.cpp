// SPDX-License-Identifier: Apache-2.0
// GRS612 step-exceeds-job-gpus: an srun line inside the job asks for more GPUs per node
// than the job has (or for GPUs the job did not ask for); docs/rules/GRS612.md.
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS612{"GRS612", "step-exceeds-job-gpus", Severity::warning, Effect::advice, Daemon::slurmctld,
                      "an srun line asks for more GPUs per node than the job was given: the step cannot start"};

namespace {

/// The GPUs per node a --gres or --gpus-per-node option asks for; nullopt for anything else.
std::optional<std::uint64_t> per_node_gpus(const job::JobOption& o) {
  if (o.name != "gres" && o.name != "gpus-per-node") return std::nullopt;
  std::uint64_t total = 0;
  bool any = false;
  for (std::string_view item : split_commas_view(o.value)) {
    if (item.substr(0, 5) == "gres/") item = item.substr(5);
    if (o.name == "gres" && item.substr(0, 3) != "gpu") continue;
    // The count is the last word (--gres=gpu:a100:2, --gpus-per-node=2); none: one.
    const std::size_t colon = item.rfind(':');
    const std::string_view count = colon == std::string_view::npos ? item : item.substr(colon + 1);
    std::uint64_t n = 1;
    if (!count.empty() && count.size() < 10 && count.find_first_not_of("0123456789") == std::string_view::npos)
      n = std::stoull(std::string(count));
    total += n;
    any = true;
  }
  if (!any) return std::nullopt;
  return total;
}

}  // namespace

JobOutcome check_grs612(const JobView& v, Reporter& out) {
  // Only where the job's GPUs per node are known: asked per node, or not at all.
  std::uint64_t job_per_node = 0;
  for (const job::GresAsk& a : v.job.asks) {
    if (a.name != "gpu") continue;
    if (a.per != job::GresAsk::Per::node) return JobOutcome::accepted();
    job_per_node += a.count;
  }
  for (const job::StepLine& step : v.script.steps) {
    for (const job::JobOption& o : step.options) {
      const auto wants = per_node_gpus(o);
      if (!wants || *wants <= job_per_node) continue;
      out.report(GRS612, o.span,
                 fmt::format("{} asks for {} GPU{} per node, {}", step.command, *wants, *wants == 1 ? "" : "s",
                      job_per_node == 0 ? std::string("the job asks for none")
                                        : fmt::format("the job has {}", job_per_node)))
          .help("a step gets GPUs from the job's allocation: ask for them in #SBATCH, or ask less in the step");
    }
  }
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
