// SPDX-License-Identifier: Apache-2.0
// Slurm's hostlist grammar, membership and folding, rebuilt from hostlist.c's observable behaviour.
#include "greslint/hostlist.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

namespace greslint {

namespace {

constexpr std::uint64_t kULongMax = std::numeric_limits<std::uint64_t>::max();

// Slurm runs in the C locale, so <cctype> semantics are fixed here rather than borrowed.
bool c_isspace(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool c_isdigit(char c) noexcept { return c >= '0' && c <= '9'; }

/// strtoul(s, &end, 10) on a view that ends where the C string would.
struct ULongParse {
  std::uint64_t value = 0;
  std::size_t end = 0;  ///< 0 when nothing was converted, like strtoul's endptr == nptr
  bool converted = false;
  bool overflow = false;
};

ULongParse parse_ulong(std::string_view s) noexcept {
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

int digit_count(std::uint64_t v) noexcept {
  int n = 1;
  while (v /= 10) ++n;
  return n;
}

int zero_padded(std::uint64_t num, int width) noexcept {
  const int n = digit_count(num);
  return width > n ? width - n : 0;
}

/// Slurm's padding equivalence; like the original it may rewrite one of the widths.
bool width_equiv(std::uint64_t n, int& wn, std::uint64_t m, int& wm) noexcept {
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
std::string_view decimal_digits(std::uint64_t v, char (&buffer)[20]) {
  char* const end = buffer + sizeof buffer;
  char* first = end;
  do {
    *--first = char('0' + v % 10);
    v /= 10;
  } while (v);
  return std::string_view(first, std::size_t(end - first));
}

void append_padded(std::string& out, std::uint64_t v, int width) {
  // Performance: the digits reach `out` in one append; a push_back per digit (a capacity
  // check and a call each) made this 35% of `greslint hostlist -e`, which calls it once per host.
  char buffer[20];
  const std::string_view digits = decimal_digits(v, buffer);
  if (width > int(digits.size())) out.append(std::size_t(width) - digits.size(), '0');
  out.append(digits);
}

// Natural-order comparison as Slurm's strnatcmp does it: blanks are skipped, digit runs are
// compared by value (or left-aligned when one starts with 0), bytes compare as signed char.
char char_at(std::string_view s, std::size_t i) noexcept { return i < s.size() ? s[i] : '\0'; }

int compare_digits_right(std::string_view a, std::size_t ai, std::string_view b, std::size_t bi) noexcept {
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

int compare_digits_left(std::string_view a, std::size_t ai, std::string_view b, std::size_t bi) noexcept {
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

int natural_compare(std::string_view a, std::string_view b) noexcept {
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

Kind kind_of(const HostRange& r) noexcept {
  if (!r.numeric) return Kind::single;
  return r.suffix.empty() ? Kind::numeric : Kind::suffixed;
}

/// Slurm passes the matched number through an int before the width test.
std::uint64_t through_int(std::uint64_t v) noexcept {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v))));
}

/// Membership in a merged numeric hostrange. Slurm re-splits the queried name at the
/// range's prefix length whenever the natural split differs, so the test below is what its
/// stateful walk amounts to for every range.
bool numeric_run_holds(std::string_view prefix, std::uint64_t lo, std::uint64_t hi, int width,
                       std::string_view host) noexcept {
  if (prefix.size() > host.size() || host.compare(0, prefix.size(), prefix) != 0) return false;
  const std::uint64_t num = parse_ulong(host.substr(prefix.size())).value;
  if (num > hi || num < lo) return false;
  int host_width = int(host.size() - prefix.size());
  int range_width = width;
  return width_equiv(lo, range_width, through_int(num), host_width);
}

/// Membership among the one-by-one names prefix%0*lu suffix (23.11 suffix form).
bool suffixed_range_holds(const HostRange& r, std::string_view host) noexcept {
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

bool ends_in_digit(std::string_view s) noexcept { return !s.empty() && c_isdigit(s.back()); }

/// Slurm's hostrange as its list-level algorithms see it (sort, coalesce, fold).
struct SlurmRange {
  std::string_view prefix;
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  int width = 0;
  bool single = false;
};

int prefix_cmp(const SlurmRange& a, const SlurmRange& b) noexcept {
  const int r = natural_compare(a.prefix, b.prefix);
  return r == 0 ? int(b.single) - int(a.single) : r;
}

std::uint64_t range_count(const SlurmRange& r) noexcept { return r.single ? 1 : r.hi - r.lo + 1; }

bool width_combine(SlurmRange& a, SlurmRange& b) noexcept { return width_equiv(a.lo, a.width, b.lo, b.width); }

bool hostrange_empty(const SlurmRange& r) noexcept { return r.hi < r.lo || r.hi == kULongMax; }

/// hostrange_cmp, including its int truncation of the difference.
int range_cmp(SlurmRange& a, SlurmRange& b) noexcept {
  int r = prefix_cmp(a, b);
  if (r == 0) {
    const std::uint64_t diff = width_combine(a, b) ? a.lo - b.lo : std::uint64_t(std::int64_t(a.width - b.width));
    r = static_cast<std::int32_t>(static_cast<std::uint32_t>(diff));
  }
  return r;
}

bool within_range(const SlurmRange& a, const SlurmRange* b) noexcept {
  if (!b || prefix_cmp(a, *b) != 0) return false;
  return !a.single && !b->single;
}

/// hostlist_push_range's merge test: the new range continues the tail exactly.
bool push_joins(SlurmRange& tail, SlurmRange& hr) noexcept {
  return tail.hi == hr.lo - 1 && prefix_cmp(tail, hr) == 0 && width_combine(tail, hr);
}

SlurmRange split_hostname(std::string_view name) noexcept {
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

/// glibc 2.36's qsort is a top-down merge sort; Slurm's comparator rewrites widths as it
/// goes, so the exact sequence of comparisons is part of the result.
void merge_sort(std::vector<SlurmRange*>& v, std::size_t b, std::size_t n, std::vector<SlurmRange*>& tmp) {
  if (n <= 1) return;
  std::size_t n1 = n / 2, n2 = n - n1;
  merge_sort(v, b, n1, tmp);
  merge_sort(v, b + n1, n2, tmp);
  std::size_t i = b, j = b + n1, t = 0;
  while (n1 > 0 && n2 > 0) {
    if (range_cmp(*v[i], *v[j]) <= 0) {
      tmp[t++] = v[i++];
      --n1;
    } else {
      tmp[t++] = v[j++];
      --n2;
    }
  }
  for (; n1 > 0; --n1) tmp[t++] = v[i++];
  std::copy(tmp.begin(), tmp.begin() + std::ptrdiff_t(t), v.begin() + std::ptrdiff_t(b));
}

void slurm_qsort(std::vector<SlurmRange*>& v) {
  std::vector<SlurmRange*> tmp(v.size());
  merge_sort(v, 0, v.size(), tmp);
}

/// hostlist_collapse: merge neighbours that continue each other, scanning from the end.
void collapse(std::vector<SlurmRange*>& v) {
  for (std::size_t i = v.size(); i-- > 1;) {
    SlurmRange& prev = *v[i - 1];
    SlurmRange& next = *v[i];
    if (prev.hi == next.lo - 1 && prefix_cmp(prev, next) == 0 && width_combine(prev, next)) {
      prev.hi = next.hi;
      v.erase(v.begin() + std::ptrdiff_t(i));
    }
  }
}

/// hostlist_coalesce: Slurm splits overlapping neighbours into single hosts (keeping every
/// duplicate) and restarts from the end after each split; collapse() then re-merges.
void coalesce(std::vector<SlurmRange*>& v, std::deque<SlurmRange>& pool) {
  for (std::size_t i = v.size(); i-- > 1;) {
    SlurmRange& prev = *v[i - 1];
    SlurmRange& next = *v[i];
    if (prev.single || next.single) continue;
    if (!(prev.hi > next.lo && prefix_cmp(prev, next) == 0 && width_combine(prev, next))) continue;
    SlurmRange common = prev;
    common.lo = next.lo;
    common.hi = std::min(next.hi, prev.hi);
    if (common.hi < prev.hi) next.hi = prev.hi;
    prev.hi = common.lo;
    next.lo = common.hi;
    std::size_t j = i;
    const SlurmRange next_seen = next;
    const SlurmRange prev_seen = prev;
    // When the earlier range empties, Slurm frees the later one and keeps reading it. glibc
    // hands that memory to the temporary single-host range of each step below, so the read
    // sees the step's own number and the second copy is never inserted.
    const bool next_freed = hostrange_empty(prev_seen);
    if (next_freed) v.erase(v.begin() + std::ptrdiff_t(i));
    // An earlier split can leave an empty range behind, so the span may be empty too.
    for (std::uint64_t x = common.lo; x <= common.hi; ++x) {
      SlurmRange one = common;
      one.lo = one.hi = x;
      // hostlist_insert_range refuses positions past the end, but the cursor moves on.
      for (bool wanted : {x > prev_seen.hi, !next_freed && x < next_seen.lo}) {
        if (!wanted) continue;
        if (j <= v.size()) {
          pool.push_back(one);
          v.insert(v.begin() + std::ptrdiff_t(j), &pool.back());
        }
        ++j;
      }
      if (x == common.hi) break;
    }
    i = v.size();
  }
  collapse(v);
}

/// hostlist_uniq after its sort: join sorted neighbours, dropping duplicates.
void unique_join(std::vector<SlurmRange*>& v) {
  std::vector<SlurmRange*> out;
  out.reserve(v.size());
  for (SlurmRange* r : v) {
    if (!out.empty()) {
      SlurmRange& a = *out.back();
      SlurmRange& b = *r;
      if (prefix_cmp(a, b) == 0 && width_combine(a, b)) {
        if (a.single && b.single) continue;
        if (a.hi == b.lo - 1) {
          a.hi = b.hi;
          continue;
        }
        if (a.hi >= b.lo) {
          if (a.hi < b.hi) a.hi = b.hi;
          continue;
        }
      }
    }
    out.push_back(r);
  }
  v.swap(out);
}

/// hostlist_ranged_string for a one-dimensional cluster.
std::string ranged_string(const std::vector<SlurmRange*>& v) {
  std::string out;
  std::size_t i = 0;
  while (i < v.size()) {
    if (i) out.push_back(',');
    const std::size_t start = i;
    const SlurmRange* next = i + 1 < v.size() ? v[i + 1] : nullptr;
    const bool bracket = range_count(*v[i]) > 1 || within_range(*v[i], next);
    out.append(v[i]->prefix);
    if (bracket) out.push_back('[');
    do {
      if (i > start) out.push_back(',');
      const SlurmRange& r = *v[i];
      if (!r.single) {
        append_padded(out, r.lo, r.width);
        if (r.lo < r.hi) {
          out.push_back('-');
          append_padded(out, r.hi, r.width);
        }
      }
    } while (++i < v.size() && within_range(*v[i], v[i - 1]));
    if (bracket) out.push_back(']');
  }
  return out;
}

std::string fold_ranges(std::deque<SlurmRange>& pool, FoldOrder order) {
  std::vector<SlurmRange*> v;
  v.reserve(pool.size());
  for (SlurmRange& r : pool) v.push_back(&r);
  if (order != FoldOrder::as_written && v.size() > 1) {
    slurm_qsort(v);
    if (order == FoldOrder::slurm_sorted)
      coalesce(v, pool);
    else
      unique_join(v);
  }
  return ranged_string(v);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// HostRange / Hostlist

std::string HostRange::host(std::uint64_t i) const {
  std::string out;
  // Performance: the exact length, not a worst case of 20 digits. Up to 15 bytes a
  // std::string keeps its characters inline, so a name like r0001n001 costs no allocation;
  // reserving 20+ bytes allocated once per host.
  if (numeric) out.reserve(prefix.size() + std::size_t(std::max(width, digit_count(lo + i))) + suffix.size());
  append_host(i, out);
  return out;
}

void HostRange::append_host(std::uint64_t i, std::string& out) const {
  if (!numeric) {
    out.append(prefix);
    return;
  }
  // Performance: one append of the whole name's length, filled with '0' so the zero padding
  // is already in place; prefix, digits and suffix are then copied in. Appending the pieces
  // one by one took three calls into std::string per host of an expansion.
  char buffer[20];
  const std::string_view digits = decimal_digits(lo + i, buffer);
  const std::size_t ndigits = digits.size();
  const std::size_t field = std::max(std::size_t(std::max(width, 0)), ndigits);  // append_padded's width rule
  const std::size_t start = out.size();
  out.append(prefix.size() + field + suffix.size(), '0');
  char* name = &out[start];
  std::memcpy(name, prefix.data(), prefix.size());
  std::memcpy(name + prefix.size() + field - ndigits, digits.data(), ndigits);
  if (!suffix.empty()) {
    std::memcpy(name + prefix.size() + field, suffix.data(), suffix.size());
    return;
  }
  // Slurm sizes the name buffer from the width, so a width narrower than the number
  // (possible only after a merge rewrote it) cuts the name short.
  const std::size_t room = prefix.size() + std::size_t(std::max(width, 0)) + 15;
  if (out.size() - start > room) out.resize(start + room);
}

std::uint64_t HostRange::append_hosts(std::uint64_t i, std::string& out, char separator, std::size_t limit) const {
  // Performance: consecutive names differ only in their last digits, so the number is counted
  // up in place, like an odometer, and each name costs one append. Formatting every name
  // anew (append_host) made `greslint hostlist -e` about 4x slower per host. A name is
  // formatted in full again when its number gains a digit, and always when Slurm's buffer
  // cuts it short (see append_host).
  std::string name;            // host(i) and the separator
  std::size_t digits_end = 0;  // end of the number in `name`; 0: format the next name in full
  const std::uint64_t n = count();
  while (i < n && out.size() < limit) {
    if (digits_end == 0) {
      name.clear();
      append_host(i, name);
      const std::size_t field = std::max(std::size_t(std::max(width, 0)), std::size_t(digit_count(lo + i)));
      const bool cut_short = suffix.empty() && field > std::size_t(std::max(width, 0)) + 15;
      if (numeric && !cut_short) digits_end = prefix.size() + field;
      name.push_back(separator);
    }
    out.append(name);
    if (++i == n || digits_end == 0) continue;
    std::size_t d = digits_end;
    while (d > prefix.size() && name[d - 1] == '9') name[--d] = '0';
    if (d == prefix.size())
      digits_end = 0;  // 99 -> 100: one digit more
    else
      ++name[d - 1];
  }
  return i;
}

/// Hash lookups that narrow find() to the few runs that can hold a name; the answer is
/// still the first matching run in Slurm's order.
class Hostlist::Index {
 public:
  explicit Index(const Hostlist& list);
  std::size_t find(const Hostlist& list, std::string_view host) const;

 private:
  struct Entry {
    std::uint64_t lo;
    std::uint64_t hi;
    std::uint32_t run;
  };
  struct Group {
    std::uint32_t run;  ///< any run with this prefix, to read the prefix back
    std::vector<Entry> entries;          ///< sorted by lo
    std::vector<std::uint64_t> max_hi;   ///< running maximum of hi over entries[0..i]
  };
  using Buckets = std::unordered_map<std::size_t, std::vector<std::uint32_t>>;

  static std::size_t hash(std::string_view s) noexcept { return std::hash<std::string_view>{}(s); }

  std::vector<Group> groups_;
  Buckets numeric_;   ///< prefix hash -> groups_
  Buckets singles_;   ///< name hash -> runs, ascending
  Buckets suffixed_;  ///< prefix hash -> runs, ascending
  std::vector<std::size_t> numeric_lengths_;
  std::vector<std::size_t> suffixed_lengths_;
};

namespace {
constexpr std::size_t kNoRun = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kIndexThreshold = 32;

void add_length(std::vector<std::size_t>& lengths, std::size_t n) {
  auto it = std::lower_bound(lengths.begin(), lengths.end(), n);
  if (it == lengths.end() || *it != n) lengths.insert(it, n);
}
}  // namespace

Hostlist::Index::Index(const Hostlist& list) {
  for (std::uint32_t ri = 0; ri < list.runs_.size(); ++ri) {
    const Run& run = list.runs_[ri];
    const HostRange& first = list.ranges_[run.first];
    switch (kind_of(first)) {
      case Kind::single:
        singles_[hash(first.prefix)].push_back(ri);
        break;
      case Kind::suffixed:
        suffixed_[hash(first.prefix)].push_back(ri);
        add_length(suffixed_lengths_, first.prefix.size());
        break;
      case Kind::numeric: {
        std::vector<std::uint32_t>& bucket = numeric_[hash(first.prefix)];
        std::uint32_t g = std::uint32_t(groups_.size());
        for (std::uint32_t candidate : bucket)
          if (list.ranges_[list.runs_[groups_[candidate].run].first].prefix == first.prefix) g = candidate;
        if (g == groups_.size()) {
          groups_.push_back(Group{ri, {}, {}});
          bucket.push_back(g);
          add_length(numeric_lengths_, first.prefix.size());
        }
        groups_[g].entries.push_back(Entry{run.lo, run.hi, ri});
        break;
      }
    }
  }
  for (Group& g : groups_) {
    std::stable_sort(g.entries.begin(), g.entries.end(), [](const Entry& a, const Entry& b) { return a.lo < b.lo; });
    g.max_hi.resize(g.entries.size());
    std::uint64_t m = 0;
    for (std::size_t i = 0; i < g.entries.size(); ++i) g.max_hi[i] = m = std::max(m, g.entries[i].hi);
  }
}

std::size_t Hostlist::Index::find(const Hostlist& list, std::string_view host) const {
  std::size_t best = kNoRun;
  if (auto it = singles_.find(hash(host)); it != singles_.end())
    for (std::uint32_t ri : it->second)
      if (list.ranges_[list.runs_[ri].first].prefix == host) {
        best = ri;
        break;
      }
  if (ends_in_digit(host)) {
    for (std::size_t len : numeric_lengths_) {
      if (len > host.size()) break;
      auto it = numeric_.find(hash(host.substr(0, len)));
      if (it == numeric_.end()) continue;
      for (std::uint32_t gi : it->second) {
        const Group& g = groups_[gi];
        const Run& sample = list.runs_[g.run];
        const std::string& prefix = list.ranges_[sample.first].prefix;
        if (host.compare(0, len, prefix) != 0) continue;
        const std::uint64_t num = parse_ulong(host.substr(len)).value;
        auto pos = std::upper_bound(g.entries.begin(), g.entries.end(), num,
                                    [](std::uint64_t v, const Entry& e) { return v < e.lo; });
        for (std::size_t j = std::size_t(pos - g.entries.begin()); j-- > 0 && g.max_hi[j] >= num;) {
          const Entry& e = g.entries[j];
          if (e.hi < num || e.run >= best) continue;
          const Run& run = list.runs_[e.run];
          if (numeric_run_holds(prefix, run.lo, run.hi, run.width, host)) best = e.run;
        }
      }
    }
  }
  for (std::size_t len : suffixed_lengths_) {
    if (len >= host.size()) break;
    auto it = suffixed_.find(hash(host.substr(0, len)));
    if (it == suffixed_.end()) continue;
    for (std::uint32_t ri : it->second) {
      if (ri >= best) break;
      if (suffixed_range_holds(list.ranges_[list.runs_[ri].first], host)) {
        best = ri;
        break;
      }
    }
  }
  return best;
}

Hostlist::Hostlist(std::vector<HostRange> ranges) : ranges_(std::move(ranges)) {
  runs_.reserve(ranges_.size());
  for (std::uint32_t i = 0; i < ranges_.size(); ++i) {
    HostRange& r = ranges_[i];
    size_ += r.count();
    if (!runs_.empty() && kind_of(r) == Kind::numeric) {
      Run& tail = runs_.back();
      const HostRange& tail_range = ranges_[tail.first];
      if (kind_of(tail_range) == Kind::numeric && tail.hi == r.lo - 1 &&
          natural_compare(tail_range.prefix, r.prefix) == 0) {
        int incoming_width = r.width;
        if (width_equiv(tail.lo, tail.width, r.lo, incoming_width)) {
          tail.hi = r.hi;
          tail.last = i;
          // The merged range prints with the tail's prefix (they differ only in blanks).
          if (r.prefix != tail_range.prefix) r.prefix = tail_range.prefix;
          continue;
        }
      }
    }
    runs_.push_back(Run{r.lo, r.hi, i, i, r.width});
  }
  // A merge can rewrite the run's width; Slurm prints every host of the run with it.
  for (const Run& run : runs_)
    if (run.first != run.last)
      for (std::uint32_t i = run.first; i <= run.last; ++i) ranges_[i].width = run.width;
  if (runs_.size() > kIndexThreshold) index_ = std::make_shared<const Index>(*this);
}

std::vector<std::string> Hostlist::expand() const {
  std::vector<std::string> out;
  out.reserve(std::size_t(std::min<std::uint64_t>(size_, 1u << 20)));
  for_each([&](std::string host, const HostRange&) { out.push_back(std::move(host)); });
  return out;
}

const HostRange* Hostlist::range_of(std::size_t run_index, std::string_view host) const {
  const Run& run = runs_[run_index];
  if (run.first == run.last) return &ranges_[run.first];
  // Items of a merged run are consecutive numbers; pick the one holding the host's number.
  const std::string& prefix = ranges_[run.first].prefix;
  const std::uint64_t num = parse_ulong(host.substr(std::min(prefix.size(), host.size()))).value;
  auto begin = ranges_.begin() + std::ptrdiff_t(run.first);
  auto end = ranges_.begin() + std::ptrdiff_t(run.last) + 1;
  auto it = std::lower_bound(begin, end, num, [](const HostRange& r, std::uint64_t v) { return r.hi < v; });
  return it == end ? &ranges_[run.first] : &*it;
}

const HostRange* Hostlist::find_linear(std::string_view host) const {
  const bool digit_tail = ends_in_digit(host);
  for (std::size_t ri = 0; ri < runs_.size(); ++ri) {
    const Run& run = runs_[ri];
    const HostRange& first = ranges_[run.first];
    bool hit = false;
    switch (kind_of(first)) {
      case Kind::single:
        hit = first.prefix == host;
        break;
      case Kind::suffixed:
        hit = suffixed_range_holds(first, host);
        break;
      case Kind::numeric:
        hit = digit_tail && numeric_run_holds(first.prefix, run.lo, run.hi, run.width, host);
        break;
    }
    if (hit) return range_of(ri, host);
  }
  return nullptr;
}

const HostRange* Hostlist::find(std::string_view host) const {
  if (!index_) return find_linear(host);
  const std::size_t ri = index_->find(*this, host);
  return ri == kNoRun ? nullptr : range_of(ri, host);
}

const HostRange* Hostlist::find_unindexed(std::string_view host) const { return find_linear(host); }

/// parse_hostlist needs the merged runs to spot ranges Slurm cannot step through.
class HostlistAccess {
 public:
  struct RunView {
    std::uint64_t lo, hi;
    const HostRange* first;
  };
  static std::vector<RunView> runs(const Hostlist& l) {
    std::vector<RunView> out;
    out.reserve(l.runs_.size());
    for (const Hostlist::Run& r : l.runs_) out.push_back(RunView{r.lo, r.hi, &l.ranges_[r.first]});
    return out;
  }
  static std::deque<SlurmRange> slurm_ranges(const Hostlist& l, std::deque<std::string>& names) {
    std::deque<SlurmRange> out;
    for (const Hostlist::Run& run : l.runs_) {
      const HostRange& first = l.ranges_[run.first];
      switch (kind_of(first)) {
        case Kind::single:
          out.push_back(SlurmRange{first.prefix, 0, 0, 0, true});
          break;
        case Kind::numeric:
          out.push_back(SlurmRange{first.prefix, run.lo, run.hi, run.width, false});
          break;
        case Kind::suffixed:
          for (std::uint64_t i = 0; i < first.count(); ++i) {
            names.push_back(first.host(i));
            out.push_back(SlurmRange{names.back(), 0, 0, 0, true});
          }
          break;
      }
    }
    return out;
  }
};

// ---------------------------------------------------------------------------------------------
// Parsing

namespace {

struct Item {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  int width = 0;
  std::size_t begin = 0;  ///< offsets into the parsed text
  std::size_t end = 0;
  std::uint64_t count() const noexcept { return hi - lo + 1; }
};

enum class Status : std::uint8_t { ok, invalid, fatal };

/// A bracket group inside a token's prefix. Level 0 is the rightmost one: Slurm expands it
/// in the outer loop and recurses leftwards, so the leftmost group varies fastest.
struct Level {
  std::size_t open = 0;
  std::size_t close = 0;
  std::size_t literal_end = 0;  ///< text after `]` up to the next group (or the top `[`)
  std::vector<Item> items;
  std::size_t used = 0;  ///< items Slurm gets through before its prefix cap stops it
  std::uint64_t count = 0;
};

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) noexcept {
  if (a == 0 || b == 0) return 0;
  return a > kULongMax / b ? kULongMax : a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
  return a > kULongMax - b ? kULongMax : a + b;
}

class Parser {
 public:
  Parser(std::string_view text, Span where, const VersionProfile& profile)
      : text_(text.substr(0, std::min(text.size(), text.find('\0')))),
        where_(where),
        exact_(where.size() == text.size()),
        newline_separates_(!profile.hostlist_missing_bracket_is_literal()),
        missing_bracket_literal_(profile.hostlist_missing_bracket_is_literal()),
        suffix_allowed_(profile.hostlist_suffix_allowed()) {}

  HostlistResult run() {
    std::size_t pos = 0, b = 0, e = 0;
    while (next_token(pos, b, e))
      if (token(b, e) != Status::ok) return std::move(result_);
    Hostlist list(std::move(ranges_));
    for (const auto& run : HostlistAccess::runs(list)) {
      // Slurm drops such a range after its first host and then walks off the list.
      if (run.hi == kULongMax && run.lo < run.hi) {
        error(run.first->item,
              fmt::format("range reaches {}; Slurm cannot step through it (scontrol crashes)", kULongMax), false);
        return std::move(result_);
      }
    }
    result_.list = std::move(list);
    return std::move(result_);
  }

 private:
  Span span(std::size_t b, std::size_t e) const {
    if (!exact_) return where_;
    return Span{where_.file, where_.begin + std::uint32_t(b), where_.begin + std::uint32_t(e)};
  }
  void error(Span s, std::string message, bool slurm_logs = true) {
    for (const HostlistError& seen : result_.errors)
      if (seen.message == message && seen.span.begin == s.begin && seen.span.end == s.end) return;
    result_.errors.push_back(HostlistError{s, std::move(message), slurm_logs});
  }
  void warning(Span s, std::string message) { result_.warnings.push_back(HostlistError{s, std::move(message), false}); }

  bool is_separator(char c) const noexcept {
    return c == ',' || c == ' ' || c == '\t' || (c == '\n' && newline_separates_);
  }

  std::size_t find_char(char c, std::size_t from) const noexcept {
    const std::size_t i = text_.find(c, from);
    return i == std::string_view::npos ? text_.size() : i;
  }

  /// _next_tok: split on separators, except that a `[` before the separator whose first
  /// following `]` lies beyond it pulls the token on to that `]`.
  bool next_token(std::size_t& pos, std::size_t& b, std::size_t& e) const {
    const std::size_t n = text_.size();
    while (pos < n && is_separator(text_[pos])) ++pos;
    if (pos >= n) return false;
    b = pos;
    std::size_t parse = pos, s = pos;
    for (;;) {
      while (s < n && !is_separator(text_[s])) ++s;
      bool extended = false;
      for (;;) {
        const std::size_t open = find_char('[', parse);
        if (open >= n || open > s) break;
        const std::size_t close = find_char(']', parse);
        if (close >= n || close < open) break;
        if (close < s) {
          parse = close + 1;
          continue;
        }
        s = close;
        extended = true;
        break;
      }
      if (!extended) break;
    }
    e = s;
    while (s < n && is_separator(text_[s])) ++s;
    pos = s;
    return true;
  }

  bool account(std::uint64_t ranges, std::uint64_t hosts, Span where) {
    const std::uint64_t total_ranges = saturating_add(total_ranges_, ranges);
    const std::uint64_t total_hosts = saturating_add(total_hosts_, hosts);
    if (total_ranges > kMaxTotalRanges) {
      error(where,
            fmt::format("hostlist needs {} ranges; Slurm would build every one of them, greslint stops at {}",
                        total_ranges == kULongMax ? std::string("more than 2^64") : std::to_string(total_ranges),
                        kMaxTotalRanges),
            false);
      return false;
    }
    if (total_hosts > kMaxTotalHosts) {
      error(where,
            fmt::format("hostlist holds {} hosts; Slurm counts hosts in an int, which breaks above {}",
                        total_hosts == kULongMax ? std::string("more than 2^64") : std::to_string(total_hosts),
                        kMaxTotalHosts),
            false);
      return false;
    }
    total_ranges_ = total_ranges;
    total_hosts_ = total_hosts;
    return true;
  }

  void push_host(std::string_view name, Span where) {
    const SlurmRange s = split_hostname(name);
    HostRange r;
    r.prefix = std::string(s.prefix);
    r.numeric = !s.single;
    r.lo = s.lo;
    r.hi = s.hi;
    r.width = s.width;
    r.item = r.expr = where;
    ranges_.push_back(std::move(r));
  }

  Status token(std::size_t b, std::size_t e) {
    const std::string_view tok = text_.substr(b, e - b);
    const Span expr = span(b, e);
    const std::size_t open = tok.rfind('[');
    if (open == std::string_view::npos) {
      if (!account(1, 1, expr)) return Status::invalid;
      push_host(tok, expr);
      return Status::ok;
    }
    const std::size_t close = tok.find(']', open + 1);
    if (close == std::string_view::npos) {
      if (!missing_bracket_literal_) {
        error(span(b + open, e), fmt::format("`[' without `]' in `{}'", tok), false);
        return Status::invalid;
      }
      const std::string host = open > 0 ? std::string(tok.substr(0, open)) + "]" : std::string(tok.substr(open + 1));
      warning(expr, fmt::format("`{}' has no `]'; Slurm 22.05 reads it as the host `{}' (23.02 rejects it)", tok, host));
      if (!account(1, 1, expr)) return Status::invalid;
      push_host(host, expr);
      return Status::ok;
    }
    std::string_view suffix;
    if (close + 1 < tok.size() && tok[close + 1] != ',') {
      if (!suffix_allowed_) {
        error(span(b + close + 1, e),
              fmt::format("text after `]' needs Slurm 23.11 or later: `{}'", tok.substr(close + 1)), false);
        return Status::invalid;
      }
      suffix = tok.substr(close + 1);
    }
    std::vector<Item> top;
    if (parse_range_list(b + open + 1, b + close, top) != Status::ok) return Status::invalid;
    for (const Item& it : top)
      if (it.hi == kULongMax && it.lo < it.hi) {
        error(span(it.begin, it.end),
              fmt::format("range `{}' reaches {}; Slurm cannot step through it", text_.substr(it.begin, it.end - it.begin),
                          kULongMax),
              false);
        return Status::invalid;
      }
    return push_range_list(b, b + open, suffix, top, expr);
  }

  Status parse_range_list(std::size_t b, std::size_t e, std::vector<Item>& items) {
    std::size_t s = b;
    for (;;) {
      const std::size_t comma = std::min(find_char(',', s), e);
      if (items.size() == kMaxRangesPerBracket) {
        error(span(s, comma), "_parse_range_list: Too many ranges, can't process entire list");
        return Status::fatal;
      }
      Item it;
      if (!parse_single_range(s, comma, it)) return Status::invalid;
      items.push_back(it);
      if (comma >= e) return Status::ok;
      s = comma + 1;
    }
  }

  bool parse_single_range(std::size_t b, std::size_t e, Item& out) {
    const std::string_view item = text_.substr(b, e - b);
    auto reject = [&](const char* what) {
      error(span(b, e), fmt::format("_parse_single_range: {} `{}'", what, item));
      return false;
    };
    if (item.find('x') != std::string_view::npos) return reject("Invalid range:");
    const std::size_t dash = item.find('-');
    const bool has_dash = dash != std::string_view::npos;
    const std::string_view lo_text = has_dash ? item.substr(0, dash) : item;
    const std::string_view hi_text = has_dash ? item.substr(dash + 1) : std::string_view();
    if (!hi_text.empty() && hi_text.front() == '-') return reject("Invalid range:");
    const ULongParse lo = parse_ulong(lo_text);
    if (!lo.converted) return reject("Invalid range:");
    std::uint64_t hi = lo.value;
    if (!hi_text.empty()) {
      // Slurm never looks at what follows the low bound once a high bound is present.
      const ULongParse h = parse_ulong(hi_text);
      if (!h.converted || h.end != hi_text.size()) return reject("Invalid range:");
      hi = h.value;
    } else if (lo.end != lo_text.size()) {
      return reject("Invalid range:");
    }
    if (lo.value > hi) return reject("Invalid range:");
    if (hi - lo.value + 1 > kMaxHostsPerRange) return reject("Too many hosts in range");
    out = Item{lo.value, hi, int(lo_text.size()), b, e};
    const auto plain = [](std::string_view t) {
      return std::all_of(t.begin(), t.end(), [](char c) { return c_isdigit(c); });
    };
    if (!plain(lo_text) || !plain(hi_text)) {
      warning(span(b, e), fmt::format("`{}' is not plain digits; Slurm reads it as {} padded to width {}", item,
                                      lo.value == hi ? std::to_string(hi) : fmt::format("{}-{}", lo.value, hi),
                                      lo_text.size()));
    }
    return true;
  }

  /// _push_range_list: expand the bracket groups of the prefix, then push the top ranges
  /// under every resulting prefix.
  Status push_range_list(std::size_t prefix_b, std::size_t prefix_e, std::string_view suffix,
                         const std::vector<Item>& top, Span expr) {
    std::vector<Level> levels;
    std::size_t end = prefix_e;
    for (;;) {
      const std::string_view region = text_.substr(prefix_b, end - prefix_b);
      const std::size_t open = region.rfind('[');
      if (open == std::string_view::npos) break;
      const std::size_t close = region.rfind(']');
      if (close == std::string_view::npos || close < open) break;
      Level l;
      l.open = prefix_b + open;
      l.close = prefix_b + close;
      l.literal_end = end;
      levels.push_back(std::move(l));
      end = prefix_b + open;
    }
    const std::size_t literal_end = end;

    bool yields_nothing = false;
    bool first_level_over = false;
    if (!levels.empty()) {
      Level& outer = levels.front();
      if (parse_range_list(outer.open + 1, outer.close, outer.items) != Status::ok) return Status::invalid;
      if (Status s = check_prefix_items(outer); s != Status::ok) return s;
      for (const Item& it : outer.items) {
        outer.count += it.count();
        ++outer.used;
        if (outer.count > kMaxPrefixes) {
          first_level_over = true;
          break;
        }
      }
      // Deeper groups are parsed inside Slurm's recursion, whose failures it logs and ignores.
      for (std::size_t k = 1; k < levels.size(); ++k) {
        Level& l = levels[k];
        const Status s = parse_range_list(l.open + 1, l.close, l.items);
        if (s == Status::fatal) return Status::invalid;
        if (s == Status::invalid) {
          yields_nothing = true;
          break;
        }
        if (Status c = check_prefix_items(l); c != Status::ok) return c;
        for (const Item& it : l.items) {
          if (l.count + it.count() > kMaxPrefixes) {
            warning(span(l.open, l.close + 1),
                    fmt::format("Slurm silently stops `{}' after {} prefixes",
                                text_.substr(l.open, l.close + 1 - l.open), l.count));
            break;
          }
          l.count += it.count();
          ++l.used;
        }
      }
      if (first_level_over) {
        error(span(outer.open, outer.close + 1),
              fmt::format("more than {} prefixes from `{}'", kMaxPrefixes,
                          text_.substr(outer.open, outer.close + 1 - outer.open)),
              false);
        return Status::invalid;
      }
    }
    if (yields_nothing) return Status::ok;

    std::uint64_t prefixes = 1;
    for (const Level& l : levels) prefixes = saturating_mul(prefixes, l.count);
    std::uint64_t top_hosts = 0;
    for (const Item& it : top) top_hosts = saturating_add(top_hosts, it.count());
    if (!account(saturating_mul(prefixes, top.size()), saturating_mul(prefixes, top_hosts), expr))
      return Status::invalid;

    const std::string leftmost(text_.substr(prefix_b, literal_end - prefix_b));
    std::vector<std::uint64_t> chosen(levels.size());
    std::vector<int> chosen_width(levels.size());
    std::string prefix;
    const std::string suffix_text(suffix);
    std::function<void(std::size_t)> expand = [&](std::size_t k) {
      if (k == levels.size()) {
        prefix = leftmost;
        for (std::size_t i = levels.size(); i-- > 0;) {
          const Level& l = levels[i];
          append_padded(prefix, chosen[i], chosen_width[i]);
          prefix.append(text_.substr(l.close + 1, l.literal_end - l.close - 1));
        }
        for (const Item& it : top) {
          HostRange r;
          r.prefix = prefix;
          r.suffix = suffix_text;
          r.lo = it.lo;
          r.hi = it.hi;
          r.width = it.width;
          r.numeric = true;
          r.item = span(it.begin, it.end);
          r.expr = expr;
          ranges_.push_back(std::move(r));
        }
        return;
      }
      const Level& l = levels[k];
      for (std::size_t i = 0; i < l.used; ++i) {
        const Item& it = l.items[i];
        chosen_width[k] = it.width;
        for (std::uint64_t v = it.lo;; ++v) {
          chosen[k] = v;
          expand(k + 1);
          if (v == it.hi) break;
        }
      }
    };
    expand(0);
    return Status::ok;
  }

  /// Slurm's prefix loop counts up to hi inclusive and never ends when hi is the largest
  /// unsigned long.
  Status check_prefix_items(const Level& l) {
    for (const Item& it : l.items)
      if (it.hi == kULongMax) {
        error(span(it.begin, it.end),
              fmt::format("prefix range `{}' reaches {}; Slurm loops forever on it",
                          text_.substr(it.begin, it.end - it.begin), kULongMax),
              false);
        return Status::invalid;
      }
    return Status::ok;
  }

  std::string_view text_;
  Span where_;
  bool exact_;
  bool newline_separates_;
  bool missing_bracket_literal_;
  bool suffix_allowed_;
  std::vector<HostRange> ranges_;
  std::uint64_t total_ranges_ = 0;
  std::uint64_t total_hosts_ = 0;
  HostlistResult result_;
};

}  // namespace

HostlistResult parse_hostlist(std::string_view text, Span where, const VersionProfile& profile) {
  return Parser(text, where, profile).run();
}

std::string fold_hostnames(std::vector<std::string> hosts, bool sort_unique) {
  std::deque<SlurmRange> pool;
  for (const std::string& h : hosts) {
    SlurmRange r = split_hostname(h);
    if (!pool.empty() && !r.single && !pool.back().single && push_joins(pool.back(), r)) {
      pool.back().hi = r.hi;
      continue;
    }
    pool.push_back(r);
  }
  return fold_ranges(pool, sort_unique ? FoldOrder::sorted_unique : FoldOrder::as_written);
}

std::string fold_hostlist(const Hostlist& list, FoldOrder order) {
  std::deque<std::string> names;
  std::deque<SlurmRange> pool = HostlistAccess::slurm_ranges(list, names);
  return fold_ranges(pool, order);
}

}  // namespace greslint
