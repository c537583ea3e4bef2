// SPDX-License-Identifier: Apache-2.0
// slurmd (stages B-E) and slurmctld (stage F) for one node class (slurm-semantics.md §8).
#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "model/shared_gres.hpp"
#include "rules/node_registration_rules.hpp"
#include "rules/rules.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {

/// The count slurmctld sees for one name: each record's count (a device file list counts at
/// most 1024), except File-less GPUs under AutoDetect, which stand for devices to detect.
std::uint64_t reported_count(const std::vector<GresRecord>& recs, const std::string& name, bool detect) {
  std::uint64_t reported = 0;
  for (const GresRecord& r : recs)
    if (!(detect && !r.files))
      reported += (r.files && r.count > 1024 && name != "mps" && name != "shard") ? 1024 : r.count;
  return reported;
}

/// slurmctld rebuilds a name's per-device topology only for records it tracks per device
/// (_foreach_rebuild_topo): device files with a Type= or Cores=, or 23.02+ GPUs shared by
/// mps/shard.
bool tracked_per_device(const rules::RegistrationView& v) {
  const auto& recs = v.records;
  const bool has_file = std::any_of(recs.begin(), recs.end(), [](const GresRecord& r) { return r.files.has_value(); });
  return has_file && (std::any_of(recs.begin(), recs.end(), [](const GresRecord& r) { return r.type || r.cores; }) ||
                      (v.profile.version() >= kSlurm2302 && v.name == "gpu" && v.shared_on_node));
}

void Analyzer::evaluate(NodeClass& cls, const NodeLine& node, const std::vector<const GresLine*>& lines,
                        const std::string& rep) {
  const Topology& topo = node.topo;
  cls.sockets = topo.sockets;
  cls.cores_per_socket = topo.cores;
  cls.threads_per_core = topo.threads;
  cls.cpus = topo.cpus;
  cls.configured_gres = node.gres;
  cls.configured_gres_span = node.gres_span;
  // slurmctld runs slurmd's gres.conf load itself at start-up for CLOUD nodes (_gres_reconfig).
  ClassReplay rp{cls, node, lines, node.cloud ? Verdict::slurmctld_fatal : Verdict::slurmd_fatal,
                 rules::GresLoad{profile_, node, grestypes_}};
  check_node_gres(rp);                                       // B: slurm.conf Gres=
  if (!read_records(rp)) return;  // C: gres.conf for this node
  if (!check_names(rp)) return;                              // D: each name's records
  merge_with_slurm_conf(rp);
  if (!load_plugins(rp)) return;  // E: the plugins load them
  register_node(rp, rep);         // F: slurmctld validates
  list_effective_gres(rp);        // what slurmd -G prints
}

// Stage B: slurm.conf Gres=, its tokens filtered by name (B5) and counted per name.
void Analyzer::check_node_gres(ClassReplay& rp) {
  const NodeLine& node = rp.node;
  std::string filtered;
  std::vector<std::string_view> dropped;
  for (std::string_view tok : node.gres.empty() ? std::vector<std::string_view>{} : split_commas(node.gres)) {
    if (!in_grestypes_exact(tok.substr(0, tok.find(':')))) {
      dropped.push_back(tok);
      continue;
    }
    if (!filtered.empty()) filtered += ',';
    filtered += tok;
  }
  std::map<std::string, GresCount>& conf = rp.conf;
  for (const std::string& name : grestypes_) conf.emplace(name, count_gres(filtered, name));
  const rules::NodeGresView gres_view{node, grestypes_, dropped, conf};
  for (const auto& check : rules::kNodeGresStage) {
    const std::size_t before = findings_.reported_count();
    if (check.run(gres_view, findings_).kind() != rules::Outcome::Kind::degraded) continue;
    degrade(rp.cls);
    // slurmctld builds every node's GRES from slurm.conf at start-up (gres_init_node_config):
    // a line it logs there without naming a node is in its log for every node (s2042 m86).
    if (findings_.quotes_line_without_node(before)) ctld_startup_logged_ = true;
  }
}

// Stage F: slurmctld at registration, per name (§6.F, order as in §8 step 6-8).
void Analyzer::register_node(ClassReplay& rp, const std::string& rep) {
  const bool config_overrides = [&] {
    const KeyValue* p = setting("SlurmdParameters");
    return p && icontains(p->value, "config_overrides");
  }();
  // With shared GRES configured, slurmd lists GPUs one record per file.
  const bool shared_on_node = std::any_of(grestypes_.begin(), grestypes_.end(), [&](const std::string& n) {
    return is_shared_name(n) && rp.conf[n].total > 0;
  });
  std::optional<std::string> drain_reason;  // the first one is what scontrol shows
  GpuRegistration gpus;
  for (const std::string& name : grestypes_) {
    // F7: slurmctld finds no plugin for a record whose name is not spelled as GresTypes has it.
    std::vector<GresRecord> recs, misspelled;
    for (const GresRecord& r : rp.merged[name]) (r.name == name ? recs : misspelled).push_back(r);
    const bool detect = name == "gpu" && rp.gpus_detected;  // File-less GPUs are found by AutoDetect
    rules::RegistrationView view{profile_,   rp.node,        rep,
                                 name,       rp.conf[name],  recs,
                                 misspelled, rp.records,     reported_count(recs, name, detect),
                                 detect,     shared_on_node, config_overrides,
                                 false};
    view.ctld_walked_at_startup = rp.node.cloud && !rp.autodetect_active;
    register_name(rp.cls, view, drain_reason);
    if (name == "gpu") {
      // slurmd drops its File-less GPUs before it registers: slurmctld has the others, with
      // the cores its topology walk read (RegistrationView::walk_end). Past where the walk
      // stopped, 26.05 keeps no slot, earlier releases an empty one (s2103 m33, case gm66).
      const std::size_t walked = view.walk_end();
      for (std::size_t i = 0; i < recs.size(); ++i) {
        if (!recs[i].files) continue;
        if (i >= walked && profile_.unread_records_leave_topology()) continue;
        gpus.records.push_back(recs[i]);
        if (i >= walked) gpus.records.back().core_bits.reset();
      }
      gpus.any = rp.conf[name].total > 0 || !gpus.records.empty();
      gpus.detected = detect;
      gpus.shared = shared_on_node && rp.conf[name].total > 0;
    }
  }
  register_node_state(rp, rep, drain_reason, gpus);
  if (drain_reason) drain(rp.cls, *drain_reason);
}

// validate_node_specs after the GRES: the node's state decides what the registration makes of
// it. A refused registration (INVALID_REG) drains only a node that is not DOWN, DRAIN or FAIL
// already; 23.02+ then sets its reason all the same, 22.05 leaves it empty.
void Analyzer::register_node_state(ClassReplay& rp, const std::string& rep, std::optional<std::string>& drain_reason,
                                   const GpuRegistration& gpus) {
  rules::HeldState held = held_state(rp.node);
  std::string_view state = rp.node.state, reason = rp.node.reason;
  Span state_at = rp.node.state_span;
  const DownNodesOverride* down = nullptr;
  if (const std::uint32_t n = rp.cls.nodes.front(); n < down_of_.size() && down_of_[n] != 0) {
    down = &down_overrides_[down_of_[n] - 1];
    if (down->state_set) {
      held = down->held;
      state = down->state;
      state_at = down->state_at;
    }
    reason = down->reason;
  }
  // A node already DOWN, DRAIN or FAIL keeps its reason in 22.05 when the GRES checks refuse it.
  if (drain_reason && held != rules::HeldState::none && profile_.version() < kSlurm2302)
    drain_reason = std::string(reason);
  const KeyValue* rts = setting("ReturnToService");
  std::uint16_t ret2service = 0;  // DEFAULT_RETURN_TO_SERVICE in every modelled release
  if (rts) {  // s_p_get_uint16: strtoul in any base; a value it refuses stops slurmctld earlier (GRS003)
    char* end = nullptr;
    const std::string text(rts->value);
    const unsigned long v = std::strtoul(text.c_str(), &end, 0);
    ret2service = iequals(rts->value, "UNLIMITED") || iequals(rts->value, "INFINITE") ? 0xfffe
                  : (end && *end == '\0' && v <= 0xffff) ? std::uint16_t(v)
                                                          : 0;
  }
  rules::NodeRegistrationView view{profile_,
                                   rp.node,
                                   rep,
                                   held,
                                   state,
                                   state_at,
                                   reason,
                                   down != nullptr && down->state_set,
                                   rts,
                                   ret2service,
                                   false,
                                   {},
                                   gpus.any ? &gpus.records : nullptr,
                                   gpus.detected,
                                   gpus.shared};
  for (const auto& check : rules::kRegistrationNodeStage) {
    view.invalid_reg = drain_reason.has_value();
    view.drain_reason = drain_reason ? std::string_view(*drain_reason) : std::string_view();
    const rules::Outcome o = check.run(view, findings_);
    if (o.lifts_earlier_drain()) drain_reason.reset();
    if (o.kind() == rules::Outcome::Kind::drain && (!drain_reason || o.replaces_earlier_reason())) drain_reason = o.reason();
    if (o.kind() == rules::Outcome::Kind::degraded) degrade(rp.cls);
    if (o.skips_rest()) break;
  }
  // drain_nodes keeps a reason the node already has, unless it is "Not responding"
  // (_drain_node, every release): slurm.conf's Reason= or a DownNodes= line's, on a node that
  // is not DOWN, DRAIN or FAIL, is what scontrol shows (case gm76).
  if (drain_reason && held == rules::HeldState::none && !reason.empty() && reason.rfind("Not responding", 0) != 0)
    drain_reason = std::string(reason);
}

void Analyzer::list_effective_gres(ClassReplay& rp) {
  for (const std::string& name : grestypes_) {
    for (const GresRecord& r : rp.merged[name]) {
      // slurmd -G lists every merged record, a count of 0 included (a Count=M record, a GresTypes
      // name the node lacks); only GPUs without File= are dropped before it prints.
      if (r.count == 0 && r.name == "gpu") continue;
      auto emit = [&](const GresRecord& rec, std::uint64_t count, std::optional<std::string> files) {
        EffectiveGres g;
        g.name = rec.name;
        g.type = rec.type;
        g.count = count;
        g.files = std::move(files);
        g.cores = rec.cores;
        g.links = rec.links;
        g.flags = rec.flags;
        rp.cls.gres.push_back(std::move(g));
      };
      emit(r, r.count, r.files);
    }
  }
}

void Analyzer::register_name(NodeClass& cls, rules::RegistrationView& view, std::optional<std::string>& drain_reason) {
  auto run = [&](const auto& stage) {
    for (const auto& check : stage) {
      view.drained = drain_reason.has_value();
      const rules::Outcome o = check.run(view, findings_);
      if (o.kind() == rules::Outcome::Kind::drain && !drain_reason) drain_reason = o.reason();
      if (o.kind() == rules::Outcome::Kind::degraded) degrade(cls);
      if (o.skips_rest()) return false;
    }
    return true;
  };
  if (run(rules::kRegistrationCountStage) && tracked_per_device(view)) run(rules::kRegistrationTopologyStage);
}

}  // namespace greslint::model

namespace greslint::model {

bool Analyzer::share_gres_devices(ClassReplay& rp, const std::string& name) {
  std::map<std::string, std::vector<GresRecord>>& merged = rp.merged;
  std::vector<GresRecord> no_gpus;
  auto gpu = std::find_if(merged.begin(), merged.end(), [](const auto& kv) { return iequals(kv.first, "gpu"); });
  const std::vector<GresRecord> before = merged[name];
  const ShareOutcome o = share_devices(gpu == merged.end() ? no_gpus : gpu->second, merged[name], name,
                                       profile_.sharing_splits_multiple_files());
  const rules::GresPluginView view{rp.load, name, before, &o};
  if (run_load_stage(rp, rules::kGresPluginLoadStage, view) == LineRead::stop) return false;
  // _build_shared_dev_info: with no shared count at all on the node, the plugin's records go.
  std::uint64_t total = 0;
  for (const auto& [n, recs] : merged)
    if (is_shared_name(n)) total += shared_total(recs);
  if (total == 0) {
    std::vector<GresRecord>& recs = merged[name];
    recs.erase(std::remove_if(recs.begin(), recs.end(), [&](const GresRecord& r) { return r.name == name; }),
               recs.end());
  }
  return true;
}

}  // namespace greslint::model
