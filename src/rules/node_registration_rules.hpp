// SPDX-License-Identifier: Apache-2.0
// Registration of a node as a whole: what slurmctld's validate_node_specs does with the
// node's state once its GRES are validated (kRegistrationNodeStage). Kept apart from
// views.hpp and rules.hpp, which every rule includes: only the registration code needs these.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/model_types.hpp"
#include "greslint/version.hpp"
#include "rules/check.hpp"

namespace greslint::rules {

/// What a NodeName line's State= leaves its nodes in when slurmctld starts
/// (node_conf.c:state_str2int), as far as their registration cares: the DOWN base state, or
/// the DRAIN or FAIL flag; none for every other state (UNKNOWN, IDLE, CLOUD, FUTURE, ...).
enum class HeldState : std::uint8_t { none, down, drain, fail };

/// A node class as slurmctld's validate_node_specs takes its registration, after the
/// registration checks of its GRES names.
struct NodeRegistrationView {
  const VersionProfile& profile;
  const NodeLine& node;          ///< its State= (node.state, after DEFAULT inheritance)
  const std::string& rep;        ///< the node Slurm's log lines name
  HeldState held;                ///< the state State= (or DownNodes=) gives the node before it registers
  std::string_view state;        ///< that State= value as written
  Span state_at;                 ///< where; invalid when no State= or DownNodes= line sets one
  std::string_view reason;       ///< the reason scontrol shows for it: Reason= of that line
  bool down_nodes;               ///< the state comes from a DownNodes= line
  const KeyValue* return_to_service;  ///< ReturnToService=; null: the default, 0
  std::uint16_t ret2service;          ///< ReturnToService as slurmctld reads it
  bool invalid_reg;  ///< the GRES checks already refused the registration (INVALID_REG)
  std::string_view drain_reason;  ///< the reason they gave (reason_down); empty when none
  /// What slurmd reported for gpu, as slurmctld validated it; null when the node has no gpu
  /// in its GRES list (neither Gres= nor a reported record).
  const std::vector<GresRecord>* gpu_records;
  bool gpus_detected;  ///< AutoDetect finds the GPUs, and their cores, on the node itself
  /// slurm.conf's Gres= gives the node GPUs and a shared GRES (mps, shard): slurmctld then
  /// keeps a topology slot per GPU record even without Cores= or Type= (gres.c, 23.11.5+).
  bool gpus_shared;
};


extern const RuleInfo GRS162;  // configured-node-state-kept
Outcome check_grs162(const NodeRegistrationView&, Findings&);
extern const RuleInfo GRS317;  // restricted-cores-per-gpu
Outcome check_grs317(const NodeRegistrationView&, Findings&);

}  // namespace greslint::rules
