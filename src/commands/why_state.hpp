// SPDX-License-Identifier: Apache-2.0
// The running cluster as its controller shows it: the nodes (`scontrol show node --json`,
// or its one-line text where the release has no JSON), their drain reasons (`sinfo -R`)
// and slurmctld's settings (`scontrol show config`), read live or from captured files.
#pragma once

#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace greslint::why {

/// One node as the controller holds it.
struct ControllerNode {
  std::string name;
  /// The base state, then its flags, upper case as scontrol prints them (IDLE, DRAIN,
  /// INVALID_REG); sinfo's short names are mapped onto these.
  std::vector<std::string> state;
  bool not_responding = false;
  std::string reason;
  bool reason_truncated = false;  ///< from the default `sinfo -R`, which cuts it at 20 columns
  std::string reason_user;        ///< who set the reason ("root", "slurm")
  std::string reason_time;
  std::string gres;  ///< Gres= as the controller has it (the node's report once registered)
  std::optional<std::uint32_t> cpus, sockets, cores_per_socket, threads_per_core, boards;
  bool registered = false;  ///< slurmd has registered since slurmctld started
  std::optional<std::time_t> slurmd_start_time;
  std::string version;  ///< the node's slurmd release, when registered

  bool has_state(std::string_view s) const;
  std::string state_text() const;  ///< "IDLE+DRAIN"
  /// DRAIN, INVALID(_REG), DOWN or FAIL: the states `why` explains.
  bool unavailable() const;
};

/// `scontrol show config`: its main block of settings, by key as printed.
struct ControllerConfig {
  std::map<std::string, std::string> settings;  ///< key lower-cased -> value as printed
  std::map<std::string, std::string> names;     ///< key lower-cased -> key as printed
  std::optional<std::time_t> as_of;      ///< "Configuration data as of ...": when it was asked
  std::optional<std::time_t> boot_time;  ///< BOOT_TIME: slurmctld started (local time)
  const std::string* find(std::string_view key) const;
};

struct ControllerView {
  std::vector<ControllerNode> nodes;
  std::optional<ControllerConfig> config;
  std::vector<std::string> sources;  ///< what was read, for the report
  std::string origin;                ///< "asked now", or "captured in PATH"
  bool live = false;                 ///< asked now (file times can be compared)
  bool have_node_records = false;    ///< from scontrol (else only sinfo's drained nodes)

  ControllerNode* find(std::string_view name);
  /// The release the controller runs ("24.11.5"), from its config or a node; empty if unknown.
  std::string slurm_version() const;
};

/// What a captured file holds, told by its content.
enum class StateKind { node_json, node_text, sinfo, config, unknown };
StateKind detect_state_kind(std::string_view text);

/// Parsers of each kind. The JSON one is for the layouts of 22.05's slurmrestd (state as a
/// string plus state_flags) and 23.02+'s `scontrol show node --json` (state a list, numbers
/// wrapped in {set, infinite, number}); fields they do not know are ignored. False, with
/// the reason in `error`, on text that is not such JSON.
bool parse_node_json(std::string_view text, std::vector<ControllerNode>& nodes, std::string& error);
/// `scontrol -o show node`, or the multi-line `scontrol show node`.
std::vector<ControllerNode> parse_node_text(std::string_view text);
/// `sinfo -R`'s default table, or `sinfo -R -N -h -o '%N|%T|%u|%H|%E'`: reasons merged into
/// `view` (a node scontrol did not list is added with sinfo's state).
void merge_sinfo_reasons(std::string_view text, ControllerView& view);
ControllerConfig parse_show_config(std::string_view text);

/// Reads captured output: a folder of files (the names `slurm_live.py --capture` writes, or
/// any others, told apart by content) or one file. False, with a message, when nothing in
/// it is controller output.
bool read_state(const std::string& path, ControllerView& view, std::ostream& err);
/// Asks the controller now: scontrol (JSON, else one-line text), sinfo -R, scontrol show
/// config, with the environment as it is (SLURM_CONF is theirs to honour). False, with a
/// message, when scontrol cannot reach a controller.
bool read_live(ControllerView& view, std::ostream& err);

}  // namespace greslint::why
