// SPDX-License-Identifier: Apache-2.0
// GRS133 partition-bad-value: a PartitionName line's State=, MaxTime= or DefaultTime= that
// read_config.c:_parse_partitionname rejects: the record, then the file, is refused
// (docs/rules/GRS133.md).
#include <fmt/format.h>

#include <array>
#include <optional>
#include <unordered_map>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS133{"GRS133", "partition-bad-value", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a PartitionName value Slurm cannot read: the file is refused and every daemon exits"};

namespace {

/// parse_time.c's shape test of a time: digits, at most one '-' (days, before any ':') and
/// two ':', with enough numbers for the separators.
bool valid_timespec(std::string_view s) {
  int numbers = 0, dashes = 0, colons = 0;
  bool in_number = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      if (!in_number) ++numbers;
      in_number = true;
    } else if (c == '-') {
      in_number = false;
      ++dashes;
      if (colons) return false;  // days come first
    } else if (c == ':') {
      in_number = false;
      ++colons;
    } else {
      return false;
    }
  }
  if (!numbers || dashes > 1 || colons > 2) return false;
  const int needed = colons + (dashes ? 1 : 0) + 1;  // every separator needs a number after it
  return colons == 0 || numbers >= needed;
}

/// time_str2mins accepts it (a duration, -1, INFINITE or UNLIMITED).
bool valid_time(std::string_view s) {
  if (s.empty()) return false;
  if (s == "-1" || iequals(s, "INFINITE") || iequals(s, "UNLIMITED")) return true;
  return valid_timespec(s);
}

/// _parse_partitionname compares only the word's length: "UPPER" is UP.
bool valid_state(std::string_view s) {
  for (std::string_view word : {"DOWN", "UP", "DRAIN", "INACTIVE"})
    if (s.size() >= word.size() && iequals(s.substr(0, word.size()), word)) return true;
  return false;
}

struct Problem {
  const KeyValue* kv;
  std::string logged;  ///< the error line Slurm logs before it refuses the file
  std::string what;
};

/// The first value of one partition (its own, else PartitionName=DEFAULT's) that Slurm
/// rejects, in the order _parse_partitionname reads them.
std::optional<Problem> first_problem(const Directive& d, const std::unordered_map<std::string, const KeyValue*>& dflt) {
  auto value = [&](std::string_view key) -> const KeyValue* {
    if (const KeyValue* kv = d.find(key)) return kv;
    auto it = dflt.find(to_lower(key));
    return it == dflt.end() ? nullptr : it->second;
  };
  for (std::string_view key : {"DefaultTime", "MaxTime"}) {
    const KeyValue* kv = value(key);
    if (kv && !valid_time(kv->value))
      return Problem{kv, fmt::format("Bad value \"{}\" for {}", kv->value, key),
                     fmt::format("{}={} is no time Slurm reads (minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]] or "
                                 "INFINITE)",
                                 key, kv->value)};
  }
  if (const KeyValue* kv = value("State"); kv && !valid_state(kv->value))
    return Problem{kv, fmt::format("Bad value \"{}\" for State", kv->value),
                   fmt::format("State={} is not UP, DOWN, DRAIN or INACTIVE", kv->value)};
  return std::nullopt;
}

}  // namespace

// A rejected record makes s_p_parse_file fail: Slurm logs the value and then exits with the
// generic line. PartitionName=DEFAULT values are checked in each partition that takes them.
Outcome check_grs133_partition_values(const SlurmConfView& v, Findings& out) {
  std::unordered_map<std::string, const KeyValue*> defaults;  // lower-cased key
  Outcome result = Outcome::proceed();
  for (const Directive& d : v.slurm.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().spec->name, "PartitionName")) continue;
    if (iequals(d.head().value, "DEFAULT")) {
      for (std::size_t i = 1; i < d.pairs.size(); ++i) defaults[to_lower(d.pairs[i].spec->name)] = &d.pairs[i];
      continue;
    }
    const auto problem = first_problem(d, defaults);
    if (!problem) continue;
    auto b = out.report(GRS133, problem->kv->value_span,
                        fmt::format("PartitionName={}: {}; Slurm refuses the file", d.head().value, problem->what));
    b.slurm(problem->logged).help("fix the value, e.g. MaxTime=7-00:00:00 or State=UP");
    if (problem->kv != d.find(problem->kv->spec->name))
      b.related(d.head().value_span, "this partition takes it from PartitionName=DEFAULT");
    result = Outcome::slurmctld_fatal(std::string(kUnableToProcess));
  }
  return result;
}

}  // namespace greslint::rules
