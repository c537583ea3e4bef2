// SPDX-License-Identifier: Apache-2.0
// GRS301 count-lower-than-configured: slurmd reports fewer GRES than slurm.conf configures: the node is drained (docs/rules/GRS301.md).
#include <algorithm>
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS301{"GRS301", "count-lower-than-configured", Severity::error, Effect::drain, Daemon::slurmctld,
                      "slurmd reports fewer GRES than slurm.conf configures: the node is drained"};

namespace {
/// Why slurmd reports fewer than slurm.conf configures, and what to change.
std::pair<std::string, std::string> cause_and_help(const RegistrationView& v) {
  const auto& c = v.configured;
  const std::string& name = v.name;
  const auto& read = v.read;
  auto of_name = [&](auto&& pred) {
    return std::any_of(read.begin(), read.end(), [&](const GresRecord& r) { return iequals(r.name, name) && pred(r); });
  };
  if (v.records.empty() && read.empty())
    return {"gres.conf gives these nodes no device lines", fmt::format("add NodeName=... Name={} File=/dev/... lines for them", name)};
  if (!of_name([](const GresRecord&) { return true; }))
    return {fmt::format("no gres.conf line for {} applies to these nodes", name),
            "check gres.conf NodeName= (it must match the slurm.conf NodeName exactly, case and padding)"};
  if (!c.types.empty() && of_name([](const GresRecord& r) { return !r.type; }))
    return {"slurm.conf Gres= is typed but the gres.conf lines have no Type=, so Slurm does not use them",
            fmt::format("add Type={} to the gres.conf lines", c.types.front().type)};
  if (!c.types.empty() && of_name([&](const GresRecord& r) {
        return r.type && std::none_of(c.types.begin(), c.types.end(), [&](const auto& t) { return iequals(t.type, *r.type); });
      }))
    return {"gres.conf Type= does not match any slurm.conf type", "use the same type names in both files"};
  if (name == "gpu" && of_name([](const GresRecord& r) { return !r.files; }))
    return {"slurmd drops GPU lines without File=", "list the device files with File=/dev/nvidia[...]"};
  return {fmt::format("gres.conf lists {} where slurm.conf configures {}", v.reported, c.total),
          fmt::format("list {} devices in gres.conf, or configure Gres={}:{} in slurm.conf", c.total,
                      c.types.size() == 1 ? name + ":" + c.types.front().type : name, v.reported)};
}
}  // namespace

// gres_node_config_validate: fewer than configured drains the node and ends this GRES's
// validation.
Outcome check_grs301(const RegistrationView& v, Findings& out) {
  if (v.reported >= v.configured.total) return Outcome::proceed();
  std::string slurm =
      fmt::format("gres/{} count reported lower than configured ({} < {})", v.name, v.reported, v.configured.total);
  auto [cause, help] = cause_and_help(v);
  const Span at = v.records.empty() || !v.records.front().line ? v.node.gres_span : v.records.front().span_of("File");
  auto b = out.report(GRS301, at,
                      fmt::format("{} report {} {} but slurm.conf configures {}: {}", kNodes, v.reported, v.name,
                                  v.configured.total, cause))
               .slurm(slurm)
               .help(help);
  if (at.begin != v.node.gres_span.begin || at.file != v.node.gres_span.file)
    b.related(v.node.gres_span, fmt::format("configured here: Gres={}", v.node.gres));
  return Outcome::drain(std::move(slurm)).and_skip_rest();
}

}  // namespace greslint::rules
