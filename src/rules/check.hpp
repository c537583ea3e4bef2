// SPDX-License-Identifier: Apache-2.0
// The interface between the replay of Slurm (src/model/) and the rules (src/rules/).
//
// The model replays what Slurm does with the configuration, step by step, in Slurm's
// order. At each step it builds a view of the data Slurm holds there and runs the checks
// the registry lists for that step (registry.cpp), in order. A check reports findings and
// returns what Slurm does next; the model applies that outcome the same way for every
// check (see Outcome). A check keeps no state of its own: what it needs is in its view.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "greslint/diagnostic.hpp"
#include "model/findings.hpp"

namespace greslint::rules {

using model::Findings;
using model::kNode;
using model::kNodes;

/// What Slurm does after a check, in rising order of consequence.
class Outcome {
 public:
  enum class Kind : std::uint8_t {
    proceed,      ///< nothing: Slurm goes on as if the check had not run
    degraded,     ///< Slurm logs it and goes on; the nodes work with less
    skip_record,  ///< Slurm logs it and ignores the rest of this record (degraded)
    drain,        ///< slurmctld drains the nodes; `reason` is what scontrol shows
    slurmd_fatal,     ///< slurmd exits; `reason` is the line it logs last
    slurmctld_fatal,  ///< slurmctld exits (or refuses the configuration) with `reason`
  };

  static Outcome proceed() { return Outcome(Kind::proceed, {}); }
  static Outcome degraded() { return Outcome(Kind::degraded, {}); }
  static Outcome skip_record() { return Outcome(Kind::skip_record, {}); }
  static Outcome drain(std::string reason) { return Outcome(Kind::drain, std::move(reason)); }
  static Outcome slurmd_fatal(std::string line) { return Outcome(Kind::slurmd_fatal, std::move(line)); }
  static Outcome slurmctld_fatal(std::string line) { return Outcome(Kind::slurmctld_fatal, std::move(line)); }
  /// slurmctld exits with `line`, which takes the place of the generic "Unable to process
  /// configuration file" of a slurm.conf parse error reported before it. Only for checks
  /// slurm_conf_init runs while it reads the file (the record handlers, and
  /// _validate_and_set_defaults on whatever parsed): it gives up with the generic fatal only
  /// after them. Checks of later steps (gres_init, the node table) never run after a parse
  /// error (live cases s79-s82), and any earlier fatal stays, because fatal() exits at once
  /// (s23, s38, s39: cgroup.conf before NodeAddr, the first of two bad hostlists).
  static Outcome slurmctld_fatal_replacing(std::string line) {
    Outcome o(Kind::slurmctld_fatal, std::move(line));
    o.replaces_ = true;
    return o;
  }

  /// slurmctld drains the node with `reason`, which takes the place of an earlier drain reason
  /// (it was built from it: node_mgr.c appends to reason_down).
  static Outcome drain_replacing(std::string reason) {
    Outcome o(Kind::drain, std::move(reason));
    o.replaces_ = true;
    return o;
  }
  /// The registration is accepted after all: an earlier drain of this registration is lost
  /// (24.05-25.05.2's validate_node_specs, which overwrites its error code; GRS317), and the
  /// node works with less than it was refused for.
  static Outcome lifts_drain() {
    Outcome o(Kind::degraded, {});
    o.lifts_drain_ = true;
    return o;
  }

  /// Slurm also stops checking this record (or GRES name) here: the rest of the stage list
  /// does not run for it.
  Outcome&& and_skip_rest() && {
    skip_rest_ = true;
    return std::move(*this);
  }

  Kind kind() const { return kind_; }
  bool skips_rest() const { return skip_rest_ || kind_ == Kind::skip_record; }
  const std::string& reason() const { return reason_; }
  bool replaces_earlier_reason() const { return replaces_; }
  bool lifts_earlier_drain() const { return lifts_drain_; }
  bool is_fatal() const { return kind_ == Kind::slurmd_fatal || kind_ == Kind::slurmctld_fatal; }

 private:
  Outcome(Kind k, std::string reason) : kind_(k), reason_(std::move(reason)) {}
  Kind kind_;
  bool replaces_ = false;
  bool lifts_drain_ = false;
  bool skip_rest_ = false;
  std::string reason_;
};

/// One entry of a stage list: a rule, its check, and the Slurm function whose behaviour
/// the check follows ("gres.c:_parse_gres_config"), so a reader can find the step in
/// Slurm's source and see why the check sits where it does.
template <class View>
struct Check {
  const RuleInfo* rule;
  Outcome (*run)(const View&, Findings&);
  std::string_view follows;
};

}  // namespace greslint::rules
