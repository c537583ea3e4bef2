// SPDX-License-Identifier: Apache-2.0
// A parsed hostlist: its hosts in Slurm's order, and membership as hostlist_find answers it.
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "greslint/text_hash.hpp"
#include "hostlist/hostlist_detail.hpp"

namespace greslint {

using namespace hostlist_detail;

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
  // up in place and each name costs one append. Formatting every name anew (append_host) made
  // `greslint hostlist -e` about 4x slower per host.
  std::string name;            // host(i) and the separator
  std::size_t digits_end = 0;  // end of the number in `name`; 0: format the next name in full
  const std::uint64_t n = count();
  while (i < n && out.size() < limit) {
    if (digits_end == 0 || !count_up(name, digits_end)) {
      name.clear();
      append_host(i, name);
      digits_end = counting_end(i);
      name.push_back(separator);
    }
    out.append(name);
    ++i;
  }
  return i;
}

std::size_t HostRange::counting_end(std::uint64_t i) const noexcept {
  if (!numeric) return 0;
  const auto padded = std::size_t(std::max(width, 0));
  const std::size_t field = std::max(padded, std::size_t(digit_count(lo + i)));
  const bool cut_short = suffix.empty() && field > padded + 15;  // see append_host
  return cut_short ? 0 : prefix.size() + field;
}

bool HostRange::count_up(std::string& name, std::size_t digits_end) const noexcept {
  std::size_t d = digits_end;
  while (d > prefix.size() && name[d - 1] == '9') name[--d] = '0';
  if (d == prefix.size()) return false;
  ++name[d - 1];
  return true;
}

/// Hash lookups that narrow find() to the few runs that can hold a name; the answer is
/// still the first matching run in Slurm's order.
/// Performance: flat arrays sorted by hash, not hash maps of small vectors. Four bracket
/// groups of 100 in one name are a million runs of distinct prefixes: the maps made three
/// million allocations and were most of the 3 s `greslint hostlist -c` took on it.
class Hostlist::Index {
 public:
  explicit Index(const Hostlist& list);
  std::size_t find(const Hostlist& list, std::string_view host) const;

 private:
  struct Keyed {
    std::size_t hash;
    std::uint32_t run;
  };
  struct Entry {
    std::uint64_t lo;
    std::uint64_t hi;
    std::uint32_t run;
  };
  /// The numeric runs of one prefix: entries_[begin, end), sorted by lo (ties in run order).
  struct Group {
    std::size_t hash;
    std::uint32_t run;  ///< any run of the group, to read the prefix back
    std::uint32_t begin;
    std::uint32_t end;
  };
  /// The items of `sorted` (ascending by hash) whose hash is `h`.
  template <typename T>
  struct Matches {
    typename std::vector<T>::const_iterator first, last;
    auto begin() const { return first; }
    auto end() const { return last; }
  };
  template <typename T>
  static Matches<T> with_hash(const std::vector<T>& sorted, std::size_t h) {
    auto first =
        std::lower_bound(sorted.begin(), sorted.end(), h, [](const T& x, std::size_t v) { return x.hash < v; });
    auto last = first;
    while (last != sorted.end() && last->hash == h) ++last;
    return {first, last};
  }

  static std::size_t hash(std::string_view s) noexcept { return text_hash(s); }
  /// The prefix of run `ri` (its first range's: a run's ranges share it).
  static const std::string& prefix_of(const Hostlist& list, std::uint32_t ri) {
    return list.ranges_[list.runs_[ri].first].prefix;
  }

  std::vector<Group> groups_;          ///< ascending by hash
  std::vector<Entry> entries_;         ///< the groups' entries, one group after another
  std::vector<std::uint64_t> max_hi_;  ///< running maximum of hi over a group's entries so far
  std::vector<Keyed> singles_;         ///< by the name's hash, then run
  std::vector<Keyed> suffixed_;        ///< by the prefix's hash, then run
  std::vector<std::size_t> numeric_lengths_;
  std::vector<std::size_t> suffixed_lengths_;
};

/// Made on the first find(): parsing a long list (a partition's Nodes=, `greslint hostlist
/// -c`) mostly never asks for a member. Copies of the list share it.
struct Hostlist::LazyIndex {
  std::once_flag once;
  std::unique_ptr<const Index> index;
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
  std::vector<Keyed> numeric;
  for (std::uint32_t ri = 0; ri < list.runs_.size(); ++ri) {
    const HostRange& first = list.ranges_[list.runs_[ri].first];
    const std::string& prefix = first.prefix;
    switch (kind_of(first)) {
      case Kind::single: singles_.push_back(Keyed{hash(prefix), ri}); break;
      case Kind::suffixed:
        suffixed_.push_back(Keyed{hash(prefix), ri});
        add_length(suffixed_lengths_, prefix.size());
        break;
      case Kind::numeric:
        numeric.push_back(Keyed{hash(prefix), ri});
        add_length(numeric_lengths_, prefix.size());
        break;
    }
  }
  const auto by_hash_then_run = [](const Keyed& a, const Keyed& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.run < b.run;
  };
  std::sort(singles_.begin(), singles_.end(), by_hash_then_run);
  std::sort(suffixed_.begin(), suffixed_.end(), by_hash_then_run);
  // One group per prefix, its entries by lo: sorted by hash, prefix, lo, then run.
  std::sort(numeric.begin(), numeric.end(), [&](const Keyed& a, const Keyed& b) {
    if (a.hash != b.hash) return a.hash < b.hash;
    if (const int c = prefix_of(list, a.run).compare(prefix_of(list, b.run)); c != 0) return c < 0;
    const std::uint64_t a_lo = list.runs_[a.run].lo, b_lo = list.runs_[b.run].lo;
    return a_lo != b_lo ? a_lo < b_lo : a.run < b.run;
  });
  entries_.reserve(numeric.size());
  max_hi_.reserve(numeric.size());
  std::uint64_t running_max = 0;
  for (const Keyed& k : numeric) {
    const bool new_prefix = groups_.empty() || groups_.back().hash != k.hash ||
                            prefix_of(list, groups_.back().run) != prefix_of(list, k.run);
    if (new_prefix) {
      const auto at = std::uint32_t(entries_.size());
      groups_.push_back(Group{k.hash, k.run, at, at});
      running_max = 0;
    }
    const Run& run = list.runs_[k.run];
    entries_.push_back(Entry{run.lo, run.hi, k.run});
    max_hi_.push_back(running_max = std::max(running_max, run.hi));
    groups_.back().end = std::uint32_t(entries_.size());
  }
}

std::size_t Hostlist::Index::find(const Hostlist& list, std::string_view host) const {
  std::size_t best = kNoRun;
  for (const Keyed& k : with_hash(singles_, hash(host)))
    if (prefix_of(list, k.run) == host) {
      best = k.run;
      break;
    }
  if (ends_in_digit(host)) {
    for (std::size_t len : numeric_lengths_) {
      if (len > host.size()) break;
      for (const Group& g : with_hash(groups_, hash(host.substr(0, len)))) {
        const std::string& prefix = prefix_of(list, g.run);
        if (host.compare(0, len, prefix) != 0) continue;
        const std::uint64_t num = parse_ulong(host.substr(len)).value;
        const auto first = entries_.begin() + g.begin;
        const auto pos = std::upper_bound(first, entries_.begin() + g.end, num,
                                          [](std::uint64_t v, const Entry& e) { return v < e.lo; });
        // The entries at or before pos whose running maximum still reaches num can hold it.
        for (std::size_t j = std::size_t(pos - entries_.begin()); j-- > g.begin && max_hi_[j] >= num;) {
          const Entry& e = entries_[j];
          if (e.hi < num || e.run >= best) continue;
          const Run& run = list.runs_[e.run];
          if (numeric_run_holds(prefix, run.lo, run.hi, run.width, host)) best = e.run;
        }
      }
    }
  }
  for (std::size_t len : suffixed_lengths_) {
    if (len >= host.size()) break;
    for (const Keyed& k : with_hash(suffixed_, hash(host.substr(0, len)))) {
      if (k.run >= best) break;
      if (suffixed_range_holds(list.ranges_[list.runs_[k.run].first], host)) {
        best = k.run;
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
  if (runs_.size() > kIndexThreshold) index_ = std::make_shared<LazyIndex>();
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
      case Kind::single: hit = first.prefix == host; break;
      case Kind::suffixed: hit = suffixed_range_holds(first, host); break;
      case Kind::numeric: hit = digit_tail && numeric_run_holds(first.prefix, run.lo, run.hi, run.width, host); break;
    }
    if (hit) return range_of(ri, host);
  }
  return nullptr;
}

const HostRange* Hostlist::find(std::string_view host) const {
  if (!index_) return find_linear(host);
  std::call_once(index_->once, [&] { index_->index = std::make_unique<const Index>(*this); });
  const std::size_t ri = index_->index->find(*this, host);
  return ri == kNoRun ? nullptr : range_of(ri, host);
}

const HostRange* Hostlist::find_unindexed(std::string_view host) const { return find_linear(host); }

}  // namespace greslint
