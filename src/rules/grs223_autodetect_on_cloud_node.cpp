// SPDX-License-Identifier: Apache-2.0
// GRS223 autodetect-on-cloud-node: AutoDetect on CLOUD nodes: slurmctld exits up to 23.02 and logs an error per node from 23.11.
// Checked in src/model/replay_merge.cpp (stages D, E) until it moves to a stage list; docs/rules/GRS223.md.
#include "rules.hpp"

namespace greslint::rules {
const RuleInfo GRS223{"GRS223", "autodetect-on-cloud-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AutoDetect on CLOUD nodes: slurmctld exits up to 23.02 and logs an error per node from 23.11"};
}  // namespace greslint::rules
