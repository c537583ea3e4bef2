// SPDX-License-Identifier: Apache-2.0
// A fast hash of short texts, for the tables that look up a line or a name per line read.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace greslint {

/// Hashes `text` eight bytes at a time: each word is mixed in with one multiply and a shift,
/// and the result is mixed again so that its low bits (a bucket index) depend on every byte.
/// Performance: std::hash<std::string_view> (MurmurHash, byte-oriented tail and 4-byte
/// rounds) was 8% of linting a cluster written node by node, where every line's text after its
/// first key and every node name is hashed once or twice. Not for hostile collision attacks:
/// the tables that use it are bounded or hold names from the admin's own files.
inline std::uint64_t text_hash(std::string_view text) noexcept {
  constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio, odd
  const char* p = text.data();
  std::size_t n = text.size();
  std::uint64_t h = (n + 1) * kMultiplier;
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, 8);
    h = (h ^ word) * kMultiplier;
    h ^= h >> 32;
  }
  std::uint64_t last = 0;
  if (n > 0 && text.size() >= 8) {
    // The last eight bytes of the text, shifted down to the n not yet mixed in: the same value
    // as gathering those bytes one by one (little-endian), which was 2% of reading a
    // per-node gres.conf.
    std::memcpy(&last, p + n - 8, 8);
    last >>= 8 * (8 - n);
  } else {
    for (std::size_t i = 0; i < n; ++i) last |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  }
  h = (h ^ last) * kMultiplier;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

}  // namespace greslint
