// SPDX-License-Identifier: Apache-2.0
// GRS123 invalid-startup-value: a value read_config.c rejects once slurm.conf is parsed: it
// logs what is wrong, and the daemons exit with "Unable to process configuration file"
// (PrologFlags: with its own fatal line) (docs/rules/GRS123.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
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
Outcome check_grs123_log_levels(const SlurmConfView& v, Findings& out) {
  for (std::string_view key : {"SlurmctldDebug", "SlurmctldSyslogDebug", "SlurmdDebug", "SlurmdSyslogDebug"}) {
    const KeyValue* kv = v.settings.find(key);
    if (!kv || valid_log_level(kv->value)) continue;
    return rejected(out, *kv, fmt::format("{}={} is not a log level", key, kv->value),
                    fmt::format("Invalid {} {}", key, kv->value),
                    "use quiet, fatal, error, info, verbose, debug or debug2..debug5");
  }
  return Outcome::proceed();
}

Outcome check_grs123_task_plugin_param(const SlurmConfView& v, Findings& out) {
  const KeyValue* kv = v.settings.find("TaskPluginParam");
  if (!kv) return Outcome::proceed();
  auto line = task_plugin_param_error(kv->value, v.profile.version());
  if (!line) return Outcome::proceed();
  return rejected(out, *kv, fmt::format("TaskPluginParam={} is rejected: {}", kv->value, *line), *line,
                  icontains(kv->value, "sched") ? "Sched was removed: delete it (binding is a job option)"
                                                : "use one of none, sockets, cores, threads, with verbose or autobind=");
}

}  // namespace greslint::rules
