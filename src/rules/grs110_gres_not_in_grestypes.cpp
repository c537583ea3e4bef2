// SPDX-License-Identifier: Apache-2.0
// GRS110 gres-not-in-grestypes: a Gres= token whose name is not spelled as in GresTypes is silently dropped (docs/rules/GRS110.md).
#include <algorithm>
#include <fmt/format.h>

#include "greslint/report.hpp"
#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS110{"GRS110", "gres-not-in-grestypes", Severity::warning, Effect::degraded, Daemon::slurmctld,
                      "a Gres= token whose name is not spelled as in GresTypes is silently dropped"};

namespace {
/// Where `token` sits in the Gres= value, when the value is written as read (no escapes).
Span token_span(const NodeLine& node, std::string_view token) {
  if (node.gres_span.size() != node.gres.size()) return node.gres_span;
  const auto offset = std::uint32_t(token.data() - node.gres.data());
  return Span{node.gres_span.file, node.gres_span.begin + offset, node.gres_span.begin + offset + std::uint32_t(token.size())};
}
}  // namespace

// gres_name_filter drops each token whose name GresTypes does not spell exactly.
Outcome check_grs110(const NodeGresView& v, Findings& out) {
  for (std::string_view tok : v.dropped) {
    const std::string_view name = tok.substr(0, tok.find(':'));
    // A token can be megabytes long; messages quote a clipped copy (kMaxFindingText).
    const std::string shown_tok = clipped(tok), shown_name = clipped(name);
    if (v.grestypes.empty()) {
      // Without GresTypes no GRES plugin is loaded and Slurm ignores Gres= without a word.
      out.report(GRS110, v.node.gres_span,
                 fmt::format("Gres token \"{}\" is ignored: slurm.conf has no GresTypes, so {} get no {}", shown_tok,
                             kNodes, shown_name))
          .help(fmt::format("add GresTypes={} to slurm.conf", shown_name));
      continue;
    }
    const bool other_case = std::any_of(v.grestypes.begin(), v.grestypes.end(),
                                        [&](const std::string& g) { return iequals(g, name); });
    out.report(GRS110, token_span(v.node, tok),
               fmt::format("Gres token \"{}\" names a GRES that GresTypes does not list, so Slurm drops it on {}",
                           shown_tok, kNodes))
        .slurm(fmt::format("Invalid GRES configured on node {}: {}", clipped(v.node.names_text()), shown_tok))
        .help(other_case ? std::string("GresTypes spells it differently; names are case-sensitive")
                         : fmt::format("add {} to GresTypes, or remove the token", shown_name));
  }
  return v.dropped.empty() || v.grestypes.empty() ? Outcome::proceed() : Outcome::degraded();
}

}  // namespace greslint::rules
