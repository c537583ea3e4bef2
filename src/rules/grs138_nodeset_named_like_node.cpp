// SPDX-License-Identifier: Apache-2.0
// GRS138 nodeset-named-like-node: a NodeSet named like a node: Slurm 24.11+ refuses the file
// and every daemon exits (docs/rules/GRS138.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS138{
    "GRS138",          "nodeset-named-like-node",
    Severity::error,   Effect::fatal,
    Daemon::slurmctld, "a NodeSet named like a node: Slurm 24.11+ refuses the file and every daemon exits"};

// A partition's Nodes= could not tell the NodeSet from the node, so from 24.11
// _validate_and_set_defaults refuses the pair right after ClusterName (the model finds it,
// Analyzer::nodeset_named_like_node).
Outcome check_grs138(const SlurmConfView& v, Findings& out) {
  const Directive* set = v.nodeset_named_like_node;
  if (!set) return Outcome::proceed();
  const std::string_view name = set->head().value;
  auto b = out.report(
      GRS138, set->head().value_span,
      fmt::format("NodeSet={} has the name of a node; Slurm {} refuses the file", name, v.profile.version().str()));
  b.slurm(fmt::format("NodeSet with name {} overlaps with an existing NodeName", name))
      .help("rename the NodeSet (e.g. " + std::string(name) + "_set) and the partitions' Nodes= that use it");
  if (v.node_line_naming_it) b.related(v.node_line_naming_it->head().value_span, "the node is defined here");
  return Outcome::slurmctld_fatal(std::string(kUnableToProcess));
}

}  // namespace greslint::rules
