// SPDX-License-Identifier: Apache-2.0
// Lookups of slurm.conf nodes by name: the exact index every step uses, and the "did you
// mean" table built only when gres.conf names a node slurm.conf does not define.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "greslint/text_hash.hpp"
#include "util.hpp"

namespace greslint::model {

/// Node name -> index into Cluster::node_names, for every lookup of a node by name (the
/// duplicate NodeName check, partitions, gres.conf lines).
/// Performance: this replaces std::unordered_map<std::string, ...> (built twice). On a
/// 100,000-node cluster those maps were ~45% of `greslint lint`: a heap node per name, a
/// pointer chase and a cache miss per probe, rehashing as they grew. Here one flat array of
/// (hash, node) slots with linear probing; the names stay in node_names, nothing is copied.
class NodeIndex {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;

  /// The node called `name` (exact, case-sensitive), or kNone.
  std::uint32_t find(const std::vector<std::string>& names, std::string_view name) const {
    if (slots_.empty()) return kNone;
    const std::uint32_t h = hash(name);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.node == kNone) return kNone;
      if (s.hash == h && names[s.node] == name) return s.node;
    }
  }
  /// find(), trying first the node after `previous` (and updating it), then `previous` itself:
  /// gres.conf and partition hostlists mostly name nodes in slurm.conf order, a gres.conf
  /// written node by node often has two or more lines per node, and comparing with a name of
  /// node_names (contiguous memory) saves the probe, a likely cache miss in a 2 MB table.
  /// Names are unique in node_names, so an equal name is the answer.
  std::uint32_t find_near(const std::vector<std::string>& names, std::string_view name, std::uint32_t& previous) const {
    const std::uint32_t next = previous + 1;  // kNone + 1 == 0: the first node
    if (next < names.size() && names[next] == name) return previous = next;
    if (previous < names.size() && names[previous] == name) return previous;
    const std::uint32_t found = find(names, name);
    if (found != kNone) previous = found;
    return found;
  }
  /// Makes room for `n` names at once (growing rehashes every name).
  void reserve(std::size_t n) {
    std::size_t want = 1024;
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) rehash(want);
  }
  /// Indexes names[node] unless a node of that name is indexed; returns the node that has it.
  std::uint32_t insert(const std::vector<std::string>& names, std::uint32_t node) {
    if ((count_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 1024 : slots_.size() * 2);
    const std::uint32_t h = hash(names[node]);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.node == kNone) {
        s = Slot{h, node};
        ++count_;
        return node;
      }
      if (s.hash == h && names[s.node] == names[node]) return s.node;
    }
  }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t node = kNone;
  };
  /// Names that differ only in a trailing number a little apart (r0001n001 ... r0001n008)
  /// hash to neighbouring slots: node names are inserted and looked up mostly in counting
  /// order, and a random slot per name was a cache miss each (most of building the index of
  /// 100,000 nodes). Groups of eight numbers share a cache line of slots; the groups and
  /// the text before the number are hashed, so no long runs of names pile up in one place.
  static std::uint32_t hash(std::string_view s) noexcept {
    std::size_t digits = s.size();
    while (digits > 0 && s[digits - 1] >= '0' && s[digits - 1] <= '9' && s.size() - digits < 18) --digits;
    std::uint64_t number = 0;
    for (std::size_t i = digits; i < s.size(); ++i) number = number * 10 + std::uint64_t(s[i] - '0');
    const std::uint64_t text = text_hash(s.substr(0, digits)) ^ (s.size() - digits);
    const std::uint64_t group = (text + (number >> 3)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<std::uint32_t>((group >> 32) & ~std::uint64_t{7}) | std::uint32_t(number & 7);
  }
  void rehash(std::size_t capacity) {  // a power of two
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.node == kNone) continue;
      std::size_t i = s.hash & mask_;
      while (slots_[i].node != kNone) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

/// "did you mean" for a gres.conf name slurm.conf does not define: the first slurm.conf node
/// (in definition order) that equals it ignoring case, or that has the same text before its
/// first digit, the same number there and a different length (zero padding differs).
/// Performance: replaces a scan of every node name for each of up to 256 unknown names per
/// gres.conf line (25 million comparisons per line on 100,000 nodes when no name is close);
/// the two tables are built once, only when some gres.conf name is unknown.
class SpellingHints {
 public:
  explicit SpellingHints(const std::vector<std::string>& names) {
    for (std::uint32_t i = 0; i < names.size(); ++i) {
      const std::string& n = names[i];
      lower_.emplace(to_lower(n), i);
      const std::size_t digit = n.find_first_of(kDigits);
      if (digit == std::string::npos) continue;
      std::vector<Sized>& firsts = numbered_[key(n.substr(0, digit), std::strtoull(n.c_str() + digit, nullptr, 10))];
      if (std::none_of(firsts.begin(), firsts.end(), [&](const Sized& s) { return s.size == n.size(); }))
        firsts.push_back(Sized{n.size(), i});
    }
  }
  /// The node `u` is probably a misspelling of, or NodeIndex::kNone.
  std::uint32_t find(const std::string& u) const {
    std::uint32_t best = NodeIndex::kNone;
    if (auto it = lower_.find(to_lower(u)); it != lower_.end()) best = it->second;
    const std::size_t digit = u.find_first_of(kDigits);
    auto it = numbered_.find(key(u.substr(0, digit), std::strtoull(u.c_str() + std::min(u.size(), digit), nullptr, 10)));
    if (it != numbered_.end())
      for (const Sized& s : it->second)
        if (s.size != u.size()) best = std::min(best, s.node);
    return best;
  }

 private:
  static constexpr const char* kDigits = "0123456789";
  /// First node of each length among the names with one (prefix, number).
  struct Sized {
    std::size_t size;
    std::uint32_t node;
  };
  /// prefix, a NUL (host names never hold one: the parsers stop there), then the number.
  static std::string key(std::string prefix, unsigned long long number) {
    prefix.push_back('\0');
    prefix += std::to_string(number);
    return prefix;
  }
  std::unordered_map<std::string, std::uint32_t> lower_;  ///< lower-cased name -> first node
  std::unordered_map<std::string, std::vector<Sized>> numbered_;
};

}  // namespace greslint::model
