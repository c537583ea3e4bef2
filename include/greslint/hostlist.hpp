// SPDX-License-Identifier: Apache-2.0
// Slurm's hostlist grammar (hostlist.c): parse, expand lazily, test membership, fold.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/source.hpp"
#include "greslint/version.hpp"

namespace greslint {

/// Slurm's limits: hosts in one numeric range, and expanded prefixes of one token.
inline constexpr std::uint64_t kMaxHostsPerRange = 65536;
inline constexpr std::uint64_t kMaxPrefixes = 65536;
inline constexpr std::uint64_t kMaxRangesPerBracket = 256 * 1024;

/// One run of hosts prefix + %0*lu + suffix for lo..hi (Slurm's hostrange).
/// A host with no numeric part has `numeric == false` and only `prefix`.
struct HostRange {
  std::string prefix;
  std::string suffix;
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  int width = 0;         ///< zero-padding width (strlen of the low bound as written)
  bool numeric = false;  ///< false for a plain name without trailing digits
  Span item;             ///< the range text ("01-04") or the whole plain token
  Span expr;             ///< the whole token ("gpu[01-04,07]")

  std::uint64_t count() const noexcept { return numeric ? hi - lo + 1 : 1; }
  /// The i-th host of the range, 0 <= i < count().
  std::string host(std::uint64_t i) const;
};

/// An expanded-on-demand hostlist: an ordered list of ranges; duplicates are kept.
class Hostlist {
 public:
  Hostlist() = default;
  explicit Hostlist(std::vector<HostRange> ranges);

  const std::vector<HostRange>& ranges() const noexcept { return ranges_; }
  std::uint64_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// Calls fn(host_name, range) for every host in order.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const HostRange& r : ranges_)
      for (std::uint64_t i = 0; i < r.count(); ++i) fn(r.host(i), r);
  }
  /// Every host name in Slurm's order (what `scontrol show hostnames` prints).
  std::vector<std::string> expand() const;
  /// Slurm's hostlist_find: exact, case-sensitive, padding-aware membership.
  /// Returns the range that holds `host`, or nullptr.
  const HostRange* find(std::string_view host) const;
  bool contains(std::string_view host) const { return find(host) != nullptr; }

 private:
  std::vector<HostRange> ranges_;
  std::uint64_t size_ = 0;
};

/// A rejected hostlist: the message Slurm logs (if any) and where.
struct HostlistError {
  Span span;
  std::string message;
};

struct HostlistResult {
  std::optional<Hostlist> list;  ///< nullopt when Slurm's hostlist_create returns NULL
  std::vector<HostlistError> errors;
  bool ok() const noexcept { return list.has_value(); }
};

/// Parses `text` as Slurm does for the given release. `where` is the span of `text`
/// in its file; when where.size() == text.size(), each range item gets its own span.
HostlistResult parse_hostlist(std::string_view text, Span where, const VersionProfile& profile);

/// Folds host names into Slurm's ranged form ("gpu[01-04,07]"); sorts and removes
/// duplicates first when `sort_unique` (what `scontrol show hostlistsorted` does).
std::string fold_hostnames(std::vector<std::string> hosts, bool sort_unique = true);

}  // namespace greslint
