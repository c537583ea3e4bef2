// SPDX-License-Identifier: Apache-2.0
// What the hostlist parser, the list and the folder share: Slurm's number reading, width
// rules, natural order and range membership. Inline: these run once per host of a lookup.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/hostlist.hpp"

namespace greslint::hostlist_detail {

inline constexpr std::uint64_t kULongMax = std::numeric_limits<std::uint64_t>::max();

// Slurm runs in the C locale, so <cctype> semantics are fixed here rather than borrowed.
inline bool c_isspace(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
inline bool c_isdigit(char c) noexcept { return c >= '0' && c <= '9'; }

/// strtoul(s, &end, 10) on a view that ends where the C string would.
struct ULongParse {
  std::uint64_t value = 0;
  std::size_t end = 0;  ///< 0 when nothing was converted, like strtoul's endptr == nptr
  bool converted = false;
  bool overflow = false;
};

inline ULongParse parse_ulong(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size() && c_isspace(s[i])) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  const std::size_t digits = i;
  std::uint64_t v = 0;
  bool overflow = false;
  for (; i < s.size() && c_isdigit(s[i]); ++i) {
    const unsigned d = unsigned(s[i] - '0');
    if (overflow || v > (kULongMax - d) / 10)
      overflow = true;
    else
      v = v * 10 + d;
  }
  if (i == digits) return {};
  ULongParse r;
  r.end = i;
  r.converted = true;
  r.overflow = overflow;
  // glibc saturates on overflow whatever the sign, and negates in unsigned arithmetic otherwise.
  r.value = overflow ? kULongMax : (negative ? 0 - v : v);
  return r;
}

inline int digit_count(std::uint64_t v) noexcept {
  int n = 1;
  while (v /= 10) ++n;
  return n;
}

inline int zero_padded(std::uint64_t num, int width) noexcept {
  const int n = digit_count(num);
  return width > n ? width - n : 0;
}

/// Slurm's padding equivalence; like the original it may rewrite one of the widths.
inline bool width_equiv(std::uint64_t n, int& wn, std::uint64_t m, int& wm) noexcept {
  if (wn == wm) return true;
  const int npad = zero_padded(n, wn);
  const int nmpad = zero_padded(n, wm);
  const int mpad = zero_padded(m, wm);
  const int mnpad = zero_padded(m, wn);
  if (npad != nmpad && mpad != mnpad) return false;
  if (npad != nmpad)
    wm = wn;
  else
    wn = wm;
  return true;
}

/// The decimal digits of `v`, written right to left into `buffer`.
inline std::string_view decimal_digits(std::uint64_t v, char (&buffer)[20]) {
  char* const end = buffer + sizeof buffer;
  char* first = end;
  do {
    *--first = char('0' + v % 10);
    v /= 10;
  } while (v);
  return std::string_view(first, std::size_t(end - first));
}

inline void append_padded(std::string& out, std::uint64_t v, int width) {
  // Performance: the digits reach `out` in one append; a push_back per digit (a capacity
  // check and a call each) made this 35% of `greslint hostlist -e`, which calls it once per host.
  char buffer[20];
  const std::string_view digits = decimal_digits(v, buffer);
  if (width > int(digits.size())) out.append(std::size_t(width) - digits.size(), '0');
  out.append(digits);
}

// Natural-order comparison as Slurm's strnatcmp does it: blanks are skipped, digit runs are
// compared by value (or left-aligned when one starts with 0), bytes compare as signed char.
inline char char_at(std::string_view s, std::size_t i) noexcept { return i < s.size() ? s[i] : '\0'; }

inline int compare_digits_right(std::string_view a, std::size_t ai, std::string_view b, std::size_t bi) noexcept {
  int bias = 0;
  for (;; ++ai, ++bi) {
    const char ca = char_at(a, ai), cb = char_at(b, bi);
    const bool da = c_isdigit(ca), db = c_isdigit(cb);
    if (!da && !db) return bias;
    if (!da) return -1;
    if (!db) return +1;
    if (ca < cb && !bias) bias = -1;
    if (ca > cb && !bias) bias = +1;
  }
}

inline int compare_digits_left(std::string_view a, std::size_t ai, std::string_view b, std::size_t bi) noexcept {
  for (;; ++ai, ++bi) {
    const char ca = char_at(a, ai), cb = char_at(b, bi);
    const bool da = c_isdigit(ca), db = c_isdigit(cb);
    if (!da && !db) return 0;
    if (!da) return -1;
    if (!db) return +1;
    if (ca < cb) return -1;
    if (ca > cb) return +1;
  }
}

inline int natural_compare(std::string_view a, std::string_view b) noexcept {
  std::size_t ai = 0, bi = 0;
  for (;;) {
    char ca = char_at(a, ai), cb = char_at(b, bi);
    while (c_isspace(ca)) ca = char_at(a, ++ai);
    while (c_isspace(cb)) cb = char_at(b, ++bi);
    if (c_isdigit(ca) && c_isdigit(cb)) {
      const bool fractional = ca == '0' || cb == '0';
      const int r = fractional ? compare_digits_left(a, ai, b, bi) : compare_digits_right(a, ai, b, bi);
      if (r) return r;
    }
    if (!ca && !cb) return 0;
    const auto sa = static_cast<signed char>(ca), sb = static_cast<signed char>(cb);
    if (sa < sb) return -1;
    if (sa > sb) return +1;
    ++ai;
    ++bi;
  }
}

enum class Kind : std::uint8_t { numeric, single, suffixed };

inline Kind kind_of(const HostRange& r) noexcept {
  if (!r.numeric) return Kind::single;
  return r.suffix.empty() ? Kind::numeric : Kind::suffixed;
}

/// Slurm passes the matched number through an int before the width test.
inline std::uint64_t through_int(std::uint64_t v) noexcept {
  return static_cast<std::uint64_t>(
      static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))));
}

/// Membership in a merged numeric hostrange. Slurm re-splits the queried name at the
/// range's prefix length whenever the natural split differs, so the test below is what its
/// stateful walk amounts to for every range.
inline bool numeric_run_holds(std::string_view prefix, std::uint64_t lo, std::uint64_t hi, int width,
                              std::string_view host) noexcept {
  if (prefix.size() > host.size() || host.compare(0, prefix.size(), prefix) != 0) return false;
  const std::uint64_t num = parse_ulong(host.substr(prefix.size())).value;
  if (num > hi || num < lo) return false;
  int host_width = int(host.size() - prefix.size());
  int range_width = width;
  return width_equiv(lo, range_width, through_int(num), host_width);
}

/// Membership among the one-by-one names prefix%0*lu suffix (23.11 suffix form).
inline bool suffixed_range_holds(const HostRange& r, std::string_view host) noexcept {
  const std::size_t fixed = r.prefix.size() + r.suffix.size();
  if (host.size() <= fixed) return false;
  if (host.compare(0, r.prefix.size(), r.prefix) != 0) return false;
  if (host.compare(host.size() - r.suffix.size(), r.suffix.size(), r.suffix) != 0) return false;
  const std::string_view middle = host.substr(r.prefix.size(), host.size() - fixed);
  for (char c : middle)
    if (!c_isdigit(c)) return false;
  const ULongParse p = parse_ulong(middle);
  if (p.overflow || p.value < r.lo || p.value > r.hi) return false;
  return middle.size() == std::size_t(std::max(r.width, digit_count(p.value)));
}

inline bool ends_in_digit(std::string_view s) noexcept { return !s.empty() && c_isdigit(s.back()); }

/// Slurm's hostrange as its list-level algorithms see it (sort, coalesce, fold).
struct SlurmRange {
  std::string_view prefix;
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  int width = 0;
  bool single = false;
};

/// A host name as a one-host range: trailing digits become its number.
inline SlurmRange split_hostname(std::string_view name) noexcept {
  std::size_t k = name.size();
  while (k > 0 && c_isdigit(name[k - 1])) --k;
  SlurmRange r;
  if (k == name.size()) {
    r.prefix = name;
    r.single = true;
    return r;
  }
  r.prefix = name.substr(0, k);
  r.lo = r.hi = parse_ulong(name.substr(k)).value;
  r.width = int(name.size() - k);
  return r;
}

}  // namespace greslint::hostlist_detail

namespace greslint {

/// The merged runs of a list, for the parser (ranges Slurm cannot step through) and the
/// folder (Slurm's ranges as its list-level algorithms see them).
class HostlistAccess {
 public:
  struct RunView {
    std::uint64_t lo, hi;
    int width;
    const HostRange* first;
  };
  static std::vector<RunView> runs(const Hostlist& l) {
    std::vector<RunView> out;
    out.reserve(l.runs_.size());
    for (const Hostlist::Run& r : l.runs_) out.push_back(RunView{r.lo, r.hi, r.width, &l.ranges_[r.first]});
    return out;
  }
};

}  // namespace greslint
