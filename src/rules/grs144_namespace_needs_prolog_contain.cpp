// SPDX-License-Identifier: Apache-2.0
// GRS144 namespace-needs-prolog-contain: job_container/tmpfs (25.11+: any namespace plugin)
// without PrologFlags=Contain: every daemon exits (docs/rules/GRS144.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS144{"GRS144",
                      "namespace-needs-prolog-contain",
                      Severity::error,
                      Effect::fatal,
                      Daemon::slurmctld,
                      "job_container/tmpfs (25.11+: any namespace plugin) without PrologFlags=Contain: every daemon "
                      "exits"};

namespace {

/// The plugin the check names, or null when none needs Contain. Up to 25.05 any
/// JobContainerType holding "tmpfs" (case matters); from 25.11 NamespaceType, else
/// JobContainerType, unless it holds "none" in any case.
const KeyValue* plugin_needing_contain(const SlurmConfView& v) {
  if (v.profile.version() < kSlurm2511) {
    const KeyValue* kv = v.settings.find("JobContainerType");
    return kv && kv->value.find("tmpfs") != std::string_view::npos ? kv : nullptr;
  }
  const KeyValue* kv = v.settings.find("NamespaceType");
  if (!kv) kv = v.settings.find("JobContainerType");
  return kv && !kv->value.empty() && !icontains(kv->value, "none") ? kv : nullptr;
}

}  // namespace

// The plugin builds each job's namespace in the extern step, which only PrologFlags=Contain
// (or X11, RunInJob, which imply it) creates.
Outcome check_grs144(const SlurmConfView& v, Findings& out) {
  const KeyValue* plugin = plugin_needing_contain(v);
  if (!plugin) return Outcome::proceed();
  const KeyValue* flags = v.settings.find("PrologFlags");
  if (flags && prolog_flags_contain(flags->value, v.profile.version())) return Outcome::proceed();
  std::string line = fmt::format(
      "PrologFlags=Contain is required for use with {}",
      v.profile.version() < kSlurm2511 ? std::string_view("job_container/tmpfs") : std::string_view(plugin->value));
  auto b = out.report(GRS144, plugin->value_span,
                      fmt::format("{}={} needs PrologFlags=Contain", plugin->spec->name, plugin->value));
  b.slurm(line).help("add Contain to PrologFlags (PrologFlags=Contain)");
  if (flags) b.related(flags->value_span, "PrologFlags has no Contain");
  return Outcome::slurmctld_fatal(std::move(line));
}

}  // namespace greslint::rules
