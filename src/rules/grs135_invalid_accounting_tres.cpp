// SPDX-License-Identifier: Apache-2.0
// GRS135 invalid-accounting-tres: AccountingStorageTRES names a TRES of no type slurmctld
// knows: slurmctld exits (docs/rules/GRS135.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "slurm_lists.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS135{"GRS135", "invalid-accounting-tres", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "AccountingStorageTRES names a TRES slurmctld does not know: slurmctld exits"};

std::optional<std::string> init_tres_refuses(std::string_view tres, const VersionProfile& profile) {
  if (!is_known_tres_type(tres))
    return fmt::format(
        "_init_tres: Unknown tres type '{}', acceptable types are "
        "Billing,CPU,Energy,FS/,Gres/,IC/,License/,Mem,Node,Pages,VMem",
        tres);
  // Renamed in 17.11; the reminder is gone from 24.05.
  if (tres == "bb/cray" && profile.version() < kSlurm2405)
    return std::string(
        "The Burst Buffer tres 'bb/cray' changed to 'bb/datawarp'.  Please alter AccountingStorageTRES in your "
        "slurm.conf and restart.");
  return std::nullopt;
}

Span tres_word_span(const KeyValue& tres, std::string_view word) {
  const std::string lower = to_lower(tres.value);
  const std::size_t at = lower.find(word);
  if (word.empty() || at == std::string::npos) return tres.value_span;
  Span s = tres.value_span;
  s.begin += static_cast<std::uint32_t>(at);
  s.end = s.begin + static_cast<std::uint32_t>(word.size());
  return s;
}

// controller.c:_init_tres walks the TRES in order and exits at the first it cannot use:
// a type it does not know (here) or, without slurmdbd, one that needs an id from the
// database (GRS404). Whichever comes first is the fatal.
Outcome check_grs135(const SlurmConfView& v, Findings& out) {
  const KeyValue* tres = v.settings.find("AccountingStorageTRES");
  if (!tres) return Outcome::proceed();
  const bool with_slurmdbd = uses_slurmdbd(v.settings);
  for (const std::string& word : accounting_tres_list(tres->value, v.profile)) {
    if (std::optional<std::string> slurm = init_tres_refuses(word, v.profile)) {
      const bool unknown = !is_known_tres_type(word);
      out.report(GRS135, tres_word_span(*tres, word),
                 unknown ? fmt::format("AccountingStorageTRES names '{}', which is no TRES type; slurmctld exits", word)
                         : fmt::format("AccountingStorageTRES names bb/cray, which slurmctld {} refuses; slurmctld exits",
                                       v.profile.version().str()))
          .slurm(*slurm)
          .help(unknown ? "a GPU is tracked as gres/gpu (or gres/gpu:TYPE); the types are cpu, mem, energy, node, "
                          "billing, vmem, pages and bb/NAME, gres/NAME, license/NAME, fs/NAME, ic/NAME"
                        : "write bb/datawarp");
      return Outcome::slurmctld_fatal(std::move(*slurm));
    }
    if (!with_slurmdbd && tres_needs_slurmdbd(word)) return Outcome::proceed();  // GRS404's fatal
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
