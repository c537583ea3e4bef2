// SPDX-License-Identifier: Apache-2.0
// Slurm's hostlist grammar (hostlist.c): parse, expand lazily, test membership, fold.
#pragma once

#include <cstdint>
#include <memory>
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
inline constexpr std::uint64_t kMaxRangesPerBracket = std::uint64_t{256} * 1024;
/// greslint's own stops, where Slurm would misbehave instead of rejecting: ranges it would
/// allocate (a product of bracket groups), and hosts its signed int counter can hold.
inline constexpr std::uint64_t kMaxTotalRanges = std::uint64_t{1024} * 1024;
inline constexpr std::uint64_t kMaxTotalHosts = 2147483647;

/// One run of hosts prefix + %0*lu + suffix for lo..hi (Slurm's hostrange).
/// A host with no numeric part has `numeric == false` and only `prefix`.
/// A non-empty `suffix` (23.11+) stands for hosts Slurm stores one by one as plain names,
/// so they match only by exact spelling.
struct HostRange {
  std::string prefix;
  std::string suffix;
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  int width = 0;         ///< zero-padding width (strlen of the low bound as written;
                         ///< Slurm may rewrite it to an equivalent one when merging)
  bool numeric = false;  ///< false for a plain name without trailing digits
  Span item;             ///< the range text ("01-04") or the whole plain token
  Span expr;             ///< the whole token ("gpu[01-04,07]")

  std::uint64_t count() const noexcept { return numeric ? hi - lo + 1 : 1; }
  /// The i-th host of the range, 0 <= i < count().
  std::string host(std::uint64_t i) const;
  /// Appends host(i) to `out`: expanding into one buffer allocates nothing per host.
  void append_host(std::uint64_t i, std::string& out) const;
  /// Appends host(i), host(i + 1), ..., each followed by `separator`, until the range ends
  /// or out.size() reaches `limit`; returns the index of the first host not appended.
  std::uint64_t append_hosts(std::uint64_t i, std::string& out, char separator, std::size_t limit) const;
  /// Where host(i)'s number ends in its name, when host(i + 1) can be had from it by
  /// count_up; 0 when the next name must be formatted anew (no number, or a name Slurm's
  /// buffer cuts short).
  std::size_t counting_end(std::uint64_t i) const noexcept;
  /// Turns host(i) in `name` into host(i + 1) by counting its number up in place, like an
  /// odometer; `digits_end` is counting_end(i). False when the number gains a digit
  /// (99 -> 100): `name` is then spoiled and host(i + 1) must be formatted anew.
  bool count_up(std::string& name, std::size_t digits_end) const noexcept;
};

/// An expanded-on-demand hostlist: an ordered list of ranges; duplicates are kept.
class Hostlist {
 public:
  Hostlist() = default;
  /// Takes the ranges in order as hostlist_push_range does: a range that continues the
  /// previous one merges with it and then prints with that one's prefix and width.
  explicit Hostlist(std::vector<HostRange> ranges);

  const std::vector<HostRange>& ranges() const noexcept { return ranges_; }
  std::uint64_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  /// Calls fn(host_name, range) for every host in order. host_name is valid only during
  /// the call (one buffer is reused, so names longer than 15 bytes cost no allocation each).
  /// Performance: each name is the one before counted up in place (HostRange::count_up);
  /// formatting every name anew was a quarter of linting a cluster written rack by rack.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    std::string name;
    for (const HostRange& r : ranges_) {
      std::size_t digits_end = 0;
      const std::uint64_t n = r.count();
      for (std::uint64_t i = 0; i < n; ++i) {
        if (digits_end == 0 || !r.count_up(name, digits_end)) {
          name.clear();
          r.append_host(i, name);
          digits_end = r.counting_end(i);
        }
        fn(static_cast<const std::string&>(name), r);
      }
    }
  }
  /// Every host name in Slurm's order (what `scontrol show hostnames` prints).
  std::vector<std::string> expand() const;
  /// Slurm's hostlist_find: exact, case-sensitive, padding-aware membership.
  /// Returns the range that holds `host`, or nullptr.
  const HostRange* find(std::string_view host) const;
  bool contains(std::string_view host) const { return find(host) != nullptr; }
  /// find() by a plain scan in Slurm's order, without the hash index long lists get.
  const HostRange* find_unindexed(std::string_view host) const;

 private:
  /// Slurm merges a pushed range into the previous one when they continue each other; a run
  /// is one such merged hostrange, covering ranges_[first..last].
  struct Run {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    int width = 0;
  };
  class Index;
  struct LazyIndex;
  friend class HostlistAccess;

  const HostRange* find_linear(std::string_view host) const;
  const HostRange* range_of(std::size_t run, std::string_view host) const;

  std::vector<HostRange> ranges_;
  std::vector<Run> runs_;
  std::shared_ptr<LazyIndex> index_;  ///< only for long lists, made on the first find(); shared by copies
  std::uint64_t size_ = 0;
};

/// A problem with a hostlist, and where.
struct HostlistError {
  Span span;
  std::string message;
  /// true: `message` is the exact line Slurm logs. false: Slurm rejects (or breaks) without
  /// saying why, and the wording is greslint's.
  bool slurm_logs = true;
};

struct HostlistResult {
  std::optional<Hostlist> list;  ///< nullopt when Slurm's hostlist_create returns NULL
  /// Why the list is invalid, plus what Slurm logs on the way. A valid list can carry
  /// errors too: Slurm logs a bad range in the leftmost group of `a[3-1]b[1-2]c[1]` and
  /// then ignores it (the token yields no hosts).
  std::vector<HostlistError> errors;
  /// Forms Slurm accepts silently that are unlikely to be meant (`n[1, 2]` pads to n02,
  /// 22.05 reads `n[1-3` as the host `n]`).
  std::vector<HostlistError> warnings;
  bool ok() const noexcept { return list.has_value(); }
};

/// Parses `text` as Slurm does for the given release. `where` is the span of `text`
/// in its file; when where.size() == text.size(), each range item gets its own span.
HostlistResult parse_hostlist(std::string_view text, Span where, const VersionProfile& profile);

/// True when `text` is one host name that every release reads as exactly that host: no
/// separator, bracket or NUL, and a trailing number short enough (19 digits at most) to print
/// back as written. parse_hostlist then makes a valid list of that one host; callers that only
/// need the name (a gres.conf line written per node) can skip making it.
bool is_single_host(std::string_view text) noexcept;

/// Slurm's strnatcmp: negative, 0 or positive as `a` sorts before, with or after `b` in
/// natural order (blanks skipped, digit runs by value, or left-aligned when one starts with 0;
/// case matters). slurmctld sorts its node table by name this way before it loads anything
/// per node.
int natural_compare_names(std::string_view a, std::string_view b) noexcept;

/// Folds host names into Slurm's ranged form ("gpu[01-04,07]"); sorts and removes
/// duplicates first when `sort_unique` (Slurm's hostlist_uniq; `scontrol show
/// hostlistsorted` sorts but keeps duplicates, see FoldOrder::slurm_sorted).
std::string fold_hostnames(std::vector<std::string> hosts, bool sort_unique = true);

enum class FoldOrder : std::uint8_t {
  as_written,     ///< `scontrol show hostlist`
  slurm_sorted,   ///< `scontrol show hostlistsorted` (hostlist_sort: duplicates stay)
  sorted_unique,  ///< hostlist_uniq: sorted, duplicates removed
};

/// Slurm's hostlist_ranged_string of a parsed list ("a[1-2],b3").
std::string fold_hostlist(const Hostlist& list, FoldOrder order = FoldOrder::as_written);

}  // namespace greslint
