// SPDX-License-Identifier: Apache-2.0
#include "commands/why_explain.hpp"
#include "commands/why_model.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "model/analyzer.hpp"
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
    case Cause::held_by_files: return "held-by-files";
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

namespace detail {

Place place_of(const SourceManager& sources, Span span) {
  Place p;
  if (!span.valid()) return p;
  p.file = sources.path(span.file);
  LineCol lc = sources.line_col(span.file, span.begin);
  p.line = lc.line;
  p.column = lc.column;
  return p;
}

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

FindingIndex::FindingIndex(const Analysis& a) {
  const VersionProfile profile(a.version.version);
  for (const Diagnostic& d : a.findings) {
    if (d.nodes.empty()) continue;
    auto l = parse_hostlist(d.nodes, Span{}, profile);
    if (!l.ok()) continue;
    l.list->for_each([&](const std::string& h, const HostRange&) { by_node_[h].push_back(&d); });
  }
}

}  // namespace detail

using namespace detail;

namespace {

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


/// The first finding that has `node`'s slurmd exit at start, or null.
const Diagnostic* slurmd_fatal(const Model& m, const std::string& node) {
  const auto fatal = m.findings.of(node, Effect::fatal);
  const auto it = std::find_if(fatal.begin(), fatal.end(), [](const Diagnostic* d) { return d->daemon == Daemon::slurmd; });
  return it == fatal.end() ? nullptr : *it;
}

/// "slurmd on N exits at start: ..." in Slurm's words where the finding has them.
std::string slurmd_exits(const std::string& node, const Diagnostic& d) {
  return fmt::format("slurmd on {} exits at start: {}", node, d.slurm_message.empty() ? d.message : d.slurm_message);
}

/// A node that never registered: slurmd died at start (a finding says why) or is not running.
void explain_unregistered(NodeWhy& w, const ControllerNode& n, const Model& m) {
  if (const Diagnostic* slurmd = slurmd_fatal(m, n.name)) {
    w.cause = Cause::explained;
    attach_finding(w, *slurmd, m.a.sources);
    w.message = slurmd_exits(n.name, *slurmd);
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

/// The state slurm.conf gives a node before it registers, when that keeps it out of service
/// (DOWN, DRAIN, FAIL): the last DownNodes= line that names it, else its NodeName line.
struct HeldByFiles {
  std::string_view state, reason;
  Span state_at;
  bool by_down_nodes = false;
};

std::optional<HeldByFiles> held_by_files(const Cluster& c, std::uint32_t node) {
  if (!c.config || node >= c.node_line_of.size()) return std::nullopt;
  const NodeLine& line = c.config->node_lines[c.node_line_of[node]];
  HeldByFiles h;
  if (line.state_span.valid()) {
    h.state = line.state;
    h.state_at = line.state_span;
  }
  h.reason = line.reason;
  if (node < c.down_nodes_of.size() && c.down_nodes_of[node] != 0) {
    const DownNodesState& d = c.down_nodes[c.down_nodes_of[node] - 1];
    if (!d.state.empty()) {
      h.state = d.state;
      h.state_at = d.state_at;
      h.by_down_nodes = true;
    }
    h.reason = d.reason;  // State=UNKNOWN keeps the state, not the reason
  }
  if (h.state.empty() || model::held_state(h.state) == rules::HeldState::none) return std::nullopt;
  return h;
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
  const std::optional<HeldByFiles> held = held_by_files(m.a.cluster, m.index.at(n.name));
  if (held && same_reason(std::string(held->reason), n.reason, n.reason_truncated)) {
    // An admin's reason too, but written into slurm.conf: the line is the place to look.
    w.cause = Cause::held_by_files;
    w.message = fmt::format(
        "slurm.conf holds it: its {} says State={}{}, which slurmctld gives the node when it starts without saved "
        "state. To put the node in service, resume it and take State= off that line, or a clean start holds it "
        "again",
        held->by_down_nodes ? "DownNodes= line" : "NodeName line", held->state,
        held->reason.empty() ? std::string() : fmt::format(" Reason=\"{}\"", held->reason));
    w.commands = {resume(n.name)};
    // Its slurmd may not start either: say so, or the resume only trades one state for another.
    if (const Diagnostic* slurmd = slurmd_fatal(m, n.name)) {
      attach_finding(w, *slurmd, m.a.sources);
      w.related.insert(w.related.begin(), w.place);  // the slurmd fatal's line, after the State= one
      w.related_messages.insert(w.related_messages.begin(), fmt::format("{} {}", slurmd->rule->id, slurmd->message));
      w.message += "; and " + slurmd_exits(n.name, *slurmd);
      w.commands.insert(w.commands.begin(), restart_slurmd(n.name));
    }
    w.place = place_of(m.a.sources, held->state_at);
  } else {
    classify_reason(w, n, m, config, drains);
  }
  // A drain the files also predict is worth saying even when this one is someone else's.
  if (w.cause != Cause::predicted_other && cls->verdict == Verdict::drain && !drains.empty()) {
    attach_finding(w, *drains.front(), m.a.sources);
    w.message += fmt::format("; once resumed, the files drain it again: {}", w.predicted_reason);
  }
  return w;
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
