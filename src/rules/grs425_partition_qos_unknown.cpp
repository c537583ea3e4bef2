// SPDX-License-Identifier: Apache-2.0
// GRS425 partition-qos-unknown: a partition's QOS= or AllowQos= names a QOS the show-qos file
// does not define. docs/rules/GRS425.md.
#include <fmt/format.h>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "rules/limits_rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS425{"GRS425", "partition-qos-unknown", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a partition's QOS= or AllowQos= names a QOS that does not exist"};

Outcome check_grs425(const LimitsView& v, Findings& out) {
  if (!v.db.qos_known) return Outcome::proceed();  // without `sacctmgr show qos` the QOS are not known
  for (const limits::PoolPartition& p : v.pool.partitions) {
    if (p.qos && !v.db.find_qos(p.qos->value)) {
      // slurmctld/read_config.c:_build_single_partitionline_info: assoc_mgr_fill_in_qos fails
      // only when AccountingStorageEnforce has qos; otherwise the partition has no QOS.
      if (v.pool.enforce_qos) {
        const std::string line = fmt::format("Partition {} has an invalid qos ({}), please check your configuration",
                                             p.name, p.qos->value);
        out.report(GRS425, p.qos->value_span,
                   fmt::format("partition {} has QOS={}, which is not a QOS of the limits files: slurmctld exits",
                               p.name, p.qos->value))
            .severity(Severity::error)
            .effect(Effect::fatal, Daemon::slurmctld)
            .slurm(line)
            .help(fmt::format("sacctmgr add qos {}", p.qos->value));
      } else {
        out.report(GRS425, p.qos->value_span,
                   fmt::format("partition {} has QOS={}, which is not a QOS of the limits files: slurmctld gives "
                               "the partition no QOS, so its limits do not apply",
                               p.name, p.qos->value))
            .help(fmt::format("sacctmgr add qos {}", p.qos->value));
      }
    }
    if (p.allow_qos && !iequals(p.allow_qos->value, "ALL")) {
      std::vector<std::string> unknown;
      std::size_t known = 0;
      for (std::string_view name : split_commas_view(p.allow_qos->value)) {
        if (name.empty()) continue;
        if (v.db.find_qos(name))
          ++known;
        else
          unknown.emplace_back(name);
      }
      for (const std::string& name : unknown)
        out.report(GRS425, p.allow_qos->value_span,
                   fmt::format("partition {} has AllowQos naming {}, which is not a QOS of the limits files{}",
                               p.name, name,
                               known == 0 ? ": no QOS may use the partition, and its jobs pend (QOSNotAllowed)" : ""))
            .help("name QOS that sacctmgr show qos lists");
    }
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
