// SPDX-License-Identifier: Apache-2.0
// A fast hash of short texts, for the tables that look up a line or a name per line read.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace greslint {

/// Hashes `text` eight bytes at a time, in two lanes: each word is mixed into its lane with
/// one multiply and a shift, and the result is mixed again so that its low bits (a bucket
/// index) depend on every byte.
/// Performance: std::hash<std::string_view> (MurmurHash, byte-oriented tail and 4-byte
/// rounds) was 8% of linting a cluster written node by node, where every line's text after its
/// first key and every node name is hashed once or twice. In one lane each word waited for the
/// multiply of the word before: hashing a node line's ~100-byte tail twice was two thirds of
/// Reader::read_record; two lanes' multiplies overlap. Not for hostile collision attacks: the
/// tables that use it are bounded or hold names from the admin's own files.
inline std::uint64_t text_hash(std::string_view text) noexcept {
  constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio, odd
  constexpr std::uint64_t kSecondLane = 0xC2B2AE3D27D4EB4FULL;  // another odd constant
  const char* p = text.data();
  std::size_t n = text.size();
  std::uint64_t h = (n + 1) * kMultiplier;
  std::uint64_t second = (n + 1) * kSecondLane;
  auto mix = [](std::uint64_t lane, const char* at) {
    std::uint64_t word = 0;
    std::memcpy(&word, at, 8);
    lane = (lane ^ word) * kMultiplier;
    return lane ^ (lane >> 32);
  };
  for (; n >= 16; p += 16, n -= 16) {
    h = mix(h, p);
    second = mix(second, p + 8);
  }
  if (n >= 8) {
    h = mix(h, p);
    p += 8;
    n -= 8;
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
  h = (h ^ second * kSecondLane ^ last) * kMultiplier;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

}  // namespace greslint
