// SPDX-License-Identifier: Apache-2.0
// node-check --suggest: the slurm.conf NodeName line and the gres.conf lines that describe
// a node's hardware as Slurm sees it.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include "hardware/checked_node.hpp"
#include "gres_parse.hpp"
#include "emit/emit_detail.hpp"
#include "hardware/suggest.hpp"
#include "util.hpp"

namespace greslint::node_check {
namespace {

/// The Type= of each GPU model: a short one, unless two models would share it; empty for
/// every model when the lines stay untyped.
std::map<std::string, std::string> types_of_models(const HardwareInventory& hw) {
  std::map<std::string, std::string> type_of_model;
  std::map<std::string, std::set<std::string>> models_of_type;
  for (const Gpu& g : hw.gpus) {
    type_of_model[g.model] = g.model.empty() ? std::string() : short_gpu_type(g.model);
    models_of_type[type_of_model[g.model]].insert(g.model);
  }
  for (auto& [model, type] : type_of_model)
    if (models_of_type[type].size() > 1 && !model.empty()) type = autodetect_type_name(model);
  return type_of_model;
}

/// " Gres=gpu:h100:4,..." for the units, or "" without GPUs.
std::string gres_for(const std::vector<Unit>& units, bool untyped, std::map<std::string, std::string>& type_of_model) {
  if (units.empty()) return "";
  if (untyped) return fmt::format(" Gres=gpu:{}", units.size());
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const Unit& u : units) {
    const std::string& ty = type_of_model[u.gpu->model];
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == ty; });
    if (it == counts.end())
      counts.emplace_back(ty, 1);
    else
      ++it->second;
  }
  std::vector<std::string> parts;
  for (const auto& [ty, n] : counts) parts.push_back(fmt::format("gpu:{}:{}", ty, n));
  return " Gres=" + fmt::format("{}", fmt::join(parts, ","));
}

/// The gres.conf lines: one per MIG instance; consecutive whole GPUs with the same type and
/// cores share one. True when a line's Cores= is wider than its GPUs' NUMA-local cores.
bool gres_lines(const std::string& node, const std::vector<Unit>& units, const CpuTopology& t, bool untyped,
                std::map<std::string, std::string>& type_of_model, const VersionProfile& profile,
                std::vector<std::string>& out) {
  bool narrowed = false;
  struct Group {
    std::string type;
    Cores cores;
    std::vector<std::string> files;
  };
  std::vector<Group> groups;
  for (const Unit& u : units) {
    Cores cores = t.empty() ? Cores{} : expected_gpu_cores(u.local, t, profile);
    if (cores != u.local) narrowed = true;
    if (u.mig) {
      out.push_back(fmt::format("NodeName={} Name=gpu MultipleFiles={}{}", node, fmt::join(u.files, ","),
                                cores.empty() ? "" : " Cores=" + format_index_list(cores)));
      continue;
    }
    std::string ty = untyped ? "" : type_of_model[u.gpu->model];
    if (!groups.empty() && groups.back().type == ty && groups.back().cores == cores)
      groups.back().files.push_back(u.gpu->device_file);
    else
      groups.push_back(Group{ty, cores, {u.gpu->device_file}});
  }
  for (const Group& g : groups)
    out.push_back(fmt::format("NodeName={} Name=gpu{} File={}{}", node, g.type.empty() ? "" : " Type=" + g.type,
                              fold_paths(g.files), g.cores.empty() ? "" : " Cores=" + format_index_list(g.cores)));
  return narrowed;
}

std::string node_line(const std::string& node, const HardwareInventory& hw, const std::string& gres) {
  const CpuTopology& t = hw.cpu;
  const std::string memory = hw.memory_mib ? fmt::format(" RealMemory={}", *hw.memory_mib) : "";
  if (t.empty()) return fmt::format("NodeName={}{}{}", node, memory, gres);
  return fmt::format("NodeName={} CPUs={} Sockets={} CoresPerSocket={} ThreadsPerCore={}{}{}", node, t.cpus(),
                     t.sockets(), t.cores_per_socket(), t.threads_per_core(), memory, gres);
}

}  // namespace

Suggestion make_suggestion(const std::string& node, const HardwareInventory& hw, const VersionProfile& profile) {
  Suggestion s;
  s.node = node;
  const CpuTopology& t = hw.cpu;
  std::vector<Unit> units = units_of(hw);
  const bool any_mig = std::any_of(hw.gpus.begin(), hw.gpus.end(), [](const Gpu& g) { return !g.mig.empty(); });
  // A model sysfs does not name (AMD, Intel) leaves every line untyped: a guessed type
  // would be one AutoDetect does not know.
  const bool untyped =
      any_mig || std::any_of(hw.gpus.begin(), hw.gpus.end(), [](const Gpu& g) { return g.model.empty(); });
  std::map<std::string, std::string> type_of_model = types_of_models(hw);
  if (t.empty()) s.node_notes.push_back(fmt::format("no CPU topology under {}/sys/devices/system/cpu", hw.sysroot));
  s.node_line = node_line(node, hw, gres_for(units, untyped, type_of_model));
  if (units.empty()) {
    s.gres_notes.emplace_back("no GPUs found");
    return s;
  }
  if (any_mig) {
    s.gres_notes.emplace_back("MIG profile names cannot be read from /proc; the lines are untyped. To type them, add the profile");
    s.gres_notes.emplace_back("(nvidia-smi mig -lgi, e.g. Type=1g.10gb) to every line and to slurm.conf Gres=.");
  }
  if (untyped && !any_mig) {
    s.gres_notes.emplace_back("the GPU model is not in sysfs, so the lines are untyped; to type them, add the same Type= to");
    s.gres_notes.emplace_back("every line and to slurm.conf Gres=.");
  }
  if (gres_lines(node, units, t, untyped, type_of_model, profile, s.gres_lines)) {
    s.closing_notes.push_back(fmt::format("Slurm {} needs {} in Cores=, so these are wider than the GPUs' NUMA-local cores;",
                                          profile.version().str(), rule_words(profile)));
    s.closing_notes.emplace_back("Parameters=l3cache_as_socket (25.11+) makes each L3 cache a socket instead.");
  }
  return s;
}

void write_suggestion(const Suggestion& s, const VersionProfile& profile, std::ostream& out) {
  out << fmt::format("# greslint node-check --suggest: {} as its hardware is (Slurm {} profile)\n", s.node,
                     profile.version().str());
  out << "# slurm.conf (GresTypes=gpu):\n";
  for (const std::string& n : s.node_notes) out << "# " << n << "\n";
  out << s.node_line << "\n";
  out << "# gres.conf:\n";
  for (const std::string& n : s.gres_notes) out << "# " << n << "\n";
  for (const std::string& l : s.gres_lines) out << l << "\n";
  for (const std::string& n : s.closing_notes) out << "# " << n << "\n";
}

void write_suggestions_json(const std::vector<Suggestion>& all, const VersionProfile& profile, std::ostream& out) {
  emit_detail::JsonWriter w(out);
  auto strings = [&](std::string_view key, const std::vector<std::string>& list) {
    w.key(key).begin_array();
    for (const std::string& v : list) w.string(v);
    w.end_array();
  };
  w.begin_object();
  w.key("schema").string("greslint-suggest/1");
  w.key("slurm_version").string(profile.version().str());
  w.key("nodes").begin_array();
  for (const Suggestion& s : all) {
    std::vector<std::string> notes = s.node_notes;
    notes.insert(notes.end(), s.gres_notes.begin(), s.gres_notes.end());
    notes.insert(notes.end(), s.closing_notes.begin(), s.closing_notes.end());
    w.begin_object();
    w.key("node").string(s.node);
    w.key("slurm_conf").string(s.node_line);
    strings("gres_conf", s.gres_lines);
    strings("notes", notes);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  out << "\n";
}

}  // namespace greslint::node_check
