// SPDX-License-Identifier: Apache-2.0
// GRS136 partition-preempt-gang-ignored: a partition's PreemptMode with GANG (or an invalid
// one): Slurm 24.11+ drops GANG and carries on (docs/rules/GRS136.md).
#include <fmt/format.h>

#include <unordered_map>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "slurm_time.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS136{
    "GRS136",
    "partition-preempt-gang-ignored",
    Severity::warning,
    Effect::degraded,
    Daemon::slurmctld,
    "a partition's PreemptMode with GANG (or an invalid one): Slurm 24.11+ drops GANG and carries on"};

namespace {

constexpr std::string_view kGangIgnored =
    "PreemptMode=GANG is a cluster-wide option and cannot be set at partition level, option ignored.";

/// _parse_partitionname refuses the record at MaxTime or DefaultTime before it reads PreemptMode.
bool rejected_before_preempt_mode(const KeyValue* max_time, const KeyValue* default_time) {
  for (const KeyValue* kv : {max_time, default_time}) {
    if (!kv) continue;
    const std::int32_t minutes = slurm_time_mins(kv->value);
    if (minutes < 0 && minutes != kSlurmInfinite) return true;
  }
  return false;
}

}  // namespace

// From 24.11 _parse_partitionname clears the GANG bit of a partition's PreemptMode and logs it.
// preempt_mode_num gives an invalid value every bit, GANG's too, so that one is logged the
// same way and then passes (GRS133 refuses it up to 24.05).
Outcome check_grs136(const SlurmConfView& v, Findings& out) {
  if (v.profile.version() < kSlurm2411) return Outcome::proceed();
  std::unordered_map<std::string, const KeyValue*> defaults;  // lower-cased key
  auto value = [&](const Directive& d, std::string_view key) -> const KeyValue* {
    if (const KeyValue* kv = d.find(key)) return kv;
    auto it = defaults.find(to_lower(key));
    return it == defaults.end() ? nullptr : it->second;
  };
  for (const Directive* line : v.index.records("PartitionName")) {
    const Directive& d = *line;
    const bool is_default = iequals(d.head().value, "DEFAULT");
    if (is_default)
      for (const KeyValue& kv : d.rest()) defaults[to_lower(kv.spec->name)] = &kv;
    const KeyValue* mode = value(d, "PreemptMode");
    if (!mode || is_default || rejected_before_preempt_mode(value(d, "MaxTime"), value(d, "DefaultTime"))) continue;
    const auto parsed = parse_preempt_mode(mode->value);
    if (parsed && !parsed->gang) continue;
    auto b = out.report(
        GRS136, mode->value_span,
        parsed ? fmt::format("PartitionName={}: GANG in PreemptMode={} is ignored at partition level", d.head().value,
                             mode->value)
               : fmt::format("PartitionName={}: PreemptMode={} is not a mode; Slurm {} no longer refuses it: "
                             "it logs that GANG is ignored and keeps every other mode bit",
                             d.head().value, mode->value, v.profile.version().str()));
    b.slurm(std::string(kGangIgnored))
        .help(parsed ? "drop GANG here; set PreemptMode=...,GANG once at the top of slurm.conf"
                     : "write one of OFF, CANCEL, REQUEUE, SUSPEND (GANG only at the top of slurm.conf)");
    if (mode != d.find("PreemptMode"))
      b.related(d.head().value_span, "this partition takes it from PartitionName=DEFAULT");
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
