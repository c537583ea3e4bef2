// SPDX-License-Identifier: Apache-2.0
// `greslint why`'s drift checks: where the running cluster differs from the files.
#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>

#include "commands/why_model.hpp"
#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "model/findings.hpp"
#include "util.hpp"

namespace greslint::why::detail {

namespace {

// ---- drift -------------------------------------------------------------------------------

std::set<std::string> item_set(std::string_view text) {
  std::set<std::string> items;
  for (std::string_view part : split_commas_view(text))
    if (!part.empty()) items.insert(to_lower(part));
  return items;
}

/// The settings whose running value matters to what greslint predicts, with how
/// `scontrol show config` prints them: as slurm.conf gives them up to case, or a list
/// whose items may come in another order (or, for AccountingStorageTRES, with Slurm's
/// defaults added).
enum class Compare { same, same_items, items_included };
constexpr std::pair<std::string_view, Compare> kComparedSettings[] = {
    {"GresTypes", Compare::same_items},
    {"SelectType", Compare::same},
    {"SelectTypeParameters", Compare::same_items},
    {"AccountingStorageTRES", Compare::items_included},
    {"ClusterName", Compare::same},
    {"TaskPlugin", Compare::same_items},
    {"ProctrackType", Compare::same},
    {"AccountingStorageType", Compare::same},
    {"JobAcctGatherType", Compare::same},
};

/// scontrol prints "(null)" where a plugin type is none (TaskPlugin=task/none in 24.11).
bool means_none(const std::string& v) {
  return v.empty() || iequals(v, "none") || (v.size() > 5 && iequals(v.substr(v.size() - 5), "/none"));
}

bool setting_agrees(Compare how, const std::string& file_value, const std::string& running) {
  if (running == "(null)") return means_none(file_value);
  switch (how) {
    case Compare::same: return iequals(file_value, running);
    case Compare::same_items: return item_set(file_value) == item_set(running);
    case Compare::items_included: {
      const auto shown = item_set(running);
      const auto wanted = item_set(file_value);
      return std::includes(shown.begin(), shown.end(), wanted.begin(), wanted.end());
    }
  }
  return true;
}

}  // namespace

void settings_drift(const ControllerConfig& config, const SlurmConfFacts& facts, std::vector<Drift>& out) {
  for (const auto& [key, how] : kComparedSettings) {
    auto file = facts.settings.find(to_lower(key));
    const std::string* running = config.find(key);
    if (file == facts.settings.end() || !running) continue;
    if (setting_agrees(how, file->second.first, *running)) continue;
    Drift d{DriftKind::setting, std::string(key), file->second.first, *running, place_of(facts.sources, file->second.second),
            fmt::format("slurm.conf sets {}={} but slurmctld runs {}={}: it has not re-read slurm.conf since the edit",
                        key, file->second.first, key, *running),
            {kReconfigure}};
    // 22.05's reconfigure refuses these ("SelectType change requires restart of the
    // slurmctld daemon"); 24.05+ restarts slurmctld on reconfigure anyway.
    if (iequals(key, "SelectType") || iequals(key, "SelectTypeParameters") || iequals(key, "GresTypes"))
      d.commands = {"systemctl restart slurmctld   # on the controller: a reconfigure does not change " +
                    std::string(key)};
    out.push_back(std::move(d));
  }
}

namespace {

/// A file's modification time, when it can be read.
std::optional<std::time_t> mtime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return st.st_mtime;
}

std::string local_time(std::time_t t) {
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

}  // namespace

/// Live only: files written after slurmctld started, and gres.conf written after a node's
/// slurmd started (the files here stand for the nodes' copies). "Configuration data as of"
/// is no help: slurmctld stamps its answer with the time of the question. BOOT_TIME is when
/// slurmctld started; from 24.05 `scontrol reconfigure` restarts it, so a reconfigure
/// resets it too, while 22.05's reconfigure leaves it.
void file_time_drift(const ControllerView& view, const Analysis& a, const std::optional<Hostlist>& only,
                     std::vector<Drift>& out) {
  if (!view.live || !view.config || !view.config->boot_time) return;
  const std::time_t started = *view.config->boot_time;
  for (const std::string& input : a.inputs) {
    auto t = mtime(input);
    if (!t || *t <= started) continue;
    out.push_back({DriftKind::files_newer, input, local_time(*t), local_time(started), Place{input, 0, 0},
                   fmt::format("{} changed at {}, after slurmctld started ({}): unless scontrol reconfigure ran "
                               "since, slurmctld runs the file as it was",
                               input, local_time(*t), local_time(started)),
                   {"greslint lint " + dirname_of(a.slurm_conf) + "   # first", kReconfigure}});
  }
  const std::string gres_conf = join_path(dirname_of(a.slurm_conf), "gres.conf");
  auto gres_time = mtime(gres_conf);
  if (!gres_time) return;
  std::vector<std::string> stale;
  for (const ControllerNode& n : view.nodes)
    if ((!only || only->contains(n.name)) && n.slurmd_start_time && *n.slurmd_start_time < *gres_time)
      stale.push_back(n.name);
  if (stale.empty()) return;
  const std::string list = fold_names(stale);
  out.push_back({DriftKind::slurmd_older, list, local_time(*gres_time), "", Place{gres_conf, 0, 0},
                 fmt::format("gres.conf changed at {}, after slurmd started on {}: slurmd reads it only when it "
                             "starts",
                             local_time(*gres_time), list),
                 {"scontrol reboot ASAP nextstate=RESUME " + list + "   # or restart slurmd on each"}});
}

namespace {

/// One Gres item as scontrol shows it ("gpu:a100:4(S:0-1)"): name, type ("" if none), count.
struct GresItem {
  std::string name, type;
  std::uint64_t count = 1;
};

std::uint64_t count_with_suffix(std::string_view text) {
  std::uint64_t v = 0;
  std::size_t i = 0;
  for (; i < text.size() && is_digit(text[i]); ++i) v = v * 10 + std::uint64_t(text[i] - '0');
  switch (i < text.size() ? to_lower(text[i]) : 0) {
    case 'k': return v * 1024;
    case 'm': return v * 1024 * 1024;
    case 'g': return v * 1024ull * 1024 * 1024;
    default: return v;
  }
}

std::vector<GresItem> gres_items(std::string_view text) {
  std::vector<GresItem> items;
  std::string item;
  int depth = 0;
  auto flush = [&] {
    if (!item.empty() && item != "(null)") {
      std::vector<std::string> parts;
      std::size_t from = 0;
      for (std::size_t i = 0; i <= item.size(); ++i)
        if (i == item.size() || item[i] == ':') {
          parts.push_back(item.substr(from, i - from));
          from = i + 1;
        }
      GresItem g;
      if (parts.size() > 1 && !parts.back().empty() && is_digit(parts.back()[0])) {
        g.count = count_with_suffix(parts.back());
        parts.pop_back();
      }
      g.name = to_lower(parts.front());
      if (parts.size() > 1) g.type = to_lower(parts[1]);  // Slurm matches types in any case
      items.push_back(std::move(g));
    }
    item.clear();
  };
  for (char c : text) {
    if (c == '(') ++depth;
    if (depth == 0 && c == ',') flush();
    else if (depth == 0) item += c;
    if (c == ')') --depth;
  }
  flush();
  return items;
}

using GresCounts = std::map<std::pair<std::string, std::string>, std::uint64_t>;  ///< (name, type) -> count

GresCounts totals(const std::vector<GresItem>& items, bool by_type) {
  GresCounts c;
  // A count of 0 is no GRES: scontrol shows Gres=shard:8 for slurm.conf's gpu:0,shard:8 (gm62).
  for (const GresItem& g : items)
    if (g.count > 0) c[{g.name, by_type ? g.type : ""}] += g.count;
  return c;
}

/// Does the controller's Gres= say what `files` does? Per name the counts must match; per
/// type only where the files give one (the controller adds the GPU's type to shard and mps,
/// and to untyped counts once typed records registered) and the controller lists only
/// typed items of that name.
bool same_gres(const std::vector<GresItem>& files, const std::vector<GresItem>& controller) {
  if (totals(files, false) != totals(controller, false)) return false;
  const GresCounts shown = totals(controller, true);
  for (const auto& wanted : totals(files, true)) {
    const std::string& name = wanted.first.first;
    if (wanted.first.second.empty()) continue;
    const bool all_typed = std::none_of(controller.begin(), controller.end(),
                                        [&](const GresItem& g) { return g.name == name && g.type.empty(); });
    auto it = shown.find(wanted.first);
    if (all_typed && (it == shown.end() || it->second != wanted.second)) return false;
  }
  return true;
}

/// What slurmd reports for the class (the model's records), as Gres items.
std::vector<GresItem> effective_items(const NodeClass& cls) {
  std::vector<GresItem> items;
  for (const EffectiveGres& g : cls.gres) items.push_back({to_lower(g.name), g.type ? to_lower(*g.type) : "", g.count});
  return items;
}

/// One node's difference, before nodes that differ alike are folded into one item.
struct NodeDifference {
  DriftKind kind;
  std::string files, controller;
  Place place;
  bool registered;
  bool operator<(const NodeDifference& o) const {
    return std::tie(kind, place.file, place.line, place.column, files, controller, registered) <
           std::tie(o.kind, o.place.file, o.place.line, o.place.column, o.files, o.controller, o.registered);
  }
};

Drift folded_drift(const NodeDifference& d, const std::vector<std::string>& names) {
  const std::string list = fold_names(names);
  std::string message;
  if (d.kind == DriftKind::node_topology)
    message = fmt::format("slurmctld holds {} for {}: it has not re-read slurm.conf since the NodeName line changed",
                          d.controller, list);
  else if (d.registered)
    message = fmt::format("{} registered with Gres={}; the files configure Gres={}, and slurmd would report "
                          "otherwise: the node's gres.conf or slurmd is older than the files here",
                          list, d.controller.empty() ? "(none)" : d.controller, d.files.empty() ? "(none)" : d.files);
  else
    message = fmt::format("slurmctld holds Gres={} for {} but the files configure Gres={}: it has not re-read "
                          "slurm.conf since",
                          d.controller.empty() ? "(none)" : d.controller, list, d.files.empty() ? "(none)" : d.files);
  return {d.kind, list, d.files, d.controller, d.place, std::move(message), {kReconfigure, restart_slurmd(list)}};
}

}  // namespace

void node_drift(const ControllerView& view, const Model& m, const SlurmConfFacts& facts,
                const std::vector<NodeWhy>& explained, const std::optional<Hostlist>& only, std::vector<Drift>& out) {
  std::set<std::string> gres_explained;
  for (const NodeWhy& w : explained)
    if (w.cause == Cause::explained || w.cause == Cause::hardware || w.cause == Cause::predicted_other)
      gres_explained.insert(w.node);
  std::map<NodeDifference, std::vector<std::string>> differences;
  std::vector<std::string> unknown;
  for (const ControllerNode& n : view.nodes) {
    if (only && !only->contains(n.name)) continue;
    const NodeClass* cls = m.class_of(n.name);
    if (!cls) {
      unknown.push_back(n.name);
      continue;
    }
    // With files slurmctld would die on, the model stops before any node is evaluated:
    // controller-would-fail says so, and there is nothing to compare a node with.
    if (cls->verdict == Verdict::slurmctld_fatal) continue;
    Place line;
    if (auto it = facts.node_line.find(n.name); it != facts.node_line.end()) line = place_of(facts.sources, it->second);
    std::string differs;
    auto compare = [&](const char* what, std::optional<std::uint32_t> shown, std::uint32_t files) {
      if (shown && *shown != files) differs += fmt::format("{}{} {} (files: {})", differs.empty() ? "" : ", ", what, *shown, files);
    };
    compare("CPUs", n.cpus, cls->cpus);
    compare("Sockets", n.sockets, cls->sockets);
    compare("CoresPerSocket", n.cores_per_socket, cls->cores_per_socket);
    compare("ThreadsPerCore", n.threads_per_core, cls->threads_per_core);
    if (!differs.empty()) differences[{DriftKind::node_topology, "", differs, line, false}].push_back(n.name);
    // Once slurmctld validated a node's GRES (its registration; a CLOUD node's gres.conf
    // at start-up) it holds what gres.conf gives, which the model knows too.
    const auto shown = gres_items(n.gres);
    // A node whose GRES the files already degrade or drain: its Gres= follows that finding.
    if (gres_explained.count(n.name) || cls->verdict == Verdict::degraded || cls->verdict == Verdict::drain ||
        same_gres(gres_items(cls->configured_gres), shown) || same_gres(effective_items(*cls), shown))
      continue;
    const Place gres_at = place_of(m.a.sources, m.a.cluster.configured_gres_span(m.index.at(n.name)));
    differences[{DriftKind::node_gres, cls->configured_gres, n.gres, gres_at, n.registered}].push_back(n.name);
  }
  for (const auto& [d, names] : differences) out.push_back(folded_drift(d, names));
  if (!unknown.empty()) {
    const std::string list = fold_names(unknown);
    out.push_back({DriftKind::node_not_in_files, list, "", list, Place{},
                   fmt::format("slurmctld knows {}, which {} does not define: it runs an older slurm.conf", list,
                               m.a.slurm_conf),
                   {kReconfigure}});
  }
  if (!view.have_node_records) return;
  std::set<std::string_view> listed;
  for (const ControllerNode& n : view.nodes) listed.insert(n.name);
  std::vector<std::string> missing;
  const Cluster& cluster = m.a.cluster;
  for (std::uint32_t i = 0; i < cluster.node_names.size(); ++i) {
    const std::string& name = cluster.node_names[i];
    // A node the files start FUTURE is hidden from scontrol by design (cases rw109, gm77).
    const bool future = i < cluster.future_at_startup.size() && cluster.future_at_startup[i];
    if ((!only || only->contains(name)) && !listed.count(name) && !future) missing.push_back(name);
  }
  if (!missing.empty()) {
    const std::string list = fold_names(missing);
    Place line;
    if (auto it = facts.node_line.find(missing.front()); it != facts.node_line.end())
      line = place_of(facts.sources, it->second);
    out.push_back({DriftKind::node_not_in_controller, list, list, "", line,
                   fmt::format("{} defines {}, which slurmctld does not know: it started before they were added "
                               "(a powered-down CLOUD node is also hidden unless PrivateData=cloud)",
                               m.a.slurm_conf, list),
                   {"systemctl restart slurmctld   # on the controller; then start slurmd on the new nodes"}});
  }
}

/// The files would make slurmctld fatal, yet it runs: it read them before the edit.
void controller_drift(const Model& m, std::vector<Drift>& out) {
  for (const Diagnostic& d : m.a.findings)
    if (d.effect == Effect::fatal && d.daemon == Daemon::slurmctld) {
      out.push_back({DriftKind::controller_would_fail, "slurmctld", "", "", place_of(m.a.sources, d.span),
                     fmt::format("slurmctld is running, but with these files it would not start: {} ({} {}); fix "
                                 "this before it restarts",
                                 d.slurm_message.empty() ? d.message : d.slurm_message, d.rule->id, d.rule->name),
                     {"greslint lint " + dirname_of(m.a.slurm_conf)}});
      return;
    }
}

}  // namespace greslint::why::detail
