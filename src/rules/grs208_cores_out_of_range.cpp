// SPDX-License-Identifier: Apache-2.0
// GRS208 cores-out-of-range: Cores=/CPUs= names core indexes the node does not have: the GPU loses its core binding (docs/rules/GRS208.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS208{"GRS208", "cores-out-of-range", Severity::warning, Effect::degraded, Daemon::slurmd,
                      "Cores=/CPUs= names core indexes the node does not have: the GPU loses its core binding"};

// _parse_gres_config reads Cores= against the node's cores; slurmctld, which reads gres.conf
// for CLOUD nodes, against their CPU count first (C10b).
Outcome check_grs208(const GresRecordView& v, Findings& out) {
  const KeyValue* cores = v.keys.cores;
  if (!cores) return Outcome::proceed();
  const Topology& topo = v.load.node.topo;
  if (v.load.node.cloud && !v.cores_fit_cpus) {
    std::string slurm = fmt::format("Invalid GRES data for {}, {}={} (only {} CPUs are available)", v.record.name,
                                    cores->spec->name, cores->value, topo.cpus);
    v.load
        .report(out, GRS208, cores->value_span,
                fmt::format("{}={} is beyond the {} CPUs of CLOUD nodes {}; slurmctld checks it and exits", cores->key,
                            cores->value, topo.cpus, kNodes))
        .slurm(slurm)
        .effect(Effect::fatal, Daemon::slurmctld)
        .severity(Severity::error)
        .help(fmt::format("use core indexes below {}", topo.core_count()));
    return Outcome::slurmctld_fatal(std::move(slurm));
  }
  if (v.record.core_bits) return Outcome::proceed();
  v.load
      .report(out, GRS208, cores->value_span,
              fmt::format("{}={} is outside the node's cores 0-{} ({} sockets x {} cores); {} takes core "
                          "indexes, not CPU ids",
                          cores->key, cores->value, topo.core_count() - 1, topo.sockets, topo.cores, cores->key))
      .slurm(fmt::format("Invalid GRES data for {}, {}={}", v.record.name, cores->spec->name, cores->value))
      .help(fmt::format("use core indexes below {} (check Sockets/CoresPerSocket in slurm.conf)", topo.core_count()));
  return Outcome::degraded();
}

}  // namespace greslint::rules
