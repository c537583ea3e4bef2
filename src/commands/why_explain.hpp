// SPDX-License-Identifier: Apache-2.0
// `greslint why`: the controller's view (why_state.hpp) held against what greslint predicts
// from the files: why each unavailable node is so, and where the running cluster drifted
// from the files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/why_state.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/lint.hpp"

namespace greslint::why {

/// A place in the files, as the report names it.
struct Place {
  std::string file;
  std::uint32_t line = 0, column = 0;
  bool valid() const { return line != 0; }
  std::string text() const;  ///< "gres.conf:3:12"
};

/// What a reason turned out to be.
enum class Cause : std::uint8_t {
  explained,       ///< a finding predicts this reason: the line to change is known
  predicted_other, ///< the files predict a different drain for this node
  hardware,        ///< a Slurm GRES reason the files do not explain: the node's hardware
  topology,        ///< Slurm's CPU/memory check: the node's hardware against slurm.conf
  not_gres,        ///< Slurm's own reason, not about GRES (Not responding, Kill task failed)
  admin,           ///< not a text Slurm writes: set with scontrol update
  held_by_files,   ///< the state and reason slurm.conf itself gives the node (State=, DownNodes=)
  not_registered,  ///< no reason; slurmd has not registered
  not_in_files,    ///< the controller knows the node, the files do not
};
std::string_view to_string(Cause c) noexcept;
/// Whether the files account for a node's state (the summary's count): a finding predicts
/// its reason, or slurm.conf itself holds the node.
constexpr bool explained_by_files(Cause c) noexcept { return c == Cause::explained || c == Cause::held_by_files; }

struct NodeWhy {
  std::string node;
  std::string state;
  std::string reason;
  std::string reason_user, reason_time;
  Cause cause = Cause::explained;
  std::string message;  ///< one or two sentences for the admin
  const Diagnostic* finding = nullptr;
  Place place;                  ///< the finding's line
  std::vector<Place> related;   ///< and the lines it points at
  std::vector<std::string> related_messages;
  std::string predicted_verdict, predicted_reason;  ///< the model's, when the files name the node
  std::string fix;                                  ///< the finding's help
  std::vector<std::string> commands;                ///< what to run, in order
};

enum class DriftKind : std::uint8_t {
  setting,             ///< slurmctld runs another value than slurm.conf gives
  files_newer,         ///< a file changed after slurmctld last read its configuration
  node_topology,       ///< CPUs/Sockets/Cores/Threads differ between the controller and the files
  node_gres,           ///< Gres differs
  node_not_in_controller,
  node_not_in_files,
  slurmd_older,        ///< gres.conf changed after the node's slurmd started
  controller_would_fail,  ///< the files now make slurmctld fatal: it runs an older configuration
};
std::string_view to_string(DriftKind k) noexcept;

struct Drift {
  DriftKind kind;
  std::string subject;  ///< the setting or node(s)
  std::string files_value, controller_value;
  Place place;
  std::string message;
  std::vector<std::string> commands;
};

struct WhyReport {
  std::vector<NodeWhy> nodes;  ///< the unavailable nodes, in the controller's order
  std::vector<Drift> drift;
  std::size_t nodes_seen = 0;  ///< nodes the controller listed (after the NODES filter)
  std::string slurm_version;   ///< the profile greslint modelled
  std::string controller_version;
  std::vector<std::string> sources;  ///< what was read of the controller
  std::string origin;                ///< "asked now", or "captured in PATH"
  std::vector<std::string> inputs;   ///< the files
  bool drift_checked = true;         ///< false with --no-drift
  bool ok() const { return nodes.empty() && drift.empty(); }
};

/// Holds `view` against `analysis`. `only` restricts both lists to those nodes (settings
/// drift stays: it concerns every node).
WhyReport explain(const ControllerView& view, const Analysis& analysis, const std::optional<Hostlist>& only);

}  // namespace greslint::why
