// SPDX-License-Identifier: Apache-2.0
// A map from 64-bit keys to 32-bit ids in one flat array.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace greslint {

/// Numbers pairs of ids ((list << 32) | line, (node content << 32) | lines content): the model
/// looks one up per node a gres.conf line names and per node it classes.
/// Performance: replaces std::unordered_map<std::uint64_t, std::uint32_t>, whose emplace
/// allocated a heap node per call even when the key was there, and whose buckets cost a
/// cache miss per probe: on a cluster written node by node (100,000 nodes, two gres.conf lines
/// each) those maps were an eighth of the whole run. Open addressing, linear probing, Fibonacci
/// hashing (the keys are small counters, so their low bits alone would cluster).
class IdMap {
 public:
  /// The id `key` has, or, when it has none yet, `id`, which it then keeps. `.second` is true
  /// when the key was added.
  std::pair<std::uint32_t, bool> try_emplace(std::uint64_t key, std::uint32_t id) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) {
        s = Slot{key, id, true};
        ++size_;
        return {id, true};
      }
      if (s.key == key) return {s.id, false};
    }
  }
  std::size_t size() const noexcept { return size_; }
  /// Forgets every key. A large table is freed rather than wiped: one map serving line after
  /// line must not cost, per line, the size of the longest line it served.
  void clear() {
    if (size_ == 0) return;
    if (slots_.size() > kKeptCapacity) {
      slots_ = std::vector<Slot>();
      mask_ = 0;
      shift_ = 64;
    } else {
      std::fill(slots_.begin(), slots_.end(), Slot{});
    }
    size_ = 0;
  }

 private:
  static constexpr std::size_t kKeptCapacity = 1024;
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t id = 0;
    bool used = false;
  };
  std::size_t slot_of(std::uint64_t key) const noexcept {
    return std::size_t((key * 0x9E3779B97F4A7C15ULL) >> shift_);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    for (const Slot& s : old) {
      if (!s.used) continue;
      std::size_t i = slot_of(s.key);
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace greslint
