// SPDX-License-Identifier: Apache-2.0
// Stages D and E of the replay for one node class: slurmd checks the node's gres.conf
// records against each other and slurm.conf, merges them with the slurm.conf counts, and
// each GRES plugin loads its records (slurm-semantics.md §5, §8).
#include <algorithm>
#include <fmt/format.h>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "model/gres_flags.hpp"
#include "model/shared_gres.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {

// Stage D, per GRES name in Slurm's context order: gres.conf checked against itself and
// slurm.conf (kGresNameStage), then merged with slurm.conf.
bool Analyzer::check_names(ClassReplay& rp) {
  for (const std::string& name : grestypes_) {
    std::vector<GresRecord> recs;
    for (const GresRecord& r : rp.records)
      if (iequals(r.name, name)) recs.push_back(r);
    const rules::GresNameView view{rp.load, name, rp.conf[name], recs};
    if (run_load_stage(rp, rules::kGresNameStage, view) == LineRead::stop) return false;
    rp.merged[name] = std::move(recs);
  }
  return true;
}

namespace {

/// slurmd adds the part of a slurm.conf count that gres.conf does not cover with
/// add_gres_to_list, which overwrites the merged list's first record (of any GRES) when that
/// record has a count of 0, and appends otherwise (s2030 m1499: a Count=M nic record, first
/// once slurm.conf's GPUs were dropped, becomes the remainder). `first` is the list, among
/// the GRES merged before this one, that holds the first record; null when they have none.
void add_remainder(std::vector<GresRecord>& out, GresRecord remainder, std::vector<GresRecord>* first) {
  if (!first && !out.empty()) first = &out;
  if (!first || first->front().count != 0) {
    out.push_back(std::move(remainder));
    return;
  }
  first->erase(first->begin());
  out.insert(out.begin(), std::move(remainder));  // the whole list's first record now
}

}  // namespace

// D6: each name's records merged with the slurm.conf counts.
void Analyzer::merge_with_slurm_conf(ClassReplay& rp) {
  std::vector<std::vector<GresRecord>*> done;  // the merged lists so far, in context order
  for (const std::string& name : grestypes_) {
    const GresCount& c = rp.conf[name];
    const std::vector<GresRecord>& recs = rp.merged[name];
    // D6: merge.
    std::vector<GresRecord> pool = recs, out;
    auto take = [&](const std::string* type, std::uint64_t count) {
      if (count == 0) return;
      for (auto it = pool.begin(); it != pool.end() && count > 0;) {
        if (type && !(it->type && iequals(*it->type, *type))) {
          ++it;
          continue;
        }
        GresRecord r = *it;
        it = pool.erase(it);
        if (!type) r.type.reset();
        if (r.count > count) {
          r.count = count;
          if (r.files && count < r.paths.size()) {  // _set_file_subset: the first `count` files
            r.paths.resize(count);
            r.files = fold_hostnames(r.paths, false);
          }
          count = 0;
        } else {
          count -= r.count;
        }
        out.push_back(std::move(r));
      }
      if (count > 0) {
        GresRecord filler;
        filler.origin = rp.node.gres_span;
        filler.name = name;
        if (type) filler.type = *type;
        filler.count = count;
        auto first = std::find_if(done.begin(), done.end(), [](const auto* l) { return !l->empty(); });
        add_remainder(out, std::move(filler), first == done.end() ? nullptr : *first);
      }
    };
    if (c.types.empty())
      take(nullptr, c.total);
    else
      for (const auto& t : c.types) take(&t.type, t.count);
    rp.merged[name] = std::move(out);
    done.push_back(&rp.merged[name]);
  }
}

bool Analyzer::load_plugins(ClassReplay& rp) {
  // Stage E: each plugin loads its records, in context order (node_config_load).
  for (const std::string& name : grestypes_) {
    if (is_shared_name(name)) {
      // Without its plugin (the GRES only counts) nothing lays mps/shard onto the GPUs
      // (s2031 m137, gm52). 23.02+ still checks the device files of a GRES without a
      // plugin (gres_node_config_load), so the other names keep their stage.
      if (!counts_only(rp.records, name) && !share_gres_devices(rp, name)) return false;
      continue;
    }
    const rules::GresPluginView view{rp.load, name, rp.merged[name], nullptr};
    if (run_load_stage(rp, rules::kGresPluginLoadStage, view) == LineRead::stop) return false;
  }
  // E3: GPUs without File are dropped (unless AutoDetect fills them in). From 23.02 each one
  // is a warning, "Ignoring file-less GPU gpu:(null) from final GRES list" (22.05: debug),
  // that names no node; slurmctld loads a CLOUD node's gres.conf itself at start-up, so the
  // warning is in its log for every node alike (rw66).
  if (!rp.gpus_detected)
    for (auto& [name, recs] : rp.merged)
      if (iequals(name, "gpu")) {
        const bool warned =
            std::any_of(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files && r.count > 0; });
        if (warned && rp.node.cloud && profile_.fileless_gpu_removal_is_warning())
          ctld_startup_logged_ = true;
        recs.erase(std::remove_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files; }), recs.end());
      }
  return true;
}

}  // namespace greslint::model
