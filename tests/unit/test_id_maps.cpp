// SPDX-License-Identifier: Apache-2.0
// The model's flat hash tables: IdMap (pairs of ids -> id) and NodeIndex (node name -> node),
// checked against std::unordered_map on the key shapes the model feeds them.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "greslint/id_map.hpp"
#include "greslint/text_hash.hpp"
#include "model/node_index.hpp"

using namespace greslint;

TEST_CASE("IdMap: keeps the first id of each key, like unordered_map::try_emplace", "[model]") {
  std::mt19937_64 rng(7);
  IdMap map;
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  // Small counters in both halves (what the model packs), plus keys over the whole range.
  for (std::uint32_t i = 0; i < 200000; ++i) {
    const std::uint64_t key = i % 3 == 0 ? rng() : (std::uint64_t(rng() % 5000) << 32) | (rng() % 700);
    const auto [id, fresh] = map.try_emplace(key, i);
    const auto [it, added] = reference.try_emplace(key, i);
    REQUIRE(fresh == added);
    REQUIRE(id == it->second);
  }
  CHECK(map.size() == reference.size());
  // Key 0 and the largest key are ordinary keys (no sentinel value).
  CHECK(map.try_emplace(0, 1).first == reference.try_emplace(0, 1).first->second);
  CHECK(map.try_emplace(~std::uint64_t{0}, 2).first == reference.try_emplace(~std::uint64_t{0}, 2).first->second);
}

TEST_CASE("IdMap: clear forgets every key, small or grown", "[model]") {
  IdMap map;
  for (std::uint32_t round = 0; round < 3; ++round) {
    const std::uint32_t keys = round == 1 ? 100000 : 5;  // grown past what clear() keeps, then small again
    for (std::uint32_t k = 0; k < keys; ++k) REQUIRE(map.try_emplace(k, k + round).second);
    CHECK(map.size() == keys);
    CHECK(map.try_emplace(keys / 2, 0).first == keys / 2 + round);
    map.clear();
    CHECK(map.size() == 0);
    CHECK(map.try_emplace(keys / 2, 42).second);
    map.clear();
  }
}

TEST_CASE("NodeIndex: finds every name, exactly, whatever the names look like", "[model]") {
  // Counted names (the hash puts neighbours together), padded and unpadded twins, names
  // without digits, digits only, numbers of 15 digits (the most a key holds) and of 16, more
  // digits than 64 bits hold, and a name with a NUL.
  std::vector<std::string> names;
  for (int rack = 1; rack <= 40; ++rack)
    for (int slot = 1; slot <= 100; ++slot) names.push_back(fmt::format("r{:04}n{:03}", rack, slot));
  for (int i = 0; i < 3000; ++i) names.push_back(fmt::format("gpu{}", i));
  for (int i = 0; i < 100; ++i) names.push_back(fmt::format("gpu{:05}", i));  // gpu00007 beside gpu7
  for (const char* s : {"login", "head", "0", "00", "000", "n999999999999999", "n0999999999999999",
                        "n099999999999999", "123456789012345678901234567890", "123456789012345678901234567891",
                        "n18446744073709551615", "n18446744073709551616"})
    names.emplace_back(s);
  names.push_back(std::string("nul\0name", 8));
  // More texts before a number than the index keys by their parts: the later ones are keyed
  // by the whole name, and found as surely.
  const std::size_t spelled = names.size();
  for (int i = 0; i < 9000; ++i) names.push_back(fmt::format("host-{}-x{}", i, i % 3 == 0 ? "" : "7"));
  model::NodeIndex index;
  for (std::uint32_t n = 0; n < names.size(); ++n) REQUIRE(index.insert(names, n) == n);
  model::NodeIndex::Near near;
  for (std::uint32_t n = 0; n < names.size(); ++n) {
    CAPTURE(names[n]);
    CHECK(index.find(names, names[n]) == n);
    CHECK(index.find_near(names, names[n], near) == n);
  }
  // Out of order (find_near stops guessing), then in order again (it guesses again).
  std::vector<std::uint32_t> order(spelled);
  for (std::uint32_t n = 0; n < order.size(); ++n) order[n] = std::uint32_t((std::uint64_t(n) * 2654435761u) % spelled);
  model::NodeIndex::Near wandering;
  for (const std::uint32_t n : order) {
    CAPTURE(names[n]);
    CHECK(index.find_near(names, names[n], wandering) == n);
  }
  for (std::uint32_t n = 0; n < spelled; ++n) CHECK(index.find_near(names, names[n], wandering) == n);
  // A second insert of a name answers the node that has it, keyed by its parts or whole.
  names.push_back("r0007n042");
  CHECK(index.insert(names, std::uint32_t(names.size() - 1)) == 6 * 100 + 41);
  names.back() = "host-8999-x7";
  CHECK(index.insert(names, std::uint32_t(names.size() - 1)) == spelled + 8999);
  names.pop_back();
  for (const char* absent : {"r0001n000", "r0041n001", "gpu3000", "gpu000100", "GPU1", "r0001n01", "", "nul",
                             "n99999999999999", "n1999999999999999", "host-9000-x7", "host-3-x7", "host-2-x"})
    CHECK(index.find(names, absent) == model::NodeIndex::kNone);
}

TEST_CASE("text_hash: equal texts alike, generated names and lines spread over buckets", "[model]") {
  CHECK(text_hash("r0001n001") == text_hash(std::string("r0001n001")));
  CHECK(text_hash("") != text_hash(std::string_view("\0", 1)));  // the length is mixed in
  CHECK(text_hash("abcdefgh") != text_hash(std::string_view("abcdefgh\0", 9)));
  // Names and lines as generators write them: every byte counts, and the low bits (what a
  // table of 2^k buckets uses) come out even, with no collision among 200,000 64-bit values.
  std::vector<std::string> texts;
  for (int n = 1; n <= 100000; ++n) texts.push_back(fmt::format("r{:04}n{:03}", (n - 1) / 32 + 1, (n - 1) % 32 + 1));
  for (int n = 0; n < 100000; ++n)
    texts.push_back(fmt::format(" Name=gpu Type=a100 File=/dev/nvidia[{}-{}] Cores={}-{}", n % 8, n % 8 + 3, n, n + 31));
  std::unordered_set<std::uint64_t> seen;
  constexpr std::size_t kBuckets = 1024;
  std::vector<int> load(kBuckets);
  for (const std::string& t : texts) {
    const std::uint64_t h = text_hash(t);
    seen.insert(h);
    ++load[h & (kBuckets - 1)];
  }
  CHECK(seen.size() == texts.size());
  const double mean = double(texts.size()) / kBuckets;  // ~195
  CHECK(double(*std::max_element(load.begin(), load.end())) < mean * 1.4);
  CHECK(double(*std::min_element(load.begin(), load.end())) > mean * 0.6);
}

TEST_CASE("text_hash: the last bytes mix in as gathered one by one, at every length", "[model]") {
  // The definition the fast path must keep: the bytes after the last whole word, gathered
  // little-endian into one word.
  auto reference = [](std::string_view text) {
    constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
    const char* p = text.data();
    std::size_t n = text.size();
    std::uint64_t h = (n + 1) * kMultiplier;
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t word = 0;
      for (std::size_t i = 0; i < 8; ++i) word |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
      h = (h ^ word) * kMultiplier;
      h ^= h >> 32;
    }
    std::uint64_t last = 0;
    for (std::size_t i = 0; i < n; ++i) last |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    h = (h ^ last) * kMultiplier;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
  };
  std::string text;
  for (int i = 0; i < 40; ++i) {
    CHECK(text_hash(text) == reference(text));
    text += static_cast<char>(0x80 + i * 3);  // bytes with the high bit set sign-extend if mishandled
  }
}
