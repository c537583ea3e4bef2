// SPDX-License-Identifier: Apache-2.0
// GRS130 cpus-not-cores-or-threads: with cons_res/cons_tres, a node whose CPUs= is neither
// its core count nor its thread count: slurmctld 22.05 exits (docs/rules/GRS130.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"

namespace greslint::rules {

const RuleInfo GRS130{"GRS130", "cpus-not-cores-or-threads", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "CPUs= is neither the cores nor the threads of the node: slurmctld 22.05 exits (cons_res/cons_tres)"};

// After Slurm's own topology corrections (GRS101), CPUs=Sockets is still accepted by the
// parser but not by the consumable-resource plugins, which count CPUs as cores or threads.
// The check left cons_common.c in 23.02.
Outcome check_grs130_cpus_not_cores_or_threads(const NodeTableView& v, Findings& out) {
  if (v.profile.version() >= kSlurm2302) return Outcome::proceed();
  const std::string select = effective_select_type(v.settings, v.profile);
  if (select != "select/cons_tres" && select != "select/cons_res") return Outcome::proceed();
  for (const NodeTopology& n : v.lines) {
    const Topology& t = n.line->topo;
    const std::uint32_t cores = t.sockets * t.cores;
    if (t.cpus == cores || t.cpus == cores * t.threads) continue;
    const std::string line = fmt::format(
        "NodeName={} CPUs={} doesn't match neither Sockets({})*CoresPerSocket({})=({}) nor "
        "Sockets({})*CoresPerSocket({})*ThreadsPerCore({})=({}).  Please fix your slurm.conf.",
        n.first_node, t.cpus, t.sockets, t.cores, cores, t.sockets, t.cores, t.threads, cores * t.threads);
    out.report(GRS130, n.line->names_span(),
               fmt::format("{}: CPUs={} is neither the {} cores nor the {} threads; {} cannot start", n.line->names_text(),
                           t.cpus, cores, cores * t.threads, select))
        .slurm(line)
        .help(fmt::format("set CPUs={} (or drop CPUs= and let Slurm count)", cores * t.threads));
    return Outcome::slurmctld_fatal(line);
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
