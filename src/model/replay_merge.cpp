// SPDX-License-Identifier: Apache-2.0
// Stages D and E of the replay for one node class: slurmd checks the node's gres.conf
// records against each other and slurm.conf, merges them with the slurm.conf counts, and
// each GRES plugin loads its records (slurm-semantics.md §5, §8).
#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

#include "gres_parse.hpp"
#include "model/analyzer.hpp"
#include "model/shared_gres.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint::model {

// Stage D, per GRES name in Slurm's context order: gres.conf checked against itself and
// slurm.conf (_validate_gres_conf, _check_conf_mismatch), then merged with slurm.conf.
bool Analyzer::check_names(ClassReplay& rp) {
  for (const std::string& name : grestypes_) {
    std::vector<GresRecord> recs;
    for (const GresRecord& r : rp.records)
      if (iequals(r.name, name)) recs.push_back(r);
    if (!check_record_mix(rp, name, recs)) return false;
    check_beyond_slurm_conf(rp, name, recs);
    rp.merged[name] = std::move(recs);
  }
  return true;
}

// D2, D3, D4: records of one name with and without File= or Type=.
bool Analyzer::check_record_mix(ClassReplay& rp, const std::string& name, const std::vector<GresRecord>& recs) {
  const auto with_file =
      std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.files.has_value(); });
  const auto with_type =
      std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return r.type.has_value(); });
  auto fatal_record = [&](const RuleInfo& rule, const GresRecord& at, std::string message, std::string slurm,
                          std::string help) {
    report_load(rp, rule, at.line->d->head().value_span, std::move(message)).slurm(slurm).help(std::move(help));
    fatal(rp.cls, rp.load_fatal, slurm);
  };
  if (with_file > 0 && with_file < std::ptrdiff_t(recs.size())) {
    const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files; });
    fatal_record(rules::GRS217, odd,
                 fmt::format("this {} line has no File= while other {} lines for {} have one", name, name, kNodes),
                 fmt::format("gres.conf for {}, some records have \"File\" specification while others do not", name),
                 "give every line of this GRES a File= (or none)");
    return false;
  }
  if (with_type > 0 && with_type < std::ptrdiff_t(recs.size())) {
    const GresRecord& odd = *std::find_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.type; });
    fatal_record(rules::GRS218, odd,
                 fmt::format("this {} line has no Type= while other {} lines for {} have one", name, name, kNodes),
                 fmt::format("gres.conf for {}, some records have \"Type=\" specification while others do not", name),
                 "give every line of this GRES a Type= (or none)");
    return false;
  }
  if (std::count_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files && !r.type; }) > 1) {
    const GresRecord& second =
        *std::find_if(recs.begin() + 1, recs.end(), [](const GresRecord& r) { return !r.files && !r.type; });
    fatal_record(rules::GRS219, second,
                 fmt::format("a second {} line with neither File= nor Type= for {}", name, kNodes),
                 fmt::format("gres.conf duplicate records for {}", name),
                 "keep one such line (AutoDetect needs no Name= line at all)");
    return false;
  }
  return true;
}

// D5: what gres.conf has beyond slurm.conf (_check_conf_mismatch).
void Analyzer::check_beyond_slurm_conf(ClassReplay& rp, const std::string& name, const std::vector<GresRecord>& recs) {
  const GresCount& c = rp.conf[name];
  std::vector<std::uint64_t> left;
  for (const GresRecord& r : recs) left.push_back(r.count);
  auto consume = [&](std::uint64_t count, const std::string* type) {
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const bool match =
          type ? (recs[i].type ? iequals(*recs[i].type, *type) : !profile_.untyped_record_vs_typed_conf_warns())
               : !recs[i].type.has_value();
      if (!match) continue;
      if (left[i] > count) {
        left[i] -= count;
        return;
      }
      count -= left[i];
      left[i] = 0;
    }
  };
  if (c.types.empty())
    consume(c.total, nullptr);
  else
    for (const auto& t : c.types) consume(t.count, &t.type);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (left[i] == 0) continue;
    std::string label = name + (recs[i].type ? ":" + *recs[i].type : "");
    std::string why;
    if (!c.present)
      why = fmt::format("slurm.conf gives {} no {}", kNodes, name);
    else if (c.types.empty() && recs[i].type)
      why = fmt::format("slurm.conf Gres= is untyped, so Slurm keeps these GPUs but drops Type={}", *recs[i].type);
    else if (!recs[i].type)
      why = fmt::format("slurm.conf Gres= is typed and this line has no Type=");
    else
      why = fmt::format("slurm.conf configures {} {}", c.total, name);
    report_load(rp, rules::GRS302, recs[i].line->d->head().value_span,
                fmt::format("gres.conf has {} more {} than slurm.conf expects on {}: {}", left[i], label, kNodes, why))
        .slurm(fmt::format("A line in gres.conf for GRES {} has {} more configured than expected in slurm.conf. "
                           "Ignoring extra GRES.",
                           label, left[i]))
        .related(rp.node.gres_span, "slurm.conf Gres= for these nodes")
        .help(!c.present ? fmt::format("add Gres={}{}:{} to these nodes in slurm.conf, or drop the gres.conf line",
                                       name, recs[i].type ? ":" + *recs[i].type : std::string(), recs[i].count)
              : c.types.empty() && recs[i].type
                  ? fmt::format("write Gres={}:{}:N in slurm.conf to keep the type", name, *recs[i].type)
                  : "make slurm.conf Gres= and gres.conf agree");
    degrade(rp.cls);
  }
}

// D6: each name's records merged with the slurm.conf counts.
void Analyzer::merge_with_slurm_conf(ClassReplay& rp) {
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
        out.push_back(std::move(filler));
      }
    };
    if (c.types.empty())
      take(nullptr, c.total);
    else
      for (const auto& t : c.types) take(&t.type, t.count);
    rp.merged[name] = std::move(out);
  }
}

bool Analyzer::load_plugins(ClassReplay& rp) {
  // Stage E: each plugin loads its records, in context order (node_config_load).
  for (const std::string& name : grestypes_) {
    if (is_shared_name(name)) {
      if (!share_gres_devices(rp.cls, rp.merged, name, rp.load_fatal)) return false;
      continue;
    }
    // E1: the same device file twice.
    {
      std::unordered_map<std::string, const GresRecord*> seen;
      for (const GresRecord& r : rp.merged[name]) {
        if (r.multiple_files || r.name != name) continue;
        for (const std::string& p : r.paths) {
          auto [it, fresh] = seen.emplace(p, &r);
          if (fresh) continue;
          std::string slurm =
              name == "gpu" ? "Gres GPU plugin failed to load configuration" : "failed to load configuration";
          report_load(rp, rules::GRS220, r.line ? r.span_of("File") : rp.node.gres_span,
                      fmt::format("device file {} is listed twice for {}", p, kNodes))
              .slurm(fmt::format("{} duplicate device file name ({})", name, p))
              .related(it->second->line ? it->second->span_of("File") : Span{}, "first listed here")
              .help("list each device file once");
          fatal(rp.cls, rp.load_fatal, slurm);
          return false;
        }
      }
    }
  }
  // E3: GPUs without File are dropped (unless AutoDetect fills them in).
  if (!rp.autodetect_active)
    for (auto& [name, recs] : rp.merged)
      if (iequals(name, "gpu"))
        recs.erase(std::remove_if(recs.begin(), recs.end(), [](const GresRecord& r) { return !r.files; }), recs.end());
  return true;
}

}  // namespace greslint::model
