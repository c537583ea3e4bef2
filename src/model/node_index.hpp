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
    const Parsed p = parse(name);
    const std::uint32_t id = p.digits <= kMaxExactDigits ? find_prefix(p.prefix, p.prefix_hash) : kNoPrefix;
    // No name with this text before its number was indexed by its parts, nor, with room for
    // more such texts, by the whole name.
    if (id == kNoPrefix && p.digits <= kMaxExactDigits && !prefixes_full_) return kNone;
    return slots_[slot_of(names, name, p, id)].node;
  }
  /// Where find_near guesses: the node after the one it found last, or that one again, while
  /// such guesses keep being right.
  struct Near {
    std::uint32_t previous = kNone;
    std::uint32_t misses = 0;  ///< guesses wrong in a row, up to kNearMisses
  };
  /// find(), trying first the node after the one found last, then that one itself: gres.conf
  /// and partition hostlists mostly name nodes in slurm.conf order, a gres.conf written node
  /// by node often has two or more lines per node, and comparing with a name of node_names
  /// (contiguous memory) saves the probe. Names are unique in node_names, so an equal name
  /// is the answer. Performance: in another order than slurm.conf's each guess is a cache
  /// miss of its own; after kNearMisses wrong guesses in a row it stops guessing, until a
  /// node found is one a guess would have found.
  std::uint32_t find_near(const std::vector<std::string>& names, std::string_view name, Near& near) const {
    const std::uint32_t next = near.previous + 1;  // kNone + 1 == 0: the first node
    if (near.misses < kNearMisses) {
      if (next < names.size() && names[next] == name) {
        near.misses = 0;
        return near.previous = next;
      }
      if (near.previous < names.size() && names[near.previous] == name) {
        near.misses = 0;
        return near.previous;
      }
    }
    const std::uint32_t found = find(names, name);
    if (found == kNone) return found;
    const bool guessable = found == next || found == near.previous;
    near.misses = guessable ? 0 : std::min(near.misses + 1, kNearMisses);
    near.previous = found;
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
    const std::string_view name = names[node];
    const Parsed p = parse(name);
    const std::uint32_t id = p.digits <= kMaxExactDigits ? add_prefix(p.prefix, p.prefix_hash) : kNoPrefix;
    Slot& s = slots_[slot_of(names, name, p, id)];
    if (s.node != kNone) return s.node;
    s = Slot{p.hash, node, key_of(name, p, id)};
    ++count_;
    return node;
  }

 private:
  /// A slot's key tells its name from every other without reading the name: the id of the
  /// text before the name's trailing number, how many digits that number has and its value,
  /// for a name whose text before the number is among the first kMaxPrefixes; else a hash of
  /// the whole name (the top bit clear), and the names are compared.
  /// Performance: a lookup out of node order (a gres.conf or a partition that lists the nodes
  /// in another order than slurm.conf) missed the cache twice, in the slots and then in
  /// node_names to compare the name, and the second miss was three quarters of the lookup.
  struct Slot {
    std::uint32_t hash = 0;  ///< where the probe starts (see parse)
    std::uint32_t node = kNone;
    std::uint64_t key = 0;
  };
  static constexpr std::uint32_t kNearMisses = 4;
  static constexpr std::uint32_t kNoPrefix = 0xFFFFFFFF;
  static constexpr std::uint32_t kMaxPrefixes = 1u << 13;
  static constexpr std::size_t kMaxExactDigits = 15;  ///< fewer than 2^50 (digits, number) pairs
  static constexpr std::uint64_t kExact = std::uint64_t{1} << 63;

  /// A name as the index sees it: the text before its trailing number (at most 18 digits),
  /// the number, and where its probe starts.
  struct Parsed {
    std::string_view prefix;
    std::size_t digits = 0;
    std::uint64_t number = 0;
    std::uint64_t prefix_hash = 0;
    std::uint32_t hash = 0;
  };
  /// Names that differ only in a trailing number a little apart (r0001n001 ... r0001n008)
  /// hash to neighbouring slots: node names are inserted and looked up mostly in counting
  /// order, and a random slot per name was a cache miss each (most of building the index of
  /// 100,000 nodes). Groups of eight numbers share a cache line of slots; the groups and
  /// the text before the number are hashed, so no long runs of names pile up in one place.
  static Parsed parse(std::string_view s) noexcept {
    std::size_t begin = s.size();
    while (begin > 0 && s[begin - 1] >= '0' && s[begin - 1] <= '9' && s.size() - begin < 18) --begin;
    Parsed p;
    p.prefix = s.substr(0, begin);
    p.digits = s.size() - begin;
    for (std::size_t i = begin; i < s.size(); ++i) p.number = p.number * 10 + std::uint64_t(s[i] - '0');
    p.prefix_hash = text_hash(p.prefix);
    const std::uint64_t group = ((p.prefix_hash ^ p.digits) + (p.number >> 3)) * 0x9E3779B97F4A7C15ULL;
    p.hash = static_cast<std::uint32_t>((group >> 32) & ~std::uint64_t{7}) | std::uint32_t(p.number & 7);
    return p;
  }
  /// The (digits, number) pairs of up to kMaxExactDigits digits counted one after another
  /// ("" 0, then "0".."9", then "00".."99", ...), below the prefix's id.
  static std::uint64_t exact_key(std::uint32_t prefix, const Parsed& p) noexcept {
    std::uint64_t shorter = 0;  // the pairs of fewer digits: (10^digits - 1) / 9
    for (std::size_t i = 0; i < p.digits; ++i) shorter = shorter * 10 + 1;
    return kExact | (std::uint64_t(prefix) << 50) | (shorter + p.number);
  }
  static std::uint64_t whole_key(std::string_view name) noexcept { return text_hash(name) & ~kExact; }
  /// The key of `name` (parsed as `p`), `prefix` the id of its text before the number or
  /// kNoPrefix.
  static std::uint64_t key_of(std::string_view name, const Parsed& p, std::uint32_t prefix) noexcept {
    return prefix != kNoPrefix ? exact_key(prefix, p) : whole_key(name);
  }
  /// The slot that indexes `name`, or the empty one where it would go: names keyed by their
  /// parts are told apart by their key alone.
  std::size_t slot_of(const std::vector<std::string>& names, std::string_view name, const Parsed& p,
                      std::uint32_t prefix) const {
    const std::uint64_t key = key_of(name, p, prefix);
    for (std::size_t i = p.hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.node == kNone || (s.key == key && (prefix != kNoPrefix || names[s.node] == name))) return i;
    }
  }

  std::uint32_t find_prefix(std::string_view prefix, std::uint64_t h) const noexcept {
    if (prefix_slots_.empty()) return kNoPrefix;
    const std::size_t mask = prefix_slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const PrefixSlot& s = prefix_slots_[i];
      if (s.id == kNoPrefix) return kNoPrefix;
      if (s.hash == h && prefixes_[s.id] == prefix) return s.id;
    }
  }
  /// The id of `prefix`, given one if there is room. Names are inserted in slurm.conf's
  /// order, where a rack's nodes share the text before their number: the last id first.
  std::uint32_t add_prefix(std::string_view prefix, std::uint64_t h) {
    if (last_prefix_ != kNoPrefix && prefixes_[last_prefix_] == prefix) return last_prefix_;
    if (const std::uint32_t id = find_prefix(prefix, h); id != kNoPrefix) return last_prefix_ = id;
    if (prefixes_.size() == kMaxPrefixes) {
      prefixes_full_ = true;
      return kNoPrefix;
    }
    if ((prefixes_.size() + 1) * 2 > prefix_slots_.size()) {
      std::vector<PrefixSlot> old = std::move(prefix_slots_);
      prefix_slots_.assign(old.empty() ? 64 : old.size() * 2, PrefixSlot{});
      for (const PrefixSlot& s : old)
        if (s.id != kNoPrefix) place_prefix(s);
    }
    const auto id = std::uint32_t(prefixes_.size());
    prefixes_.emplace_back(prefix);
    place_prefix(PrefixSlot{h, id});
    return last_prefix_ = id;
  }
  struct PrefixSlot {
    std::uint64_t hash = 0;
    std::uint32_t id = kNoPrefix;
  };
  void place_prefix(const PrefixSlot& slot) {
    const std::size_t mask = prefix_slots_.size() - 1;
    std::size_t i = slot.hash & mask;
    while (prefix_slots_[i].id != kNoPrefix) i = (i + 1) & mask;
    prefix_slots_[i] = slot;
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
  std::vector<std::string> prefixes_;  ///< by id
  std::vector<PrefixSlot> prefix_slots_;
  std::uint32_t last_prefix_ = kNoPrefix;
  bool prefixes_full_ = false;  ///< some name's prefix found no room: its key is whole_key
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
