// SPDX-License-Identifier: Apache-2.0
// node-check --suggest.
#pragma once

#include <ostream>
#include <string>

#include "greslint/hardware.hpp"

namespace greslint::node_check {

/// Prints the slurm.conf NodeName line and the gres.conf lines for `node` as its hardware is.
void suggest(const std::string& node, const HardwareInventory& hw, const VersionProfile& profile, std::ostream& out);

}  // namespace greslint::node_check
