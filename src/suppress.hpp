// SPDX-License-Identifier: Apache-2.0
// Inline suppressions: "# greslint: disable=ID[,ID]" (next record) and "disable-file=ID".
#pragma once

#include <vector>

#include "greslint/config.hpp"
#include "greslint/diagnostic.hpp"
#include "greslint/report.hpp"

namespace greslint {

/// Drops the diagnostics the comments suppress; reports unknown and unused suppressions
/// (GRS009, GRS010) into `out`.
void apply_suppressions(const std::vector<Comment>& comments, const SourceManager& sources,
                        std::vector<Diagnostic>& diagnostics, Reporter& out);

}  // namespace greslint
