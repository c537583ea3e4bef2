// SPDX-License-Identifier: Apache-2.0
// GRS302 gres-conf-excess-ignored: gres.conf describes more than slurm.conf configures: Slurm ignores the extra (docs/rules/GRS302.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS302{"GRS302", "gres-conf-excess-ignored", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "gres.conf describes more than slurm.conf configures: Slurm ignores the extra"};

namespace {
/// What each record keeps over the slurm.conf counts once they are taken from the records
/// in order (a typed count from records of its type; an untyped one from untyped records).
std::vector<std::uint64_t> excess(const GresNameView& v) {
  const auto& recs = v.records;
  std::vector<std::uint64_t> left;
  left.reserve(recs.size());
  for (const GresRecord& r : recs) left.push_back(r.count);
  auto consume = [&](std::uint64_t count, const std::string* type) {
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const bool match =
          type ? (recs[i].type ? iequals(*recs[i].type, *type) : !v.load.profile.untyped_record_vs_typed_conf_warns())
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
  if (v.configured.types.empty())
    consume(v.configured.total, nullptr);
  else
    for (const auto& t : v.configured.types) consume(t.count, &t.type);
  return left;
}

std::string why(const GresNameView& v, const GresRecord& r) {
  const GresCount& c = v.configured;
  if (!c.present) return fmt::format("slurm.conf gives {} no {}", kNodes, v.name);
  if (c.types.empty() && r.type)
    return fmt::format("slurm.conf Gres= is untyped, so Slurm keeps these GPUs but drops Type={}", *r.type);
  if (!r.type) return "slurm.conf Gres= is typed and this line has no Type=";
  return fmt::format("slurm.conf configures {} {}", c.total, v.name);
}

std::string help(const GresNameView& v, const GresRecord& r) {
  const GresCount& c = v.configured;
  if (!c.present)
    return fmt::format("add Gres={}{}:{} to these nodes in slurm.conf, or drop the gres.conf line", v.name,
                       r.type ? ":" + *r.type : std::string(), r.count);
  if (c.types.empty() && r.type) return fmt::format("write Gres={}:{}:N in slurm.conf to keep the type", v.name, *r.type);
  return "make slurm.conf Gres= and gres.conf agree";
}
}  // namespace

// gres.c:_check_conf_mismatch: what gres.conf has beyond slurm.conf, which slurmd ignores.
Outcome check_grs302(const GresNameView& v, Findings& out) {
  const std::vector<std::uint64_t> left = excess(v);
  bool any = false;
  for (std::size_t i = 0; i < v.records.size(); ++i) {
    if (left[i] == 0) continue;
    const GresRecord& r = v.records[i];
    const std::string label = v.name + (r.type ? ":" + *r.type : "");
    v.load
        .report(out, GRS302, r.line->d->head().value_span,
                fmt::format("gres.conf has {} more {} than slurm.conf expects on {}: {}", left[i], label, kNodes,
                            why(v, r)))
        .slurm(fmt::format("A line in gres.conf for GRES {} has {} more configured than expected in slurm.conf. "
                           "Ignoring extra GRES.",
                           label, left[i]))
        .related(v.load.node.gres_span, "slurm.conf Gres= for these nodes")
        .help(help(v, r));
    any = true;
  }
  return any ? Outcome::degraded() : Outcome::proceed();
}

}  // namespace greslint::rules
