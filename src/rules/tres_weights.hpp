// SPDX-License-Identifier: Apache-2.0
// How slurmctld parses a TRES weights string (slurm_get_tres_weight_array): the same parser
// reads PriorityWeightTRES (GRS132), a NodeName line's TRESWeights (GRS151) and a partition's
// TRESBillingWeights (GRS152), each time with fail set, so the first item it refuses ends
// slurmctld with "failed to parse tres weights str '...'".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "greslint/config.hpp"
#include "greslint/model_types.hpp"

namespace greslint::rules {

/// What slurmctld refuses in a weights string: the item and the error it logs for it.
struct TresWeightsError {
  std::string item;
  std::string error;
};

/// The first item of `value` slurmctld refuses, given the TRES it has (the fixed ones, and with
/// slurmdbd those AccountingStorageTRES adds); nullopt when it takes every item. A TRES only
/// slurmdbd can know is taken.
std::optional<TresWeightsError> tres_weights_error(std::string_view value, const Settings& settings);

/// The fatal line slurmctld logs for `value`.
std::string tres_weights_fatal(std::string_view value);

/// The help for a refused weights string.
inline constexpr std::string_view kTresWeightsHelp =
    "weigh only TRES the cluster tracks (cpu, mem, node, billing, fs/disk, vmem, pages, energy, and with slurmdbd "
    "those in AccountingStorageTRES), each as TYPE[/NAME]=NUMBER with an optional K/M/G/T/P unit";

}  // namespace greslint::rules
