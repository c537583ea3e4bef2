// SPDX-License-Identifier: Apache-2.0
// The word lists and parsers Slurm's start-up checks apply to slurm.conf values, per
// release (docs/startup-checks.md says where each comes from). Slurm splits these lists
// with strtok(","), so empty items are skipped, and compares words case-insensitively.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/model_types.hpp"
#include "greslint/version.hpp"

namespace greslint::rules {

/// What every daemon logs last when slurm.conf's parse or a value check failed.
inline constexpr std::string_view kUnableToProcess = "Unable to process configuration file";

/// The SelectType slurmctld loads: SelectType= as written, or the release's default.
std::string effective_select_type(const Settings& settings, const VersionProfile& profile);

/// SlurmctldHost's value as read_config.c:_parse_slurmctld_host takes it: HOST or HOST(ADDR),
/// with one '(' and one ')', the ')' last. A value it refuses is a parse error (GRS137).
bool slurmctld_host_well_formed(std::string_view value);

/// Whether slurm.conf has a SlurmctldHost record Slurm took (a well-formed one): then
/// _load_slurmctld_host reads those, and the legacy ControlMachine keys are ignored.
bool has_slurmctld_host(const DirectiveIndex& slurm);

/// PrologFlags as prolog_str2flags() reads it: whether a word sets the Contain flag (Contain,
/// X11, and from 24.05 RunInJob).
bool prolog_flags_contain(std::string_view value, SlurmVersion v);

/// A word Slurm accepts in a list value, from `since` until before `until` ({0,0}: still).
struct Word {
  std::string_view text;
  SlurmVersion since = kSlurm2205;
  SlurmVersion until = {};
};

/// The items of a comma list as strtok gives them (no empty items).
std::vector<std::string_view> list_items(std::string_view value);

/// The first item that is not one of `words` in release `v`.
std::optional<std::string_view> first_unknown_word(std::string_view value, const std::vector<Word>& words,
                                                   SlurmVersion v);

/// Whether `word` is one of `words` in release `v` (case-insensitive).
bool known_word(std::string_view word, const std::vector<Word>& words, SlurmVersion v);

const std::vector<Word>& accounting_storage_enforce_words();
const std::vector<Word>& debug_flag_words();
const std::vector<Word>& prolog_flag_words();
const std::vector<Word>& reconfig_flag_words();

/// SelectTypeParameters as read_config.c parses it.
struct SelectTypeParams {
  std::uint16_t bits = 0;
  /// The item Slurm names in "Bad SelectTypeParameter: %s" (the whole value when two
  /// resource words are given); empty when the value parses.
  std::string bad;
  /// An extra line Slurm logs before the error (CR_ONE_TASK_PER_CORE with CR_CPU*, 23.11's
  /// other_cons_res), else empty.
  std::string first_error;
  bool ok() const { return bad.empty() && first_error.empty(); }
};
SelectTypeParams parse_select_type_parameters(std::string_view value, SlurmVersion v);

/// The CR_ resource bits of SelectTypeParameters (the same in every release).
inline constexpr std::uint16_t kSelectCpu = 0x1, kSelectSocket = 0x2, kSelectCore = 0x4, kSelectMemory = 0x10;

/// select_type_param_string(): how Slurm prints the bits in its messages.
std::string select_type_param_string(std::uint16_t bits, SlurmVersion v);

/// TaskPluginParam as read_config.c checks it: the line Slurm logs for the first bad item.
/// `task_plugin` and `select_type` are slurm.conf's TaskPlugin and SelectType (nullopt when
/// not set): from 24.11 OOMKillStep needs task/cgroup, from 25.05 SlurmdSpecOverride needs
/// task/cgroup and cons_tres, and excludes SlurmdOffSpec.
std::optional<std::string> task_plugin_param_error(std::string_view value, SlurmVersion v,
                                                   std::optional<std::string_view> task_plugin,
                                                   std::optional<std::string_view> select_type);

/// PreemptMode as preempt_mode_num() reads it; nullopt when Slurm rejects it.
struct PreemptMode {
  bool gang = false, within = false;
  enum class Mode : std::uint8_t { off, suspend, requeue, cancel } mode = Mode::off;
};
std::optional<PreemptMode> parse_preempt_mode(std::string_view value);

/// EnforcePartLimits as parse_part_enforce_type() reads it.
bool valid_enforce_part_limits(std::string_view value);

/// A numeric value as Slurm's s_p conversions read it (strtoll, base 0); nullopt if none.
std::optional<long long> slurm_number(std::string_view value);

/// A SchedulerParameters option's number as _validate_and_set_defaults reads it: the first
/// "option" (with its '=') anywhere in the value, in any case, then atoi() as glibc has it
/// (strtol, then the low 32 bits). nullopt without the option.
std::optional<std::int32_t> scheduler_parameter_atoi(std::string_view value, std::string_view option);

/// A log level as log_string2num() reads it (a name or a number).
bool valid_log_level(std::string_view value);

}  // namespace greslint::rules
