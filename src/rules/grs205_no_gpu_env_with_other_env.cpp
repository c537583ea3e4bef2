// SPDX-License-Identifier: Apache-2.0
// GRS205 no-gpu-env-with-other-env: Flags=no_gpu_env combined with another *_env flag: slurmd exits (docs/rules/GRS205.md).
#include <fmt/format.h>

#include "rules.hpp"

namespace greslint::rules {

const RuleInfo GRS205{"GRS205", "no-gpu-env-with-other-env", Severity::error, Effect::fatal, Daemon::slurmd,
                      "Flags=no_gpu_env combined with another *_env flag: slurmd exits"};

// _parse_gres_config: no_gpu_env against the env flags of the record and of the previous
// record of the name (§5.6).
Outcome check_grs205(const GresRecordView& v, Findings& out) {
  if (v.flags_check != model::PreviousFlags::Check::no_gpu_env_mixed) return Outcome::proceed();
  std::string slurm = fmt::format(
      "Invalid GRES record name={} type={}: Flags ({}) contains \"no_gpu_env\", which must be mutually "
      "exclusive to all other GRES env flags of same node and name",
      v.record.name, v.record.type ? *v.record.type : "(null)", v.flags->value);
  v.load.report(out, GRS205, v.flags->value_span, "no_gpu_env cannot be combined with another *_env flag")
      .slurm(slurm)
      .help("keep either no_gpu_env or the *_env flags");
  return Outcome::slurmd_fatal(std::move(slurm));
}

}  // namespace greslint::rules
