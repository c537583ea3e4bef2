// SPDX-License-Identifier: Apache-2.0
// Durations as parse_time.c reads them (time_str2secs, time_str2mins), with the 32-bit
// arithmetic of Slurm's int results: what slurm.conf's time values turn into.
#pragma once

#include <cstdint>
#include <string_view>

namespace greslint {

/// parse_time.c's shape test (_is_valid_timespec): digits, at most one '-' (days, before any
/// ':') and two ':', with a number after every separator that has one.
bool valid_timespec(std::string_view s);

/// Slurm's INFINITE and NO_VAL as time_str2secs returns them in an int.
inline constexpr std::int32_t kSlurmInfinite = -1;
inline constexpr std::int32_t kSlurmNoVal = -2;

/// time_str2secs: "min", "min:sec", "hr:min:sec", "days-hr[:min[:sec]]" in seconds;
/// kSlurmInfinite for -1, INFINITE or UNLIMITED (any case); kSlurmNoVal when empty or not
/// a timespec. Each number is read as sscanf's %d does (a long, stored in an int) and the
/// sum wraps in 32 bits, so a huge value can come out negative, or as either sentinel, as
/// it does in Slurm.
std::int32_t slurm_time_secs(std::string_view s);

/// time_str2mins: time_str2secs rounded up to minutes (C division), the sentinels passed
/// through.
std::int32_t slurm_time_mins(std::string_view s);

}  // namespace greslint
