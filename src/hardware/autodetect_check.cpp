// SPDX-License-Identifier: Apache-2.0
// Nodes with AutoDetect: what slurmd makes of the GPUs it detects and the configured ones
// (gres_gpu.c:_merge_system_gres_conf, slurm-semantics.md §5.7), then GRS502-504, GRS507
// and GRS508 on the result.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "hardware/node_checker.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::node_check {

/// One configured GPU as the merge sees it: a device of a record with File=, or one of the
/// File-less count.
struct ConfiguredGpu {
  std::optional<std::string> type;
  std::vector<std::string> files;  ///< empty: no File
  std::optional<std::string> cores;
  const LineFacts* line = nullptr;
};

/// The merge's result: which detected GPUs a configured one claimed, and what was left.
struct AutodetectMerge {
  std::vector<const Unit*> detected;  ///< the GPUs of the AutoDetect vendor
  std::vector<ConfiguredGpu> configured;
  std::vector<bool> taken;  ///< per detected GPU
  std::vector<const Unit*> used;
  std::uint64_t reported = 0;
  std::uint64_t mismatched = 0;  ///< E4: Cores= differ from the detected affinity
  std::uint64_t unmatched = 0;   ///< E5: File-less configured GPUs that match no detected one
  std::map<const LineFacts*, std::vector<const Unit*>> mismatched_cores;
  std::vector<const ConfiguredGpu*> unmatched_typed;
};

namespace {

/// The detected type each GPU gets: the configured type its name contains, longest first
/// (§5.5); unset when nothing is typed.
std::vector<std::optional<std::string>> detected_types(const AutodetectMerge& m) {
  std::set<std::string> conf_types;
  for (const ConfiguredGpu& c : m.configured)
    if (c.type) conf_types.insert(*c.type);
  std::vector<std::string> by_length(conf_types.begin(), conf_types.end());
  std::stable_sort(by_length.begin(), by_length.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  std::vector<std::optional<std::string>> out;
  for (const Unit* u : m.detected) {
    std::optional<std::string> t = u->type;
    if (conf_types.empty()) t.reset();
    for (const std::string& ct : by_length)
      if (icontains(u->type, ct)) {
        t = ct;
        break;
      }
    out.push_back(t);
  }
  return out;
}

/// Claims detected GPUs for the configured ones: those with File= first, then the File-less.
void match_configured(AutodetectMerge& m, std::uint32_t core_count) {
  const std::vector<std::optional<std::string>> det_type = detected_types(m);
  m.taken.assign(m.detected.size(), false);
  auto matches = [&](const ConfiguredGpu& c, std::size_t i) {
    if (m.taken[i]) return false;
    // AMD and Intel model names (rsmi, oneapi) are not in sysfs: such a GPU may carry any type.
    const bool any_type = m.detected[i]->type.empty();
    if (c.type && !any_type && (!det_type[i] || *det_type[i] != *c.type)) return false;
    if (c.files.empty()) return true;
    return std::set<std::string>(c.files.begin(), c.files.end()) ==
           std::set<std::string>(m.detected[i]->files.begin(), m.detected[i]->files.end());
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const ConfiguredGpu& c : m.configured) {
      if ((pass == 0) == c.files.empty()) continue;
      std::optional<Cores> conf_bits;
      if (c.cores) conf_bits = parse_core_list(*c.cores, std::max<std::uint32_t>(core_count, 1));
      bool matched = false;
      for (std::size_t i = 0; i < m.detected.size(); ++i) {
        if (!matches(c, i)) continue;
        if (c.cores && !conf_bits) break;  // an unreadable Cores= never matches (C10)
        m.taken[i] = true;
        matched = true;
        if (conf_bits && *conf_bits != m.detected[i]->local) {
          ++m.mismatched;
          m.mismatched_cores[c.line].push_back(m.detected[i]);
        } else {
          ++m.reported;
          m.used.push_back(m.detected[i]);
        }
        break;
      }
      if (matched) continue;
      if (!c.files.empty())
        ++m.reported;  // config-only, kept
      else
        ++m.unmatched;
      if (c.type) m.unmatched_typed.push_back(&c);
    }
  }
}

}  // namespace

void NodeChecker::check_autodetect() {
  AutodetectMerge m;
  for (const Unit& u : units_)
    if (u.gpu->vendor == *detect_vendor_) m.detected.push_back(&u);
  m.configured = configured_gpus();
  match_configured(m, topo_.cores());
  check_unmatched_types(m);
  // GRS504 (E4): configured Cores= that differ from the detected affinity.
  for (const auto& [line, list] : m.mismatched_cores)
    if (line && line->cores) check_line_cores(*line, list, true);
  check_ignored_gpus(m);
  // GRS503 (F1).
  std::string why;
  if (m.mismatched || m.unmatched)
    why = fmt::format(
        " ({} detected; {})", m.detected.size(),
        m.mismatched ? "configured Cores= differ from the detected ones" : "configured GPUs match no detected one");
  check_count(m.reported, why,
              m.mismatched || m.unmatched
                  ? "make the gres.conf and slurm.conf GPUs match what AutoDetect finds (Type= a part of the model "
                    "name, Cores= the detected affinity)"
                  : "");
  check_detected_affinity(m.used);
}

std::vector<ConfiguredGpu> NodeChecker::configured_gpus() const {
  std::vector<ConfiguredGpu> out;
  for (const EffectiveGres& g : cls_.gres) {
    if (g.name != "gpu") continue;
    std::vector<std::string> paths;
    if (g.files) {
      auto l = parse_hostlist(*g.files, Span{}, profile_);
      if (l.ok()) paths = l.list->expand();
    }
    const LineFacts* line = find_line(g, paths);
    if (paths.empty()) {
      for (std::uint64_t i = 0; i < g.count && i < 4096; ++i) out.push_back(ConfiguredGpu{g.type, {}, g.cores, line});
    } else if (g.count == 1 && paths.size() > 1) {
      out.push_back(ConfiguredGpu{g.type, paths, g.cores, line});  // MultipleFiles: one device
    } else {
      for (const std::string& p : paths) out.push_back(ConfiguredGpu{g.type, {p}, g.cores, line});
    }
  }
  return out;
}

// GRS507: a Type= that no detected model contains.
void NodeChecker::check_unmatched_types(const AutodetectMerge& m) {
  std::set<const LineFacts*> type_done;
  for (const ConfiguredGpu* c : m.unmatched_typed) {
    if (c->line && !c->line->type) continue;
    if (type_done.count(c->line)) continue;
    bool found = false;
    for (const Unit* u : m.detected) found = found || u->type.empty() || icontains(u->type, *c->type);
    if (found || m.detected.empty() || *detect_vendor_ != GpuVendor::nvidia) continue;
    type_done.insert(c->line);
    std::set<std::string> models;
    for (const Unit* u : m.detected) models.insert(u->type);
    const bool fileless = c->files.empty();
    report(rules::GRS507, c->line ? c->line->type_span : cls_.configured_gres_span,
           fmt::format("Type={} is not part of the model name AutoDetect reports on {} ({}); {}", *c->type, node_,
                       fmt::join(models, ", "),
                       fileless ? "slurmd discards these GPUs, so fewer are reported than configured"
                                : "the line is kept as configured but the detected GPU is ignored"))
        .severity(fileless ? Severity::error : Severity::warning)
        .effect(Effect::degraded, Daemon::slurmd)
        .slurm(fileless ? "Discarding the following config-only GPU due to lack of File specification:"
                        : "The following autodetected GPUs are being ignored:")
        .help(fmt::format("use a part of the model name, e.g. Type={}, in gres.conf and slurm.conf Gres=",
                          short_gpu_type(m.detected.front()->gpu->model)));
  }
}

// GRS502 (E6): detected GPUs nothing claims.
void NodeChecker::check_ignored_gpus(const AutodetectMerge& m) {
  std::vector<std::string> ignored;
  for (std::size_t i = 0; i < m.detected.size(); ++i)
    if (!m.taken[i]) ignored.push_back(m.detected[i]->label());
  if (ignored.empty()) return;
  report(rules::GRS502, autodetect_span().valid() ? autodetect_span() : gpu_anchor(),
         fmt::format("AutoDetect finds {} GPU{} on {} that the configuration does not claim: {}", ignored.size(),
                     ignored.size() == 1 ? "" : "s", node_, fmt::join(ignored, ", ")))
      .slurm("The following autodetected GPUs are being ignored:")
      .help(fmt::format("configure Gres={} in slurm.conf for {}", gres_spec(m.detected.size()), node_));
}

// GRS508 (F9 on the detected affinity), the first record Slurm checks.
void NodeChecker::check_detected_affinity(const std::vector<const Unit*>& used) {
  for (const Unit* u : used) {
    const int bad = socket_rule_violation(u->local, topo_, profile_);
    if (bad < 0) continue;
    std::string hint;
    if (profile_.version() >= kSlurm2605)
      hint = " See Socket Affinity section of gres.html for more information.";
    else if (profile_.version() >= kSlurm2511)
      hint = " Consider setting Parameters=l3cache_as_socket as part of the Node configuration.";
    else if (profile_.version() >= kSlurm2505)
      hint =
          " Consider setting SlurmdParameters=l3cache_as_socket (recommended) or override this by manually "
          "specifying core affinity in gres.conf.";
    const std::string range = socket_range(topo_, bad);
    report(
        rules::GRS508, autodetect_span().valid() ? autodetect_span() : gpu_anchor(),
        fmt::format("AutoDetect gives {} the affinity of cores {} on {}, which splits socket {} (cores {}); Slurm {} "
                    "requires {}",
                    u->gpu->device_file, format_index_list(u->local), node_, bad, range, profile_.version().str(),
                    rule_words(profile_)))
        .slurm(fmt::format("gres/gpu GRES autodetected core affinity {} on node {} doesn't match socket boundaries. "
                           "(Socket {} is cores {}).{}",
                           format_index_list(u->local), node_, bad, range, hint))
        .help(profile_.version() >= kSlurm2511
                  ? fmt::format("add Parameters=l3cache_as_socket to the NodeName line of {}", node_)
              : profile_.version() >= kSlurm2505
                  ? "set SlurmdParameters=l3cache_as_socket in slurm.conf"
                  : fmt::format("turn AutoDetect off for {} and list the GPUs with File= and whole-socket Cores= "
                                "(greslint node-check --suggest)",
                                node_));
    return;
  }
}

const LineFacts* NodeChecker::find_line(const EffectiveGres& g, const std::vector<std::string>& paths) const {
  for (const LineFacts* l : gpu_lines()) {
    if (!paths.empty()) {
      if (!l->paths.empty() && std::find(l->paths.begin(), l->paths.end(), paths.front()) != l->paths.end()) return l;
      continue;
    }
    if (l->paths.empty() && ((g.type && l->type && iequals(*g.type, *l->type)) || (!g.type && !l->type))) return l;
  }
  return nullptr;
}

}  // namespace greslint::node_check
