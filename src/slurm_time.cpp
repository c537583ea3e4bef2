// SPDX-License-Identifier: Apache-2.0
#include "slurm_time.hpp"

#include <array>
#include <climits>
#include <cstddef>

#include "util.hpp"

namespace greslint {

bool valid_timespec(std::string_view s) {
  int numbers = 0, dashes = 0, colons = 0;
  bool in_number = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      if (!in_number) ++numbers;
      in_number = true;
    } else if (c == '-') {
      in_number = false;
      ++dashes;
      if (colons) return false;  // days come first
    } else if (c == ':') {
      in_number = false;
      ++colons;
    } else {
      return false;
    }
  }
  if (!numbers || dashes > 1 || colons > 2) return false;
  const int needed = colons + (dashes ? 1 : 0) + 1;  // every separator needs a number after it
  return colons == 0 || numbers >= needed;
}

namespace {

std::int32_t wrap(std::int64_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}

/// What one %d conversion stores: glibc reads a long (strtol, saturating on overflow) and
/// keeps its low 32 bits.
std::int32_t scan_int(std::string_view digits, bool negative) {
  std::int64_t v = 0;
  for (char c : digits) {
    const int digit = c - '0';
    if (v > (INT64_MAX - digit) / 10) return wrap(negative ? INT64_MIN : INT64_MAX);
    v = v * 10 + digit;
  }
  return wrap(negative ? -v : v);
}

/// sscanf(s, fmt, ...) over a valid timespec: the numbers it converts before the first
/// separator that does not match the format (`seps` lists the separators in order).
std::size_t scan(std::string_view s, std::string_view seps, std::array<std::int32_t, 4>& out) {
  std::size_t count = 0, at = 0;
  for (;;) {
    // %d takes a sign: in a valid timespec only a leading '-' ("-5" is minus five days).
    const bool negative = at < s.size() && s[at] == '-';
    const std::size_t digits = negative ? at + 1 : at;
    std::size_t end = digits;
    while (end < s.size() && is_digit(s[end])) ++end;
    if (end == digits) return count;  // %d finds no digits
    out[count++] = scan_int(s.substr(digits, end - digits), negative);
    if (count == seps.size() + 1 || end == s.size() || s[end] != seps[count - 1]) return count;
    at = end + 1;
  }
}

}  // namespace

std::int32_t slurm_time_secs(std::string_view s) {
  if (s.empty()) return kSlurmNoVal;
  if (s == "-1" || iequals(s, "INFINITE") || iequals(s, "UNLIMITED")) return kSlurmInfinite;
  if (!valid_timespec(s)) return kSlurmNoVal;
  std::array<std::int32_t, 4> v{0, 0, 0, 0};
  std::int64_t d = 0, h = 0, m = 0, sec = 0;
  if (s.find('-') != std::string_view::npos) {  // days-[hours[:minutes[:seconds]]]
    scan(s, "-::", v);
    d = wrap(std::int64_t{v[0]} * 86400);
    h = wrap(std::int64_t{v[1]} * 3600);
    m = wrap(std::int64_t{v[2]} * 60);
    sec = v[3];
  } else if (scan(s, "::", v) == 3) {  // hours:minutes:seconds
    h = wrap(std::int64_t{v[0]} * 3600);
    m = wrap(std::int64_t{v[1]} * 60);
    sec = v[2];
  } else {  // minutes[:seconds]
    sec = v[1];
    m = wrap(std::int64_t{v[0]} * 60);
  }
  return wrap(wrap(wrap(d + h) + m) + sec);
}

std::int32_t slurm_time_mins(std::string_view s) {
  const std::int32_t secs = slurm_time_secs(s);
  if (secs == kSlurmInfinite || secs == kSlurmNoVal) return secs;
  return wrap(std::int64_t{secs} + 59) / 60;  // the int sum wraps before the division
}

}  // namespace greslint
