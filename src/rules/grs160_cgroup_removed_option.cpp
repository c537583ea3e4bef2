// SPDX-License-Identifier: Apache-2.0
// GRS160 cgroup-removed-option: cgroup.conf sets CgroupReleaseAgentDir, which Slurm removed:
// slurmctld and slurmd exit as they read cgroup.conf (docs/rules/GRS160.md).
#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS160{"GRS160", "cgroup-removed-option", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "cgroup.conf sets CgroupReleaseAgentDir, which Slurm removed: the daemons exit"};

// The key stayed in cgroup.conf's table until 25.05 only to stop the daemons with this line;
// from 25.11 it is an unknown key (GRS002).
Outcome check_grs160_cgroup_release_agent_dir(const CgroupConfView& v, Findings& out) {
  if (v.profile.version() >= kSlurm2511) return Outcome::proceed();
  std::optional<KeyValue> kv;
  for (const Directive& d : v.cgroup.directives)
    if (iequals(d.head_spec()->name, "CgroupReleaseAgentDir")) kv = d.head();
  if (!kv) return Outcome::proceed();
  out.report(GRS160, kv->key_span, "CgroupReleaseAgentDir was removed (the release agent is gone with cgroup v1 notify)")
      .slurm("Support for CgroupReleaseAgentDir option has been removed.")
      .help("delete the CgroupReleaseAgentDir line");
  return Outcome::slurmctld_fatal("Support for CgroupReleaseAgentDir option has been removed.");
}

}  // namespace greslint::rules
