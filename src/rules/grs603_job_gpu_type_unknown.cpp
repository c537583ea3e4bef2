// SPDX-License-Identifier: Apache-2.0
// GRS603 job-gpu-type-unknown: the job asks for a GRES type no node has (types are
// case-sensitive: v100 is not V100); docs/rules/GRS603.md.
#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS603{"GRS603", "job-gpu-type-unknown", Severity::error, Effect::rejected, Daemon::slurmctld,
                      "the job asks for a GRES type no node has (types are case-sensitive): sbatch fails"};

namespace {

/// The type some node has under `name` that is `type` in another case; empty if none.
std::string other_case(const job::JobCluster& cluster, const job::GresAsk& a) {
  for (const job::JobNode& n : cluster.nodes)
    for (const job::NodeGres& g : n.gres)
      if (g.name == a.name && iequals(g.type, a.type)) return g.type;
  return {};
}

std::string known_types(const job::JobCluster& cluster, const std::string& name) {
  std::vector<std::string> types;
  for (const job::JobNode& n : cluster.nodes)
    for (const job::NodeGres& g : n.gres)
      if (g.name == name && !g.type.empty() && std::find(types.begin(), types.end(), g.type) == types.end())
        types.push_back(g.type);
  std::string out;
  for (const std::string& t : types) out += (out.empty() ? "" : ", ") + t;
  return out;
}

}  // namespace

JobOutcome check_grs603(const JobView& v, Reporter& out) {
  for (const job::GresAsk& a : v.job.asks) {
    if (a.type.empty()) continue;
    const bool exists = std::any_of(v.cluster.nodes.begin(), v.cluster.nodes.end(),
                                    [&](const job::JobNode& n) { return n.count(a.name, a.type) > 0; });
    if (exists) continue;
    const std::string fixed = other_case(v.cluster, a);
    const std::string types = known_types(v.cluster, a.name);
    auto d = out.report(GRS603, job_span(v, a.option),
                        "no node has " + a.name + " of type \"" + a.type + "\"" +
                            (fixed.empty() ? "" : " (types are case-sensitive: the nodes have \"" + fixed + "\")"));
    d.slurm(std::string(kNodeConfigUnavailable));
    d.help(!fixed.empty() ? "write " + a.name + ":" + fixed
           : types.empty() ? "this cluster's " + a.name + " have no type: leave the type out"
                           : "the types of " + a.name + " here: " + types);
    return JobOutcome::rejected(std::string(kNodeConfigUnavailable));
  }
  return JobOutcome::accepted();
}

}  // namespace greslint::rules
