// SPDX-License-Identifier: Apache-2.0
// Value grammars of GRES: slurm.conf Gres= counting, gres.conf Count/Cores/Links/Flags.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace greslint {

/// slurm.conf Gres= for one GRES name, counted as gres.c:_get_gres_cnt does.
struct GresCount {
  std::uint64_t total = 0;
  struct Typed {
    std::string type;
    std::uint64_t count = 0;
  };
  std::vector<Typed> types;  ///< in first-seen order; repeated types add up (case-sensitive)
  bool no_consume = false;
  bool bare_name_reset = false;  ///< a bare "gpu" token replaced earlier counts with 1
  std::string bad_token;         ///< first token with an invalid count suffix (parsing stopped)
  bool present = false;          ///< the name appears in Gres= at all
  std::uint64_t typed_sum() const;
};

/// Splits on ',' exactly like Slurm (no trimming).
std::vector<std::string_view> split_commas(std::string_view s);

/// Counts `name` in an already filtered Gres= string.
GresCount count_gres(std::string_view gres, std::string_view name);

/// Slurm's suffix_mult: "" k kib kb m mib mb g ... (case-insensitive); nullopt if invalid.
std::optional<std::uint64_t> suffix_multiplier(std::string_view suffix);

/// gres.conf Count=: strtoll base 10 then suffix; nullopt if invalid.
std::optional<std::uint64_t> parse_gres_count(std::string_view text);

/// Most core indexes parse_core_list lists (no real node comes near; Slurm's own bitmaps for
/// 65535 x 65535 cores would take 512 MB).
inline constexpr std::uint64_t kMaxCoreIndexes = std::uint64_t(1) << 20;

/// bit_unfmt of a Cores=/CPUs= list: the core indexes, or nullopt when any index is
/// >= nbits or the text cannot be read. Characters other than digits, '-' and ','
/// are ignored, as Slurm does. A valid list naming more than kMaxCoreIndexes cores gives an
/// empty vector: valid, but not listed (so not checked against socket boundaries).
std::optional<std::vector<std::uint32_t>> parse_core_list(std::string_view text, std::uint32_t nbits);

/// gres_links_validate: empty string when valid, else Slurm's message.
std::string validate_links(std::string_view links);

/// Folds sorted, unique indexes into "0-3,8".
std::string format_index_list(const std::vector<std::uint32_t>& indexes);

}  // namespace greslint
