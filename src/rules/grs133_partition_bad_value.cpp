// SPDX-License-Identifier: Apache-2.0
// GRS133 partition-bad-value: a PartitionName line's value that
// read_config.c:_parse_partitionname rejects: the record, then the file, is refused
// (docs/rules/GRS133.md).
#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <optional>
#include <unordered_map>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "slurm_time.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS133{"GRS133", "partition-bad-value", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a PartitionName value Slurm cannot read: the file is refused and every daemon exits"};

namespace {

/// time_str2mins accepts it: not negative (a huge value wraps), unless INFINITE.
bool valid_time(std::string_view s) {
  const std::int32_t minutes = slurm_time_mins(s);
  return minutes >= 0 || minutes == kSlurmInfinite;
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

/// Up to 26.05 OverSubscribe= (or its old name Shared=): NO, EXCLUSIVE, YES[:N], FORCE[:N].
/// A count out of range is logged and ignored, not refused.
bool valid_oversubscribe(std::string_view s) {
  for (std::string_view w : {"NO", "EXCLUSIVE", "YES", "FORCE"})
    if (iequals(s, w)) return true;
  for (std::string_view w : {"YES:", "FORCE:"})
    if (s.size() >= w.size() && iequals(s.substr(0, w.size()), w)) return true;
  return false;
}

/// _parse_partitionname compares only the word's start: CR_Core..., CR_Socket...
bool valid_partition_select_params(std::string_view s) {
  for (std::string_view w : {"CR_Core", "CR_Socket"})
    if (s.size() >= w.size() && iequals(s.substr(0, w.size()), w)) return true;
  return false;
}

/// SuspendTime= is INFINITE, -1 or a number strtoul reads within 32 bits.
bool valid_suspend_time(std::string_view s) {
  if (iequals(s, "INFINITE") || s == "-1") return true;
  const std::string text(s);
  const unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
  return n <= 0xffffffffULL;
}

Problem bad_value(const KeyValue& kv, std::string_view key, std::string logged_suffix, std::string what) {
  return Problem{&kv, fmt::format("Bad value \"{}\" for {}{}", kv.value, key, logged_suffix), std::move(what)};
}

/// The first value of one partition (its own, else PartitionName=DEFAULT's) that Slurm
/// rejects, in the order _parse_partitionname reads them.
std::optional<Problem> first_problem(const Directive& d, const std::unordered_map<std::string, const KeyValue*>& dflt,
                                     SlurmVersion release) {
  auto value = [&](std::string_view key) -> const KeyValue* {
    if (const KeyValue* kv = d.find(key)) return kv;
    auto it = dflt.find(to_lower(key));
    return it == dflt.end() ? nullptr : it->second;
  };
  for (std::string_view key : {"MaxTime", "DefaultTime"}) {
    const KeyValue* kv = value(key);
    if (kv && !valid_time(kv->value))
      return bad_value(*kv, key, "",
                       fmt::format("{}={} is no time Slurm reads (minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]] or "
                                   "INFINITE)",
                                   key, kv->value));
  }
  // From 24.11 a partition's PreemptMode loses its GANG bit before the test, and an invalid
  // value (all bits set) then passes it: Slurm logs that GANG is ignored and carries on.
  if (const KeyValue* kv = value("PreemptMode"); kv && release < kSlurm2411 && !parse_preempt_mode(kv->value))
    return bad_value(*kv, "PreemptMode", "",
                     fmt::format("PreemptMode={} is not one mode (OFF, CANCEL, REQUEUE, SUSPEND) with GANG or WITHIN",
                                 kv->value));
  // The partition's own line only: PartitionName=DEFAULT does not pass it on.
  if (const KeyValue* kv = d.find("SelectTypeParameters"); kv && !valid_partition_select_params(kv->value))
    return Problem{kv, fmt::format("Bad value for SelectTypeParameters: {}", kv->value),
                   fmt::format("SelectTypeParameters={} is not CR_Core, CR_Core_Memory, CR_Socket or "
                               "CR_Socket_Memory (the partition-level choices)",
                               kv->value)};
  const KeyValue* share = value("OverSubscribe");
  if (!share) share = value("Shared");
  if (share && !valid_oversubscribe(share->value))
    return bad_value(*share, "OverSubscribe", release >= kSlurm2605 ? " (use NO, YES, FORCE)" : "",
                     fmt::format("{}={} is not NO, EXCLUSIVE, YES[:N] or FORCE[:N]", share->spec->name, share->value));
  if (release >= kSlurm2605) {
    const KeyValue* kv = value("Exclusive");
    bool known = false;
    for (std::string_view w : {"NO", "NONE", "NODE", "USER", "TOPO"}) known = known || (kv && iequals(kv->value, w));
    if (kv && !known)
      return bad_value(*kv, "Exclusive=", " (use NO, NODE, USER, TOPO)",
                       fmt::format("Exclusive={} is not NO, NODE, USER or TOPO", kv->value));
  }
  if (const KeyValue* kv = d.find("SuspendTime"); kv && !valid_suspend_time(kv->value))
    return bad_value(*kv, "SuspendTime", "", fmt::format("SuspendTime={} is beyond 4294967295 seconds", kv->value));
  if (const KeyValue* kv = value("State"); kv && !valid_state(kv->value))
    return bad_value(*kv, "State", "", fmt::format("State={} is not UP, DOWN, DRAIN or INACTIVE", kv->value));
  return std::nullopt;
}

std::string_view help_for(std::string_view key) {
  if (iequals(key, "PreemptMode")) return "write one of OFF, CANCEL, REQUEUE, SUSPEND (SUSPEND needs GANG cluster-wide)";
  if (iequals(key, "SelectTypeParameters")) return "write CR_Core or CR_Socket (with _Memory), or drop the key";
  if (iequals(key, "OverSubscribe") || iequals(key, "Shared")) return "write NO, EXCLUSIVE, YES[:N] or FORCE[:N]";
  if (iequals(key, "Exclusive")) return "write NO, NODE, USER or TOPO";
  if (iequals(key, "SuspendTime")) return "write a number of seconds below 4294967296, or INFINITE";
  if (iequals(key, "State")) return "write UP, DOWN, DRAIN or INACTIVE";
  return "write a time such as 7-00:00:00, 90 (minutes) or INFINITE";
}

}  // namespace

// A rejected record makes s_p_parse_file fail: Slurm logs the value and then exits with the
// generic line. PartitionName=DEFAULT values are checked in each partition that takes them.
Outcome check_grs133_partition_values(const SlurmConfView& v, Findings& out) {
  std::unordered_map<std::string, const KeyValue*> defaults;  // lower-cased key
  Outcome result = Outcome::proceed();
  for (const Directive* line : v.index.records("PartitionName")) {
    const Directive& d = *line;
    if (iequals(d.head().value, "DEFAULT")) {
      for (const KeyValue& kv : d.rest()) defaults[to_lower(kv.spec->name)] = &kv;
      continue;
    }
    const auto problem = first_problem(d, defaults, v.profile.version());
    if (!problem) continue;
    auto b = out.report(GRS133, problem->kv->value_span,
                        fmt::format("PartitionName={}: {}; Slurm refuses the file", d.head().value, problem->what));
    b.slurm(problem->logged).help(std::string(help_for(problem->kv->spec->name)));
    if (problem->kv != d.find(problem->kv->spec->name))
      b.related(d.head().value_span, "this partition takes it from PartitionName=DEFAULT");
    result = Outcome::slurmctld_fatal(std::string(kUnableToProcess));
  }
  return result;
}

}  // namespace greslint::rules
