// SPDX-License-Identifier: Apache-2.0
// Folding host names into Slurm's ranged form: hostlist_sort, coalesce, uniq and
// hostlist_ranged_string, rebuilt from hostlist.c's observable behaviour.
#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "hostlist/hostlist_detail.hpp"

namespace greslint {

using namespace hostlist_detail;

namespace {

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

/// The list's runs as Slurm's hostranges; a suffixed range (23.11) is one range per host,
/// named in `names`.
std::deque<SlurmRange> slurm_ranges(const Hostlist& l, std::deque<std::string>& names) {
  std::deque<SlurmRange> out;
  for (const HostlistAccess::RunView& run : HostlistAccess::runs(l)) {
    const HostRange& first = *run.first;
    switch (kind_of(first)) {
      case Kind::single: out.push_back(SlurmRange{first.prefix, 0, 0, 0, true}); break;
      case Kind::numeric: out.push_back(SlurmRange{first.prefix, run.lo, run.hi, run.width, false}); break;
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

}  // namespace

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
  std::deque<SlurmRange> pool = slurm_ranges(list, names);
  return fold_ranges(pool, order);
}

}  // namespace greslint
