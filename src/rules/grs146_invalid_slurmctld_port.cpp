// SPDX-License-Identifier: Apache-2.0
// GRS146 invalid-slurmctld-port: SlurmctldPort is not a port or a rising port range: every
// daemon exits (docs/rules/GRS146.md).
#include <fmt/format.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS146{"GRS146",          "invalid-slurmctld-port",
                      Severity::error,   Effect::fatal,
                      Daemon::slurmctld, "SlurmctldPort is not a port or a rising port range: every daemon exits"};

namespace {

/// _validate_and_set_defaults reads N or N-M with strtol: N above 0, M above N, nothing after.
bool valid_port(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long first = std::strtol(text.c_str(), &end, 10);
  if (first == LONG_MIN || first == LONG_MAX || first <= 0 || errno) return false;
  if (*end == '-') {
    const long last = std::strtol(end + 1, nullptr, 10);
    return last != LONG_MIN && last != LONG_MAX && last > first && !errno;
  }
  return *end == '\0';
}

}  // namespace

Outcome check_grs146(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("SlurmctldPort");
  if (!kv || valid_port(std::string(kv->value))) return Outcome::proceed();
  out.report(GRS146, kv->value_span, fmt::format("SlurmctldPort={} is not a port or a range LOW-HIGH", kv->value))
      .slurm(fmt::format("Invalid SlurmctldPort {}", kv->value))
      .help("write one port (SlurmctldPort=6817) or a rising range (SlurmctldPort=6817-6820)");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

}  // namespace greslint::rules
