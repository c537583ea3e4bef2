// SPDX-License-Identifier: Apache-2.0
// What `greslint why`'s two halves share (internal to src/commands/): the node explanations
// in why_explain.cpp and the drift checks in why_drift.cpp.
#pragma once

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "commands/why_explain.hpp"

namespace greslint::why::detail {

inline constexpr const char* kReconfigure = "scontrol reconfigure";

inline std::string fold_names(const std::vector<std::string>& names) { return fold_hostnames(names); }
inline std::string resume(const std::string& node) {
  return fmt::format("scontrol update NodeName={} State=RESUME", node);
}
inline std::string restart_slurmd(const std::string& node) {
  return fmt::format("systemctl restart slurmd   # on {}", node);
}
inline std::string node_check(const std::string& node) {
  return fmt::format("greslint node-check --node {}   # on {}", node, node);
}

Place place_of(const SourceManager& sources, Span span);

/// What slurm.conf says, read again for the settings and NodeName lines the model does not
/// keep (its own findings are the analysis's, so they are dropped here).
struct SlurmConfFacts {
  SourceManager sources;
  std::map<std::string, std::pair<std::string, Span>> settings;  ///< lower-cased key -> value, where
  std::unordered_map<std::string, Span> node_line;               ///< node -> its NodeName= value
};

void read_slurm_conf(const Analysis& a, SlurmConfFacts& facts);

/// Findings by node, parsed once: which nodes each finding names.
class FindingIndex {
 public:
  explicit FindingIndex(const Analysis& a);
  /// The drain (or slurmd fatal) findings of `node`, in report order.
  std::vector<const Diagnostic*> of(const std::string& node, Effect effect) const {
    std::vector<const Diagnostic*> out;
    auto it = by_node_.find(node);
    if (it == by_node_.end()) return out;
    for (const Diagnostic* d : it->second)
      if (d->effect == effect) out.push_back(d);
    return out;
  }

 private:
  std::unordered_map<std::string, std::vector<const Diagnostic*>> by_node_;
};

/// The analysis with its nodes indexed by name.
struct Model {
  const Analysis& a;
  std::unordered_map<std::string, std::uint32_t> index;  ///< node name -> Cluster index
  FindingIndex findings;

  explicit Model(const Analysis& analysis) : a(analysis), findings(analysis) {
    for (std::uint32_t i = 0; i < a.cluster.node_names.size(); ++i) index.emplace(a.cluster.node_names[i], i);
  }
  const NodeClass* class_of(const std::string& node) const {
    auto it = index.find(node);
    return it == index.end() ? nullptr : &a.cluster.classes[a.cluster.class_of[it->second]];
  }
};

// ---- drift (why_drift.cpp) ----------------------------------------------------------------

/// The files would make slurmctld fatal, yet it runs: it read them before the edit.
void controller_drift(const Model& m, std::vector<Drift>& out);
/// A setting that matters to GPU scheduling differs between the files and the controller.
void settings_drift(const ControllerConfig& config, const SlurmConfFacts& facts, std::vector<Drift>& out);
/// A file changed after slurmctld started.
void file_time_drift(const ControllerView& view, const Analysis& a, const std::optional<Hostlist>& only,
                     std::vector<Drift>& out);
/// Nodes whose GRES the controller shows differently from what the files give them.
void node_drift(const ControllerView& view, const Model& m, const SlurmConfFacts& facts,
                const std::vector<NodeWhy>& explained, const std::optional<Hostlist>& only, std::vector<Drift>& out);

}  // namespace greslint::why::detail
