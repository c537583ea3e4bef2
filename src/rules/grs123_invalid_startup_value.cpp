// SPDX-License-Identifier: Apache-2.0
// GRS123 invalid-startup-value: a value read_config.c rejects once slurm.conf is parsed: it
// logs what is wrong, and the daemons exit with "Unable to process configuration file"
// (PrologFlags: with its own fatal line) (docs/rules/GRS123.md).
#include <fmt/format.h>

#include <array>
#include <initializer_list>
#include <optional>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "slurm_time.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS123{"GRS123", "invalid-startup-value", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "a slurm.conf value Slurm rejects at start-up: every daemon exits"};

namespace {

/// Slurm logs `lines` (the last one names the value) and then the generic fatal.
Outcome rejected(Findings& out, const KeyValue& kv, std::string what, std::string line, std::string help) {
  out.report(GRS123, kv.value_span, std::move(what)).slurm(std::move(line)).help(std::move(help));
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

/// A comma list of flag words: Slurm names the first unknown one, then the whole value.
Outcome check_words(const SlurmConfView& v, Findings& out, std::string_view key, const std::vector<Word>& words,
                    std::string_view singular, bool own_fatal) {
  const KeyValue* kv = v.settings.find(key);
  if (!kv) return Outcome::proceed();
  auto bad = first_unknown_word(kv->value, words, v.profile.version());
  if (!bad) return Outcome::proceed();
  std::string line = fmt::format("{} invalid: {}", key, kv->value);
  out.report(GRS123, kv->value_span, fmt::format("{} has no flag {} in Slurm {}", key, *bad, v.profile.version().str()))
      .slurm(fmt::format("Invalid {}: {}", singular, *bad))
      .help(fmt::format("remove {} from {} (see slurm.conf(5) of this release)", *bad, key));
  return Outcome::slurmctld_fatal(own_fatal ? line : std::string(kUnableToProcess));
}

}  // namespace

Outcome check_grs123_debug_flags(const SlurmConfView& v, Findings& out) {
  return check_words(v, out, "DebugFlags", debug_flag_words(), "DebugFlag", false);
}

Outcome check_grs123_enforce_part_limits(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("EnforcePartLimits");
  if (!kv || valid_enforce_part_limits(kv->value)) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("EnforcePartLimits={} is not ALL, ANY or NO", kv->value),
                  fmt::format("Bad EnforcePartLimits: {}", kv->value), "use EnforcePartLimits=ALL, ANY or NO");
}

Outcome check_grs123_first_job_id(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("FirstJobId");
  if (!kv || slurm_number(kv->value) != 0) return Outcome::proceed();
  out.report(GRS123, kv->value_span, "FirstJobId=0 is not a job id").slurm("FirstJobId cannot be zero")
      .help("use FirstJobId=1 or more");
  return Outcome::slurmctld_fatal("FirstJobId cannot be zero");
}

Outcome check_grs123_max_dbd_msgs(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("MaxDBDMsgs");
  const auto n = kv ? slurm_number(kv->value) : std::nullopt;
  if (!n || *n >= 10000) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("MaxDBDMsgs={} is below Slurm's minimum of 10000", *n),
                  fmt::format("MaxDBDMsgs value ({}) needs to be greater than 10000", *n), "use 10000 or more");
}

Outcome check_grs123_max_job_count(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("MaxJobCount");
  if (!kv || slurm_number(kv->value) != 0) return Outcome::proceed();
  return rejected(out, *kv, "MaxJobCount=0 permits no job", "MaxJobCount=0, No jobs permitted",
                  "raise MaxJobCount (default 10000)");
}

Outcome check_grs123_max_step_count(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("MaxStepCount");
  if (!kv || slurm_number(kv->value) != 0) return Outcome::proceed();
  return rejected(out, *kv, "MaxStepCount=0 permits no job step", "MaxStepCount=0, No steps permitted",
                  "raise MaxStepCount (default 40000)");
}

// Slurm names the first bad word, then the whole value.
Outcome check_grs123_accounting_storage_enforce(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("AccountingStorageEnforce");
  if (!kv) return Outcome::proceed();
  auto bad = first_unknown_word(kv->value, accounting_storage_enforce_words(), v.profile.version());
  if (!bad) return Outcome::proceed();
  out.report(GRS123, kv->value_span,
             fmt::format("AccountingStorageEnforce has no word {} (Slurm logs AccountingStorageEnforce invalid: {})",
                         *bad, kv->value))
      .slurm(fmt::format("Invalid parameter for AccountingStorageEnforce: {}", *bad))
      .help(iequals(*bad, "limit") ? std::string("write limits, not limit")
                                   : std::string("use associations, limits, qos, safe, wckeys, all, nojobs, nosteps"));
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

namespace {

constexpr std::string_view kTimeFormats = "minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]], INFINITE or UNLIMITED";

}  // namespace

// time_str2secs returns NO_VAL (a huge value can wrap onto it, as in Slurm).
Outcome check_grs123_preempt_exempt_time(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("PreemptExemptTime");
  if (!kv || slurm_time_secs(kv->value) != kSlurmNoVal) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("PreemptExemptTime={} is no time Slurm reads", kv->value),
                  fmt::format("PreemptExemptTime={} invalid", kv->value), fmt::format("write {}", kTimeFormats));
}

// PriorityDecayHalfLife and PriorityMaxAge take any time but a negative one; PriorityCalcPeriod
// needs at least a minute (so not 0, -1 or INFINITE). Without PriorityUsageResetPeriod a zero
// half-life is refused too. Slurm checks them whatever the PriorityType.
Outcome check_grs123_priority_times(const SlurmConfView& v, Findings& out) {
  const KeyValue* decay = v.settings.find("PriorityDecayHalfLife");
  std::int32_t decay_minutes = 7 * 24 * 60;  // DEFAULT_PRIORITY_DECAY, 7 days
  for (std::string_view key : {"PriorityDecayHalfLife", "PriorityCalcPeriod", "PriorityMaxAge"}) {
    const KeyValue* kv = v.settings.find(key);
    if (!kv) continue;
    const std::int32_t minutes = slurm_time_mins(kv->value);
    const bool calc = key == "PriorityCalcPeriod";
    if (kv == decay) decay_minutes = minutes;
    if (calc ? minutes >= 1 : (minutes >= 0 || minutes == kSlurmInfinite)) continue;
    std::string what = minutes == kSlurmNoVal    ? fmt::format("{}={} is no time Slurm reads", key, kv->value)
                       : minutes == kSlurmInfinite ? fmt::format("{}={} cannot be unlimited", key, kv->value)
                       : minutes == 0 ? fmt::format("{}={} is shorter than a minute", key, kv->value)
                                      : fmt::format("{}={} comes out negative in Slurm ({} minutes)", key,
                                                    kv->value, minutes);
    return rejected(out, *kv, std::move(what), fmt::format("Bad value \"{}\" for {}", kv->value, key),
                    calc ? std::string("write a period of a minute or more (default 5)")
                         : fmt::format("write {}", kTimeFormats));
  }
  const KeyValue* reset = v.settings.find("PriorityUsageResetPeriod");
  if (reset) {
    for (std::string_view w : {"none", "now", "daily", "weekly", "monthly", "quarterly", "yearly"})
      if (iequals(reset->value, w)) return Outcome::proceed();
    return rejected(out, *reset, fmt::format("PriorityUsageResetPeriod={} is no reset period", reset->value),
                    fmt::format("Bad value \"{}\" for PriorityUsageResetPeriod", reset->value),
                    "use NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY");
  }
  if (decay && decay_minutes == 0)
    return rejected(out, *decay, "PriorityDecayHalfLife=0 without a PriorityUsageResetPeriod: usage would never decay",
                    "You have to either have PriorityDecayHalfLife != 0 or PriorityUsageResetPeriod set to "
                    "something or the priority plugin will result in rolling over.",
                    "set PriorityUsageResetPeriod (e.g. MONTHLY), or a non-zero PriorityDecayHalfLife");
  return Outcome::proceed();
}

Outcome check_grs123_preempt_mode(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("PreemptMode");
  if (!kv) return Outcome::proceed();
  auto mode = parse_preempt_mode(kv->value);
  if (mode) return Outcome::proceed();
  return rejected(out, *kv,
                  fmt::format("PreemptMode={} is not one mode (OFF, CANCEL, REQUEUE, SUSPEND) with GANG or WITHIN",
                              kv->value),
                  fmt::format("PreemptMode={} invalid", kv->value), "write one mode, optionally with ,GANG or ,WITHIN");
}

// PrologFlags has its own fatal, after the line that names the bad word.
Outcome check_grs123_prolog_flags(const SlurmConfView& v, Findings& out) {
  return check_words(v, out, "PrologFlags", prolog_flag_words(), "PrologFlag", true);
}

Outcome check_grs123_propagate_prio_process(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("PropagatePrioProcess");
  const auto n = kv ? slurm_number(kv->value) : std::nullopt;
  if (!n || *n <= 2) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("PropagatePrioProcess={} is not 0, 1 or 2", *n),
                  fmt::format("Bad PropagatePrioProcess: {}", *n), "use 0, 1 or 2");
}

namespace {

// parse_rlimits: NONE and ALL exactly; otherwise names from ", \t\n"-separated words, upper
// case, each with or without RLIMIT_. Its table loop strips an RLIMIT_ prefix again before
// each name it compares, so "RLIMIT_RLIMIT_FSIZE" is FSIZE but "RLIMIT_RLIMIT_CPU" is bad.
std::optional<std::string> bad_rlimit(std::string_view value) {
  if (value == "NONE" || value == "ALL") return std::nullopt;
  static constexpr std::array<std::string_view, 10> kNames{"CPU",  "FSIZE",  "DATA",   "STACK",   "CORE",
                                                           "RSS",  "NPROC",  "NOFILE", "MEMLOCK", "AS"};
  std::size_t at = 0;
  while (at < value.size()) {
    const std::size_t start = value.find_first_not_of(", \t\n", at);
    if (start == std::string_view::npos) break;
    std::size_t end = value.find_first_of(", \t\n", start);
    if (end == std::string_view::npos) end = value.size();
    std::string_view tok = value.substr(start, end - start);
    bool found = false;
    for (std::string_view name : kNames) {
      if (tok.substr(0, 7) == "RLIMIT_") tok.remove_prefix(7);
      if (tok == name) {
        found = true;
        break;
      }
    }
    if (!found) return std::string(tok);
    at = end;
  }
  return std::nullopt;
}

}  // namespace

// PropagateResourceLimitsExcept, when set, is the only one Slurm reads. Slurm logs "Bad rlimit
// name: X" first; the line that names the key is the one kept.
Outcome check_grs123_propagate_resource_limits(const SlurmConfView& v, Findings& out) {
  std::string_view key = "PropagateResourceLimitsExcept";
  const KeyValue* kv = v.settings.find(key);
  if (!kv) {
    key = "PropagateResourceLimits";
    kv = v.settings.find(key);
  }
  if (!kv) return Outcome::proceed();
  const auto bad = bad_rlimit(kv->value);
  if (!bad) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("{} has no resource limit {}", key, *bad),
                  fmt::format("Bad {}: {}", key, kv->value),
                  "use ALL, NONE, or names among CPU, FSIZE, DATA, STACK, CORE, RSS, NPROC, NOFILE, MEMLOCK, AS "
                  "(upper case, RLIMIT_ optional)");
}

Outcome check_grs123_select_type_parameters(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("SelectTypeParameters");
  if (!kv) return Outcome::proceed();
  const SelectTypeParams p = parse_select_type_parameters(kv->value, v.profile.version());
  if (p.ok()) return Outcome::proceed();
  const bool two = p.first_error.empty() && p.bad == kv->value && list_items(kv->value).size() > 1;
  out.report(GRS123, kv->value_span,
             two ? fmt::format("SelectTypeParameters={} names more than one CR_ resource", kv->value)
                 : fmt::format("SelectTypeParameters has no word {} in Slurm {}", p.bad, v.profile.version().str()))
      .slurm(p.first_error.empty() ? fmt::format("Bad SelectTypeParameter: {}", p.bad) : p.first_error)
      .help("use one of CR_CPU, CR_Core, CR_Socket (each with or without _Memory), or CR_Memory");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

// The harnesses replace these keys, so no conformance case; the check follows log_string2num.
namespace {

Outcome log_levels(const SlurmConfView& v, Findings& out, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    const KeyValue* kv = v.settings.find(key);
    if (!kv || valid_log_level(kv->value)) continue;
    return rejected(out, *kv, fmt::format("{}={} is not a log level", key, kv->value),
                    fmt::format("Invalid {} {}", key, kv->value),
                    "use quiet, fatal, error, info, verbose, debug or debug2..debug5");
  }
  return Outcome::proceed();
}

}  // namespace

// _validate_and_set_defaults reads the log levels apart: SlurmctldPort and
// SlurmctldParameters come between slurmctld's and slurmd's, SlurmSchedLogLevel between
// SlurmdDebug and SlurmdSyslogDebug.
Outcome check_grs123_slurmctld_log_levels(const SlurmConfView& v, Findings& out) {
  return log_levels(v, out, {"SlurmctldDebug", "SlurmctldSyslogDebug"});
}

Outcome check_grs123_slurmd_debug(const SlurmConfView& v, Findings& out) {
  return log_levels(v, out, {"SlurmdDebug"});
}

Outcome check_grs123_slurmd_syslog_debug(const SlurmConfView& v, Findings& out) {
  return log_levels(v, out, {"SlurmdSyslogDebug"});
}

namespace {

std::string task_plugin_param_help(std::string_view value, std::string_view line) {
  if (icontains(line, "mutually exclusive")) return "keep one of SlurmdOffSpec and SlurmdSpecOverride";
  if (icontains(line, "cons/tres")) return "SlurmdSpecOverride needs SelectType=select/cons_tres";
  if (icontains(line, "task/cgroup")) return "add task/cgroup to TaskPlugin (e.g. TaskPlugin=task/cgroup,task/affinity)";
  if (icontains(value, "sched")) return "Sched was removed: delete it (binding is a job option)";
  return "use one of none, sockets, cores, threads, with verbose or autobind=";
}

}  // namespace

Outcome check_grs123_task_plugin_param(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("TaskPluginParam");
  if (!kv) return Outcome::proceed();
  auto setting = [&](std::string_view key) -> std::optional<std::string_view> {
    if (const KeyValue* set = v.settings.find(key)) return std::string_view(set->value);
    return std::nullopt;
  };
  auto line = task_plugin_param_error(kv->value, v.profile.version(), setting("TaskPlugin"), setting("SelectType"));
  if (!line) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("TaskPluginParam={} is rejected: {}", kv->value, *line), *line,
                  task_plugin_param_help(kv->value, *line));
}

}  // namespace greslint::rules
