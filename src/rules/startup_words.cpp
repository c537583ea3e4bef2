// SPDX-License-Identifier: Apache-2.0
// Word lists read from Slurm's read_config.c and slurm_protocol_defs.c at each release tag
// (docs/startup-checks.md); facts only.
#include "rules/startup_words.hpp"

#include <algorithm>
#include <cstdlib>

#include "util.hpp"

namespace greslint::rules {

namespace {

bool in_release(const Word& w, SlurmVersion v) {
  return v >= w.since && (w.until.key() == 0 || v < w.until);
}

}  // namespace

std::string effective_select_type(const Settings& settings, const VersionProfile& profile) {
  if (const KeyValue* kv = settings.find("SelectType")) return std::string(kv->value);
  return profile.cons_tres_is_default() ? "select/cons_tres" : "select/linear";
}

bool slurmctld_host_well_formed(std::string_view value) {
  const std::size_t open = value.find('(');
  const std::size_t close = value.find(')');
  const bool has_open = open != std::string_view::npos;
  const bool has_close = close != std::string_view::npos;
  if (has_open != has_close) return false;
  if (!has_close) return true;
  return close + 1 == value.size() && close == value.rfind(')');
}

bool has_slurmctld_host(const DirectiveIndex& slurm) {
  const std::vector<const Directive*>& hosts = slurm.records("SlurmctldHost");
  return std::any_of(hosts.begin(), hosts.end(),
                     [](const Directive* d) { return slurmctld_host_well_formed(d->head().value); });
}

bool prolog_flags_contain(std::string_view value, SlurmVersion v) {
  for (std::string_view item : list_items(value))
    if (iequals(item, "Contain") || iequals(item, "X11") || (v >= kSlurm2405 && iequals(item, "RunInJob")))
      return true;
  return false;
}

std::vector<std::string_view> list_items(std::string_view value) {
  std::vector<std::string_view> items;
  for (std::string_view item : split_commas_view(value))
    if (!item.empty()) items.push_back(item);
  return items;
}

bool known_word(std::string_view word, const std::vector<Word>& words, SlurmVersion v) {
  return std::any_of(words.begin(), words.end(),
                     [&](const Word& w) { return in_release(w, v) && iequals(w.text, word); });
}

std::optional<std::string_view> first_unknown_word(std::string_view value, const std::vector<Word>& words,
                                                   SlurmVersion v) {
  for (std::string_view item : list_items(value))
    if (!known_word(item, words, v)) return item;
  return std::nullopt;
}

const std::vector<Word>& accounting_storage_enforce_words() {
  static const std::vector<Word> words{{"1"},    {"associations"}, {"2"},   {"limits"}, {"safe"},
                                       {"wckeys"}, {"qos"},        {"all"}, {"nojobs"}, {"nosteps"}};
  return words;
}

const std::vector<Word>& debug_flag_words() {
  static const std::vector<Word> words{
      {"Accrue"}, {"Agent"}, {"AuditRPCs", kSlurm2405}, {"AuditTLS", kSlurm2505}, {"Backfill"}, {"BackfillMap"},
      {"BurstBuffer"}, {"cgroup"}, {"CPU_Bind"}, {"Data"}, {"DBD_Agent", kSlurm2405}, {"DB_Archive"}, {"DB_Assoc"},
      {"DB_TRES"}, {"DB_Event"}, {"DB_Job"}, {"DB_QOS"}, {"DB_Query"}, {"DB_Reservation"}, {"DB_Resource"},
      {"DB_Step"}, {"DB_Usage"}, {"DB_WCKey"}, {"Dependency"}, {"Elasticsearch"}, {"Energy"},
      {"ExtSensors", kSlurm2205, kSlurm2405}, {"Federation"}, {"FrontEnd", kSlurm2205, kSlurm2505}, {"Gang"},
      {"GLOB_SILENCE", kSlurm2311}, {"Gres"}, {"Hetjob"}, {"Interconnect"}, {"JobAccountGather"}, {"JAG"},
      {"JobComp", kSlurm2302}, {"JobContainer"}, {"License"}, {"Metrics", kSlurm2511}, {"MPI"},
      {"Namespace", kSlurm2511}, {"Network"}, {"Net"}, {"NetworkRaw"}, {"NetRaw"}, {"NO_CONF_HASH"},
      {"NodeFeatures"}, {"Priority"}, {"Profile"}, {"Protocol"}, {"Reservation"}, {"Route"}, {"Sack", kSlurm2311},
      {"Script"}, {"SelectType"}, {"Steps"}, {"Switch"}, {"Task"}, {"thread", kSlurm2605}, {"threads", kSlurm2605},
      {"TLS", kSlurm2405}, {"TraceJobs"}, {"Trigger"}, {"Triggers"}, {"CpuFrequency"}, {"Power"}, {"PowerSave"},
      {"TimeCray", kSlurm2205, kSlurm2405}, {"WorkQueue"}, {"WorkQ"}, {"ConMgr", kSlurm2411}};
  return words;
}

const std::vector<Word>& prolog_flag_words() {
  // X11 needs a build with X11 forwarding; Debian's and SchedMD's default builds have it.
  static const std::vector<Word> words{{"Alloc"}, {"Contain"}, {"RunInJob", kSlurm2405}, {"DeferBatch"},
                                       {"NoHold"}, {"ForceRequeueOnFail", kSlurm2302}, {"Serial"}, {"X11"}};
  return words;
}

const std::vector<Word>& reconfig_flag_words() {
  static const std::vector<Word> words{{"KeepPartInfo"}, {"KeepPartState"}, {"KeepPowerSaveSettings", kSlurm2302},
                                       {"KeepNodeStateFuture", kSlurm2411, kSlurm2505}};
  return words;
}

namespace {

struct SelectWord {
  std::string_view text;
  std::uint16_t bits;
  bool resource;  ///< counts towards "only one CR_ resource word"
  SlurmVersion since = kSlurm2205;
  SlurmVersion until = {};
};

const std::vector<SelectWord>& select_words() {
  static const std::vector<SelectWord> words{
      {"CR_Socket", kSelectSocket, true},
      {"CR_Socket_Memory", kSelectSocket | kSelectMemory, true},
      {"CR_Core", kSelectCore, true},
      {"CR_Core_Memory", kSelectCore | kSelectMemory, true},
      {"CR_Memory", kSelectMemory, true},
      {"CR_CPU", kSelectCpu, true},
      {"CR_CPU_Memory", kSelectCpu | kSelectMemory, true},
      {"other_cons_res", 0x20, false, kSlurm2205, kSlurm2311},
      {"other_cons_tres", 0x800, false, kSlurm2205, kSlurm2405},
      {"CR_ALLOCATE_FULL_SOCKET", 0, false, kSlurm2205, kSlurm2302},
      {"CR_ONE_TASK_PER_CORE", 0x100, false},
      {"CR_NO_DIST_TOPO_BLOCK", 0x800, false, kSlurm2605},
      {"CR_CORE_DEFAULT_DIST_BLOCK", 0x1000, false},
      {"CR_LLN", 0x4000, false},
      {"CR_PACK_NODES", 0x200, false},
      {"LL_SHARED_GRES", 0x400, false, kSlurm2311},
      {"MULTIPLE_SHARING_GRES_PJ", 0x8000, false, kSlurm2311},
      {"ENFORCE_BINDING_GRES", 0x40, false, kSlurm2311},
      {"ONE_TASK_PER_SHARING_GRES", 0x80, false, kSlurm2311},
  };
  return words;
}

}  // namespace

SelectTypeParams parse_select_type_parameters(std::string_view value, SlurmVersion v) {
  SelectTypeParams out;
  int resource_words = 0;
  for (std::string_view item : list_items(value)) {
    if (v >= kSlurm2311 && v < kSlurm2405 && iequals(item, "other_cons_res")) {
      out.first_error = "other_cons_res is no longer a valid configuration. Please use other_cons_tres instead.";
      out.bad = std::string(value);
      return out;
    }
    auto it = std::find_if(select_words().begin(), select_words().end(), [&](const SelectWord& w) {
      return v >= w.since && (w.until.key() == 0 || v < w.until) && iequals(w.text, item);
    });
    if (it == select_words().end()) {
      out.bad = std::string(item);
      return out;
    }
    out.bits |= it->bits;
    if (it->resource) ++resource_words;
    if ((out.bits & kSelectCpu) && (out.bits & 0x100)) {
      out.first_error = "CR_ONE_TASK_PER_CORE is not compatible with CR_CPU*, please change to use CR_CORE* instead.";
      out.bad = std::string(value);
      return out;
    }
  }
  if (resource_words > 1) out.bad = std::string(value);
  return out;
}

std::string select_type_param_string(std::uint16_t bits, SlurmVersion v) {
  std::string s;
  const bool memory = bits & kSelectMemory;
  if ((bits & kSelectCpu) && memory) s = "CR_CPU_MEMORY";
  else if ((bits & kSelectCore) && memory) s = "CR_CORE_MEMORY";
  else if ((bits & kSelectSocket) && memory) s = "CR_SOCKET_MEMORY";
  else if (bits & kSelectCpu) s = "CR_CPU";
  else if (bits & kSelectCore) s = "CR_CORE";
  else if (bits & kSelectSocket) s = "CR_SOCKET";
  else if (memory) s = "CR_MEMORY";
  auto add = [&](std::uint16_t bit, std::string_view name) {
    if (!(bits & bit)) return;
    if (!s.empty()) s += ',';
    s += name;
  };
  if (v < kSlurm2311) {
    add(0x20, "OTHER_CONS_RES");
    add(0x800, "OTHER_CONS_TRES");
    add(0x100, "CR_ONE_TASK_PER_CORE");
    add(0x1000, "CR_CORE_DEFAULT_DIST_BLOCK");
    add(0x4000, "CR_LLN");
    add(0x200, "CR_PACK_NODES");
  } else {
    if (v < kSlurm2405) add(0x800, "OTHER_CONS_TRES");
    add(0x100, "CR_ONE_TASK_PER_CORE");
    if (v >= kSlurm2605) add(0x800, "CR_NO_DIST_TOPO_BLOCK");
    add(0x1000, "CR_CORE_DEFAULT_DIST_BLOCK");
    add(0x4000, "CR_LLN");
    add(0x200, "CR_PACK_NODES");
    add(0x400, "LL_SHARED_GRES");
    add(0x8000, "MULTIPLE_SHARING_GRES_PJ");
    add(0x40, "ENFORCE_BINDING_GRES");
    add(0x80, "ONE_TASK_PER_SHARING_GRES");
  }
  return s.empty() ? "NONE" : s;
}

namespace {

/// TaskPlugin as read_config.c keeps it from 24.11: unset, or naming "none" anywhere (any
/// case), is no plugin; otherwise every item gets one "task/" (_sort_task_plugin; its order
/// does not matter to a substring test).
std::string normalized_task_plugin(std::optional<std::string_view> task_plugin) {
  if (!task_plugin || icontains(*task_plugin, "none")) return {};
  std::string out;
  for (std::string_view item : split_commas_view(*task_plugin)) {
    if (item.empty()) continue;
    if (item.substr(0, 5) == "task/") item.remove_prefix(5);
    out += (out.empty() ? "task/" : ",task/") + std::string(item);
  }
  return out;
}

}  // namespace

std::optional<std::string> task_plugin_param_error(std::string_view value, SlurmVersion v,
                                                   std::optional<std::string_view> task_plugin,
                                                   std::optional<std::string_view> select_type) {
  bool unit = false, autobind = false, off_spec = false, spec_override = false;
  const bool cgroup = normalized_task_plugin(task_plugin).find("task/cgroup") != std::string::npos;
  const std::string_view select = select_type.value_or("select/cons_tres");  // DEFAULT_SELECT_TYPE
  for (std::string_view item : list_items(value)) {
    const bool is_unit = iequals(item, "none") || iequals(item, "sockets") || iequals(item, "cores") ||
                         iequals(item, "threads");
    if (is_unit) {
      if (unit) return "Bad TaskPluginParam: " + std::string(item);
      unit = true;
    } else if (iequals(item, "verbose")) {
      continue;
    } else if (iequals(item, "SlurmdOffSpec")) {
      off_spec = true;
    } else if (v >= kSlurm2411 && iequals(item, "OOMKillStep")) {
      if (!cgroup) return std::string("TaskPluginParam=OOMKillStep must be used with task/cgroup");
    } else if (v >= kSlurm2505 && iequals(item, "SlurmdSpecOverride")) {
      if (!cgroup) return std::string("TaskPluginParam=SlurmdSpecOverride must be used with task/cgroup");
      if (select.find("cons_tres") == std::string_view::npos)
        return std::string("TaskPluginParam=SlurmdSpecOverride must be used with cons/tres");
      spec_override = true;
    } else if (item.size() >= 9 && iequals(item.substr(0, 9), "autobind=")) {
      if (autobind) return std::string("Bad TaskPluginParam: autobind already set");
      std::string_view how = item.substr(9);
      if (!(iequals(how, "none") || iequals(how, "threads") || iequals(how, "cores") || iequals(how, "sockets")))
        return "Bad TaskPluginParam autobind value: " + std::string(how);
      autobind = true;
    } else {
      return "Bad TaskPluginParam: " + std::string(item);
    }
  }
  if (off_spec && spec_override)
    return std::string("TaskPluginParams SlurmdOffSpec and SlurmdSpecOverride are mutually exclusive");
  return std::nullopt;
}

std::optional<PreemptMode> parse_preempt_mode(std::string_view value) {
  PreemptMode m;
  int modes = 0;
  for (std::string_view item : list_items(value)) {
    if (iequals(item, "gang")) m.gang = true;
    else if (iequals(item, "within")) m.within = true;
    else if (iequals(item, "off") || iequals(item, "cluster")) ++modes;
    else if (iequals(item, "cancel")) { m.mode = PreemptMode::Mode::cancel; ++modes; }
    else if (iequals(item, "requeue")) { m.mode = PreemptMode::Mode::requeue; ++modes; }
    else if (iequals(item, "on") || iequals(item, "suspend")) { m.mode = PreemptMode::Mode::suspend; ++modes; }
    else return std::nullopt;
  }
  if (modes > 1 || (m.gang && m.within)) return std::nullopt;
  return m;
}

bool valid_enforce_part_limits(std::string_view value) {
  for (std::string_view w : {"yes", "up", "true", "1", "any", "no", "down", "false", "0", "all"})
    if (iequals(value, w)) return true;
  return false;
}

std::optional<long long> slurm_number(std::string_view value) {
  const std::string text(value);
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 0);
  if (end == text.c_str()) return std::nullopt;
  return n;
}

std::optional<std::int32_t> scheduler_parameter_atoi(std::string_view value, std::string_view option) {
  for (std::size_t i = 0; i + option.size() <= value.size(); ++i) {
    if (!iequals(value.substr(i, option.size()), option)) continue;
    const std::string rest(value.substr(i + option.size()));
    const long long n = std::strtoll(rest.c_str(), nullptr, 10);
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(n)));
  }
  return std::nullopt;
}

bool valid_log_level(std::string_view value) {
  if (!value.empty() && is_digit(value.front())) return true;
  for (std::string_view w : {"quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4",
                             "debug5"})
    if (iequals(value, w)) return true;
  return false;
}

}  // namespace greslint::rules
