// SPDX-License-Identifier: Apache-2.0
// Inline suppressions: "# greslint: disable=ID[,ID]" (next record) and "disable-file=ID".
#pragma once

#include <vector>

#include "greslint/config.hpp"
#include "greslint/diagnostic.hpp"
#include "greslint/report.hpp"

namespace greslint {

/// Which rules a run checks. A suppression of a rule the run does not check (a hardware
/// rule in lint, a configuration rule in node-check) matches nothing there by design, so
/// it is not reported unused (GRS010).
using CheckedRules = bool (*)(const RuleInfo& rule);

/// Drops the diagnostics the comments suppress; reports unknown and unused suppressions
/// (GRS009, GRS010) into `out`. `checked` null: the run checks every rule.
void apply_suppressions(const std::vector<Comment>& comments, const SourceManager& sources,
                        std::vector<Diagnostic>& diagnostics, Reporter& out, CheckedRules checked = nullptr);

}  // namespace greslint
