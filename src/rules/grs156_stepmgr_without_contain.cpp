// SPDX-License-Identifier: Apache-2.0
// GRS156 stepmgr-without-contain: SlurmctldParameters=enable_stepmgr without
// PrologFlags=Contain: slurmctld 24.05+ exits (docs/rules/GRS156.md).
#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS156{
    "GRS156",          "stepmgr-without-contain",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "SlurmctldParameters=enable_stepmgr without PrologFlags=Contain: slurmctld 24.05+ exits"};

// The step manager runs in the job's extern step, which only PrologFlags=Contain (or X11,
// RunInJob) creates; read_slurm_conf looks for the word anywhere in SlurmctldParameters.
Outcome check_grs156(const SlurmConfView& v, Findings& out) {
  if (v.profile.version() < kSlurm2405) return Outcome::proceed();
  const KeyValue* params = v.settings.find("SlurmctldParameters");
  if (!params || !icontains(params->value, "enable_stepmgr")) return Outcome::proceed();
  const KeyValue* flags = v.settings.find("PrologFlags");
  if (flags && prolog_flags_contain(flags->value, v.profile.version())) return Outcome::proceed();
  std::string line = "STEP_MGR not supported without PrologFlags=contain";
  auto b = out.report(GRS156, params->value_span, "enable_stepmgr needs PrologFlags=Contain");
  b.slurm(line).help("add Contain to PrologFlags, or drop enable_stepmgr");
  if (flags) b.related(flags->value_span, "PrologFlags has no Contain");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
