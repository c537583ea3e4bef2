// SPDX-License-Identifier: Apache-2.0
// The limits files as commands use them: read them (sacctmgr dump, show qos|assoc -P) and
// run the GRS42x checks (kLimitsStage) against one analysed configuration.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "greslint/model.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"
#include "greslint/version.hpp"
#include "limits/limits.hpp"
#include "limits/pool.hpp"

namespace greslint::limits {

/// Reads each file into `db`. False, with "greslint: FILE:LINE:COL: message" on `err`, when
/// one cannot be read or is not sacctmgr output.
bool load_limits(SourceManager& sources, const std::vector<std::string>& paths, LimitsDb& db, std::ostream& err);

/// The GRS42x findings of `db` against `cluster`.
void check_limits(const Cluster& cluster, const Pool& pool, SlurmVersion version, const LimitsDb& db, Reporter& out);

}  // namespace greslint::limits
