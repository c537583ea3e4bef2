// SPDX-License-Identifier: Apache-2.0
#include "commands/why_explain.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "model/findings.hpp"
#include "util.hpp"

namespace greslint::why {

std::string Place::text() const { return fmt::format("{}:{}:{}", file, line, column); }

std::string_view to_string(Cause c) noexcept {
  switch (c) {
    case Cause::explained: return "explained";
    case Cause::predicted_other: return "predicted-other";
    case Cause::hardware: return "hardware";
    case Cause::topology: return "topology";
    case Cause::not_gres: return "not-gres";
    case Cause::admin: return "admin";
    case Cause::not_registered: return "not-registered";
    case Cause::not_in_files: return "not-in-files";
  }
  return "?";
}

std::string_view to_string(DriftKind k) noexcept {
  switch (k) {
    case DriftKind::setting: return "setting";
    case DriftKind::files_newer: return "files-newer";
    case DriftKind::node_topology: return "node-topology";
    case DriftKind::node_gres: return "node-gres";
    case DriftKind::node_not_in_controller: return "node-not-in-controller";
    case DriftKind::node_not_in_files: return "node-not-in-files";
    case DriftKind::slurmd_older: return "slurmd-older";
    case DriftKind::controller_would_fail: return "controller-would-fail";
  }
  return "?";
}

namespace {

constexpr const char* kReconfigure = "scontrol reconfigure";

std::string fold_names(const std::vector<std::string>& names) { return fold_hostnames(names); }

std::string resume(const std::string& node) { return fmt::format("scontrol update NodeName={} State=RESUME", node); }
std::string restart_slurmd(const std::string& node) { return fmt::format("systemctl restart slurmd   # on {}", node); }
std::string node_check(const std::string& node) { return fmt::format("greslint node-check --node {}   # on {}", node, node); }

// ---- Slurm's own reasons ---------------------------------------------------------------
// Texts slurmctld (and slurmd) set as a node's reason themselves, by prefix. Anything else
// was typed by a person (scontrol update ... Reason=) or written by a site script (NHC).

/// slurmctld's checks of a registration against slurm.conf's CPUs and memory
/// (validate_node_specs): the node's hardware, not its GRES.
constexpr std::string_view kTopologyReasons[] = {"Low socket*core*thread count", "Low CPUs", "Low RealMemory",
                                                  "Low TmpDisk"};
/// The rest of Slurm's reasons, none about GRES.
constexpr std::string_view kOtherSlurmReasons[] = {
    "Not responding", "Kill task failed", "Prolog error", "Epilog error", "Prolog/Epilog failure",
    "Job env setup error", "batch job complete failure", "Node unexpectedly rebooted", "reboot requested",
    "reboot complete", "Reboot ASAP", "Duplicate jobid", "NO NETWORK ADDRESS FOUND", "SlurmdSpoolDir is full",
    "First Registration", "node_reinit", "Scheduled reboot"};

bool starts_with_any(std::string_view reason, const std::string_view* first, const std::string_view* last) {
  return std::any_of(first, last, [&](std::string_view p) { return reason.rfind(p, 0) == 0; });
}

/// Slurm's GRES reasons start "gres/" (count and type checks) or speak of GRES or its
/// cores; a drain finding's own text is matched before this is asked.
bool gres_reason(std::string_view reason) {
  return reason.rfind("gres/", 0) == 0 || icontains(reason, "gres") || icontains(reason, "gpu");
}

/// `shown` is the reason as the controller printed it: whole, or (default sinfo -R) its
/// first 20 characters.
/// slurmctld joins the reasons of one registration with ", " ("gres/gpu count reported
/// lower than configured (2 < 4), Low RealMemory (...)"): the prediction may be one of them.
bool same_reason(const std::string& predicted, const std::string& shown, bool truncated) {
  if (shown.empty() || predicted.empty()) return false;
  if (predicted == shown) return true;
  if (truncated) return predicted.rfind(shown, 0) == 0;
  return shown.rfind(predicted + ", ", 0) == 0 || shown.find(", " + predicted) != std::string::npos;
}

/// What a joined reason holds besides `predicted` ("" when nothing).
std::string other_reasons(const std::string& predicted, const std::string& shown) {
  if (shown == predicted || predicted.empty()) return {};
  std::string rest = shown;
  auto at = rest.find(predicted);
  if (at == std::string::npos) return {};
  rest.erase(at, predicted.size());
  while (rest.rfind(", ", 0) == 0) rest.erase(0, 2);
  if (rest.size() >= 2 && rest.compare(rest.size() - 2, 2, ", ") == 0) rest.resize(rest.size() - 2);
  auto doubled = rest.find(", , ");
  if (doubled != std::string::npos) rest.erase(doubled, 2);
  return rest;
}

// ---- the files ---------------------------------------------------------------------------

Place place_of(const SourceManager& sources, Span span) {
  Place p;
  if (!span.valid()) return p;
  p.file = sources.path(span.file);
  LineCol lc = sources.line_col(span.file, span.begin);
  p.line = lc.line;
  p.column = lc.column;
  return p;
}

/// What slurm.conf says, read again for the settings and NodeName lines the model does not
/// keep (its own findings are the analysis's, so they are dropped here).
struct SlurmConfFacts {
  SourceManager sources;
  std::map<std::string, std::pair<std::string, Span>> settings;  ///< lower-cased key -> value, where
  std::unordered_map<std::string, Span> node_line;               ///< node -> its NodeName= value
};

void read_slurm_conf(const Analysis& a, SlurmConfFacts& facts) {
  Reporter ignored;
  ReadOptions ro;
  ro.slurm_conf_dir = dirname_of(a.slurm_conf);
  const VersionProfile profile(a.version.version);
  ConfigFile file = read_config_file(a.slurm_conf, ro, profile, facts.sources, ignored);
  for (const Directive& d : file.directives) {
    const KeyValue& head = d.head();
    if (d.kind == Directive::Kind::setting) {
      facts.settings[to_lower(head.key)] = {std::string(head.value), head.value_span};
      continue;
    }
    if (!iequals(head.key, "NodeName") || iequals(head.value, "DEFAULT")) continue;
    auto l = parse_hostlist(head.value, Span{}, profile);
    if (!l.ok()) continue;
    l.list->for_each([&](const std::string& h, const HostRange&) { facts.node_line.emplace(h, head.value_span); });
  }
}

/// Findings by node, parsed once: which nodes each finding names.
class FindingIndex {
 public:
  FindingIndex(const Analysis& a) {
    const VersionProfile profile(a.version.version);
    for (const Diagnostic& d : a.findings) {
      if (d.nodes.empty()) continue;
      auto l = parse_hostlist(d.nodes, Span{}, profile);
      if (!l.ok()) continue;
      l.list->for_each([&](const std::string& h, const HostRange&) { by_node_[h].push_back(&d); });
    }
  }
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

/// The commands that put a node back once its line is fixed: slurmctld re-reads slurm.conf
/// on reconfigure; slurmd reads gres.conf (and its Gres=) only when it starts.
std::vector<std::string> after_fix(const std::string& node) {
  return {kReconfigure, restart_slurmd(node), resume(node)};
}

void attach_finding(NodeWhy& w, const Diagnostic& d, const SourceManager& sources) {
  w.finding = &d;
  w.place = place_of(sources, d.span);
  for (const Related& r : d.related) {
    w.related.push_back(place_of(sources, r.span));
    w.related_messages.push_back(r.message);
  }
  w.fix = d.help;
}

// ---- the nodes ---------------------------------------------------------------------------

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

/// A node that never registered: slurmd died at start (a finding says why) or is not running.
void explain_unregistered(NodeWhy& w, const ControllerNode& n, const Model& m) {
  const auto fatal = m.findings.of(n.name, Effect::fatal);
  auto slurmd = std::find_if(fatal.begin(), fatal.end(), [](const Diagnostic* d) { return d->daemon == Daemon::slurmd; });
  if (slurmd != fatal.end()) {
    w.cause = Cause::explained;
    attach_finding(w, **slurmd, m.a.sources);
    w.message = fmt::format("slurmd on {} exits at start: {}", n.name,
                            (*slurmd)->slurm_message.empty() ? (*slurmd)->message : (*slurmd)->slurm_message);
    w.commands = {restart_slurmd(n.name)};
    if (n.unavailable()) w.commands.push_back(resume(n.name));
    return;
  }
  w.cause = n.reason.empty() || n.reason.rfind("Not responding", 0) == 0 ? Cause::not_registered : Cause::not_gres;
  w.message = fmt::format(
      "slurmd on {} has not registered with slurmctld, and the files give it no reason to fail: start slurmd "
      "there and read its log",
      n.name);
  w.commands = {"systemctl status slurmd   # on " + n.name, "journalctl -u slurmd -e   # on " + n.name};
}

/// The files' own explanation of the node's state, if they have one: a drain finding whose
/// text is the reason (or one of the reasons joined), the model's reason itself, or a
/// failed registration behind an older reason Slurm kept.
bool explain_by_files(NodeWhy& w, const ControllerNode& n, const Model& m, const NodeClass& cls,
                      const std::vector<const Diagnostic*>& drains) {
  for (const Diagnostic* d : drains) {
    const std::string text = model::expand_nodes(d->slurm_message, n.name);
    if (!same_reason(text, n.reason, n.reason_truncated) &&
        !(cls.verdict == Verdict::drain && d->slurm_message == cls.reason &&
          same_reason(w.predicted_reason, n.reason, n.reason_truncated)))
      continue;
    attach_finding(w, *d, m.a.sources);
    w.message = fmt::format("{} {}: {}", d->rule->id, d->rule->name, d->message);
    const std::string rest = other_reasons(text, n.reason);
    if (!rest.empty()) w.message += fmt::format("; Slurm also reports, not from the files: {}", rest);
    return true;
  }
  if (cls.verdict != Verdict::drain) return false;
  // Some releases drain without a reason (26.05 for an invalid core specification).
  const bool both_empty = w.predicted_reason.empty() && n.reason.empty();
  if (both_empty || same_reason(w.predicted_reason, n.reason, n.reason_truncated)) {
    // The model's reason without a finding of its own (a folded one): still the files' doing.
    if (!drains.empty()) attach_finding(w, *drains.front(), m.a.sources);
    w.message = "the files predict this drain";
    return true;
  }
  // INVALID_REG is only ever set by slurmctld's check of a registration, yet it keeps a
  // reason set before (24.11 keeps an admin's reason across RESUME): the registration
  // failed as the files predict, whatever older text the reason still holds.
  if (n.has_state("INVALID_REG") && !drains.empty() && !n.reason.empty() && !gres_reason(n.reason)) {
    const Diagnostic& d = *drains.front();
    attach_finding(w, d, m.a.sources);
    w.message = fmt::format("{} {}: {}; the registration failed with \"{}\", but Slurm kept the older reason{}",
                            d.rule->id, d.rule->name, d.message, w.predicted_reason,
                            n.reason_user.empty() ? "" : " set by " + n.reason_user);
    return true;
  }
  return false;
}

/// A reason the files do not explain: whose it is, and what to do about it.
void classify_reason(NodeWhy& w, const ControllerNode& n, const Model& m, const ControllerConfig* config,
                     const std::vector<const Diagnostic*>& drains) {
  const bool topology = starts_with_any(n.reason, std::begin(kTopologyReasons), std::end(kTopologyReasons));
  const bool slurm_text = n.reason.empty() || gres_reason(n.reason) || topology ||
                          starts_with_any(n.reason, std::begin(kOtherSlurmReasons), std::end(kOtherSlurmReasons));
  const std::string* slurm_user = config ? config->find("SlurmUser") : nullptr;
  const bool by_other_user = !n.reason_user.empty() && slurm_user &&
                             slurm_user->rfind(n.reason_user, 0) != 0;  // "slurm(64030)" starts "slurm"
  if (!slurm_text || (by_other_user && !gres_reason(n.reason))) {
    w.cause = Cause::admin;
    w.message = fmt::format("set by {} with scontrol update{}: not a reason Slurm writes, so not one the files "
                            "explain; ask who set it, then resume the node",
                            n.reason_user.empty() ? "an admin" : n.reason_user,
                            n.reason_time.empty() ? "" : " at " + n.reason_time);
    w.commands = {resume(n.name)};
  } else if (topology) {
    w.cause = Cause::topology;
    w.message = "not about GRES: slurmd reported less CPU or memory than slurm.conf configures for the node; the "
                "hardware differs from the files (or a DIMM or CPU is lost): compare them on the node";
    w.commands = {node_check(n.name), resume(n.name)};
  } else if (!gres_reason(n.reason) && !(n.reason.empty() && !drains.empty())) {
    w.cause = Cause::not_gres;
    w.message = "not about GRES: Slurm set this reason for something else than the configuration files (a job, "
                "the network, a reboot)";
    w.commands = {resume(n.name)};
  } else if (!drains.empty()) {
    w.cause = Cause::predicted_other;
    attach_finding(w, *drains.front(), m.a.sources);
    w.message = fmt::format("the files predict another drain for {} ({}); the controller's reason is older than the "
                            "files, or the hardware differs from them",
                            n.name, w.predicted_reason);
    w.commands = {node_check(n.name), kReconfigure, restart_slurmd(n.name), resume(n.name)};
  } else {
    w.cause = Cause::hardware;
    w.message = "the files agree; the hardware differs: run greslint node-check on the node";
    w.commands = {node_check(n.name), resume(n.name)};
  }
}

NodeWhy explain_node(const ControllerNode& n, const Model& m, const ControllerConfig* config) {
  NodeWhy w;
  w.node = n.name;
  w.state = n.state_text();
  w.reason = n.reason;
  w.reason_user = n.reason_user;
  w.reason_time = n.reason_time;
  const NodeClass* cls = m.class_of(n.name);
  if (!cls) {
    w.cause = Cause::not_in_files;
    w.message = fmt::format("{} is not a node of {}: slurmctld runs another slurm.conf, or it was removed from the "
                            "files after slurmctld started",
                            n.name, m.a.slurm_conf);
    w.commands = {kReconfigure};
    return w;
  }
  w.predicted_verdict = std::string(to_string(cls->verdict));
  w.predicted_reason = node_reason(*cls, n.name);
  const auto drains = m.findings.of(n.name, Effect::drain);
  if (explain_by_files(w, n, m, *cls, drains)) {
    w.cause = Cause::explained;
    w.commands = after_fix(n.name);
    return w;
  }
  if (!n.registered && (n.reason.empty() || n.reason.rfind("Not responding", 0) == 0)) {
    explain_unregistered(w, n, m);
    return w;
  }
  classify_reason(w, n, m, config, drains);
  // A drain the files also predict is worth saying even when this one is someone else's.
  if (w.cause != Cause::predicted_other && cls->verdict == Verdict::drain && !drains.empty()) {
    attach_finding(w, *drains.front(), m.a.sources);
    w.message += fmt::format("; once resumed, the files drain it again: {}", w.predicted_reason);
  }
  return w;
}

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
  for (const GresItem& g : items) c[{g.name, by_type ? g.type : ""}] += g.count;
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
  for (const std::string& name : m.a.cluster.node_names)
    if ((!only || only->contains(name)) && !listed.count(name)) missing.push_back(name);
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

}  // namespace

WhyReport explain(const ControllerView& view, const Analysis& analysis, const std::optional<Hostlist>& only) {
  WhyReport r;
  r.slurm_version = analysis.version.version.str();
  r.controller_version = view.slurm_version();
  r.sources = view.sources;
  r.origin = view.origin;
  r.inputs = analysis.inputs;
  Model m(analysis);
  SlurmConfFacts facts;
  read_slurm_conf(analysis, facts);
  const ControllerConfig* config = view.config ? &*view.config : nullptr;
  for (const ControllerNode& n : view.nodes) {
    if (only && !only->contains(n.name)) continue;
    ++r.nodes_seen;
    if (n.unavailable()) r.nodes.push_back(explain_node(n, m, config));
  }
  controller_drift(m, r.drift);
  if (config) settings_drift(*config, facts, r.drift);
  file_time_drift(view, analysis, only, r.drift);
  node_drift(view, m, facts, r.nodes, only, r.drift);
  return r;
}

}  // namespace greslint::why
