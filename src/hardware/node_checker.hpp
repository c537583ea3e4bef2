// SPDX-License-Identifier: Apache-2.0
// The GRS5xx checks of one node: its slurm.conf topology and gres.conf lines (from the
// model) against what the kernel reports. node_checker.cpp has the checks of a node
// without AutoDetect and those every node gets; autodetect_check.cpp replays AutoDetect.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gres_parse.hpp"
#include "hardware/checked_node.hpp"

namespace greslint::node_check {

struct ConfiguredGpu;
struct AutodetectMerge;

class NodeChecker {
 public:
  NodeChecker(const ConfigModel& config, const VersionProfile& profile, const NodeLine& node_line,
              const std::string& node, const NodeClass& cls, std::vector<LineFacts> lines, const HardwareInventory& hw,
              Reporter& out);

  void run();

 private:
  DiagnosticBuilder report(const RuleInfo& rule, Span span, std::string message);
  bool in_grestypes(const std::string& name) const;
  std::vector<const LineFacts*> gpu_lines() const;
  /// Which vendor's GPUs AutoDetect finds here, or nullopt when it is off or unknown.
  std::optional<GpuVendor> autodetect_vendor() const;
  Span autodetect_span() const;
  /// Where GRS506 points: the first topology key that differs, else the node's names.
  Span node_topology_span(std::uint32_t hs, std::uint32_t hc, std::uint32_t ht, std::uint32_t hcpu) const;
  /// Where a finding about the node's GPUs as a whole points: its first gpu line, else Gres=.
  Span gpu_anchor() const;
  std::string gres_spec(std::uint64_t count) const;
  /// Units whose device files a line names.
  std::vector<const Unit*> units_of_line(const LineFacts& l) const;

  // node_checker.cpp
  void check_topology();
  void check_missing_files();
  void check_count(std::uint64_t reported, const std::string& why, std::string help = {});
  void check_explicit();
  void check_line_type(const LineFacts& l, const std::vector<const Unit*>& us, Severity sev, Effect eff,
                       const std::string& consequence);
  void check_line_cores(const LineFacts& l, const std::vector<const Unit*>& us, bool exact);
  bool check_cpu_ids(const LineFacts& l, const std::optional<Cores>& conf, const Cores& all_local,
                     const Cores& all_expected, const std::string& right);
  void invalid_cores(DiagnosticBuilder& b, const LineFacts& l);

  // autodetect_check.cpp
  void check_autodetect();
  std::vector<ConfiguredGpu> configured_gpus() const;
  void check_unmatched_types(const AutodetectMerge& m);
  void check_ignored_gpus(const AutodetectMerge& m);
  void check_detected_affinity(const std::vector<const Unit*>& used);
  /// The gres.conf line an effective record came from (by its files, else its type).
  const LineFacts* find_line(const EffectiveGres& g, const std::vector<std::string>& paths) const;

  const ConfigModel& config_;
  const VersionProfile& profile_;
  const NodeLine& node_line_;
  const std::string& node_;
  const NodeClass& cls_;
  const HardwareInventory& hw_;
  Reporter& out_;
  const CpuTopology& topo_;
  std::vector<LineFacts> lines_;
  std::vector<Unit> units_;
  GresCount configured_;
  std::optional<GpuVendor> detect_vendor_;
  bool config_overrides_ = false;  ///< SlurmdParameters=config_overrides
};

}  // namespace greslint::node_check
