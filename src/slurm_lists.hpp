// SPDX-License-Identifier: Apache-2.0
// Slurm's comma lists as slurm_addto_char_list reads them (slurm_protocol_defs.c), and the
// TRES list slurmctld builds from AccountingStorageTRES (read_config.c, controller.c).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/version.hpp"

namespace greslint {

/// Appends the names of `names` to `list` as slurm_addto_char_list_with_case does: a leading
/// quote ends the list at its match, other quotes read as '`', commas split (not inside
/// brackets; a trailing comma is ignored), `a[1-2]` expands as a hostlist (an invalid one
/// adds nothing), every name is lower-cased and a name already in the list moves to the end.
/// An empty `names` adds one empty name, as Slurm does.
void slurm_addto_char_list(std::vector<std::string>& list, std::string_view names,
                           const VersionProfile& profile);

/// The TRES slurmctld's _init_tres walks, in its order: up to 23.02 AccountingStorageTRES
/// (or nothing) followed by the default TRES; from 23.11 the default TRES, the configured
/// ones and (when gres/gpu is tracked) gres/gpumem and gres/gpuutil, sorted by name. `configured` is empty when the key is
/// not set.
std::vector<std::string> accounting_tres_list(std::optional<std::string_view> configured, const VersionProfile& profile);

/// The TRES types _init_tres knows: cpu, mem, energy, node, billing, vmem, pages, and the
/// named types bb/, gres/, license/, fs/, ic/ (case-insensitive).
bool is_known_tres_type(std::string_view tres);

}  // namespace greslint
