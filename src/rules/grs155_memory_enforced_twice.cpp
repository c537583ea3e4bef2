// SPDX-License-Identifier: Apache-2.0
// GRS155 memory-enforced-twice: JobAcctGatherParams=OverMemoryKill with task/cgroup memory
// confinement: slurmctld exits (docs/rules/GRS155.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS155{
    "GRS155",          "memory-enforced-twice",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "JobAcctGatherParams=OverMemoryKill with task/cgroup memory confinement: slurmctld exits"};

namespace {

/// cgroup.conf's last value of `key`, or null.
std::optional<KeyValue> cgroup_value(const ConfigFile& cgroup, std::string_view key) {
  std::optional<KeyValue> found;
  for (const Directive& d : cgroup.directives)
    if (iequals(d.head_spec()->name, key)) found = d.head();
  return found;
}

bool is_yes(const KeyValue* kv) {
  return kv &&
         (iequals(kv->value, "yes") || iequals(kv->value, "up") || iequals(kv->value, "true") || kv->value == "1");
}

/// cgroup.c:cgroup_memcg_job_confinement: cgroup.conf constrains RAM or swap and TaskPlugin
/// holds "cgroup" (case matters); from 24.05 not with CgroupPlugin=disabled. Returns the
/// cgroup.conf line that turns it on, or null.
std::optional<KeyValue> memory_confinement(const SlurmConfView& v) {
  if (!v.cgroup || !v.cgroup->exists) return std::nullopt;
  const KeyValue* task = v.settings.find("TaskPlugin");
  if (!task || task->value.find("cgroup") == std::string_view::npos) return std::nullopt;
  const std::optional<KeyValue> plugin = cgroup_value(*v.cgroup, "CgroupPlugin");
  if (v.profile.version() >= kSlurm2405 && plugin && plugin->value == "disabled") return std::nullopt;
  for (std::string_view key : {"ConstrainRAMSpace", "ConstrainSwapSpace"})
    if (std::optional<KeyValue> kv = cgroup_value(*v.cgroup, key); kv && is_yes(&*kv)) return kv;
  return std::nullopt;
}

}  // namespace

// Two mechanisms would kill a job for its memory: the accounting poll and the cgroup limit.
// read_slurm_conf refuses the pair right after it reads cgroup.conf.
Outcome check_grs155(const SlurmConfView& v, Findings& out) {
  const KeyValue* params = v.settings.find("JobAcctGatherParams");
  if (!params) return Outcome::proceed();
  bool oom_kill = false;
  for (std::string_view item : list_items(params->value)) oom_kill = oom_kill || iequals(item, "OverMemoryKill");
  if (!oom_kill) return Outcome::proceed();
  const std::optional<KeyValue> constrain = memory_confinement(v);
  if (!constrain) return Outcome::proceed();
  std::string line =
      "Jobs memory is being constrained by both TaskPlugin cgroup and JobAcctGather plugin. This enables two "
      "incompatible memory enforcement mechanisms, one of them must be disabled.";
  out.report(GRS155, params->value_span,
             "JobAcctGatherParams=OverMemoryKill and task/cgroup's memory limit both enforce job memory")
      .slurm(line)
      .related(constrain->value_span, fmt::format("{} here", constrain->spec->name))
      .help("drop OverMemoryKill from JobAcctGatherParams (task/cgroup enforces the limit)");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
