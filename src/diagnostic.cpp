// SPDX-License-Identifier: Apache-2.0
// Names of severities, effects and daemons as they appear in every output format.
#include "greslint/diagnostic.hpp"

#include "util.hpp"

namespace greslint {

std::string_view to_string(Severity s) noexcept {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::string_view to_string(Effect e) noexcept {
  switch (e) {
    case Effect::none: return "none";
    case Effect::fatal: return "fatal";
    case Effect::drain: return "drain";
    case Effect::degraded: return "degraded";
    case Effect::advice: return "advice";
    case Effect::rejected: return "rejected";
    case Effect::pends: return "pends";
  }
  return "none";
}

std::string_view to_string(Daemon d) noexcept {
  switch (d) {
    case Daemon::none: return "none";
    case Daemon::slurmctld: return "slurmctld";
    case Daemon::slurmd: return "slurmd";
  }
  return "none";
}

std::optional<Severity> parse_severity(std::string_view s) noexcept {
  // Enumerated options match in any case, everywhere (docs/output-formats.md).
  if (iequals(s, "note")) return Severity::note;
  if (iequals(s, "warning")) return Severity::warning;
  if (iequals(s, "error")) return Severity::error;
  return std::nullopt;
}

}  // namespace greslint
