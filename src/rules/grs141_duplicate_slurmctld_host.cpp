// SPDX-License-Identifier: Apache-2.0
// GRS141 duplicate-slurmctld-host: one controller host named twice: every daemon exits
// (docs/rules/GRS141.md).
#include <fmt/format.h>

#include <utility>
#include <vector>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS141{"GRS141",      "duplicate-slurmctld-host", Severity::error,
                      Effect::fatal, Daemon::slurmctld,          "one controller host named twice: every daemon exits"};

namespace {

/// The controller hosts _load_slurmctld_host ends with, in order, each with where it is written:
/// the SlurmctldHost records Slurm took (the host before any "(address)"), or else
/// ControlMachine and BackupController.
std::vector<std::pair<std::string_view, Span>> controllers(const SlurmConfView& v) {
  std::vector<std::pair<std::string_view, Span>> hosts;
  for (const Directive* line : v.index.records("SlurmctldHost")) {
    const Directive& d = *line;
    const std::string_view value = d.head().value;
    if (!slurmctld_host_well_formed(value)) continue;  // refused while parsing (GRS137)
    hosts.emplace_back(value.substr(0, value.find('(')), d.head().value_span);
  }
  if (!hosts.empty()) return hosts;
  for (std::string_view key : {"ControlMachine", "BackupController"})
    if (const KeyValue* kv = v.settings.find(key)) hosts.emplace_back(kv->value, kv->value_span);
  return hosts;
}

}  // namespace

// Names compare exactly (case matters). "localhost" becomes the name of the host the daemon
// runs on, which the files do not tell: such an entry is left out.
Outcome check_grs141(const SlurmConfView& v, Findings& out) {
  const auto hosts = controllers(v);
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    if (iequals(hosts[i].first, "localhost")) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (hosts[j].first != hosts[i].first) continue;
      out.report(GRS141, hosts[i].second, fmt::format("controller host {} is named twice", hosts[i].first))
          .slurm(fmt::format("Duplicate SlurmctldHost records: {}", hosts[i].first))
          .related(hosts[j].second, "first named here")
          .help("name each controller once: the first SlurmctldHost is the primary, the next ones the backups");
      return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
    }
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
