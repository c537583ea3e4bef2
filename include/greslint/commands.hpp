// SPDX-License-Identifier: Apache-2.0
// Subcommand entry points; main.cpp only parses options and calls these.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "greslint/version.hpp"

namespace greslint {

/// `greslint hostlist`: mode 'e' prints one host per line in `scontrol show hostnames`
/// order, 'f' the folded form of `scontrol show hostlist`, 'c' the host count. Several
/// expressions act as one list, in order. Returns 0, or 2 (nothing on `out`) when an
/// expression is not a valid hostlist for `profile` (the reasons go to `err`), 1 when
/// writing `out` fails.
int run_hostlist_command(char mode, const VersionProfile& profile, const std::vector<std::string>& exprs,
                         std::ostream& out, std::ostream& err);

}  // namespace greslint
