// SPDX-License-Identifier: Apache-2.0
// line_memory: a line's pairs come from the blocks of a thread that holds a Blocks, from
// malloc otherwise; either is freed on any thread, and a block goes with its last line.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/line_allocator.hpp"

using namespace greslint;

namespace {

/// Seven pairs, as a NodeName line with its own NodeAddr= has, the i-th line's.
KeyValues line_pairs(const std::vector<std::string>& values, std::size_t i) {
  KeyValues pairs;
  pairs.reserve(7);
  for (std::uint32_t k = 0; k < 7; ++k) {
    KeyValue kv;
    kv.key = "NodeAddr";
    kv.value = values[i];
    kv.value_span = Span{FileId{}, std::uint32_t(i), k};
    pairs.push_back(kv);
  }
  return pairs;
}

}  // namespace

TEST_CASE("line memory: a reading thread's lines live in its blocks until the last is freed", "[memory]") {
  constexpr std::size_t kLines = 5000;  // 2.5 MB of pairs: blocks of 16 KiB doubling to 1 MiB
  std::vector<std::string> values;
  for (std::size_t i = 0; i < kLines; ++i) values.push_back("10.0." + std::to_string(i / 256) + "." + std::to_string(i % 256));
  const std::size_t before = line_memory::blocks_alive();
  std::vector<KeyValues> lines;
  std::thread reader([&] {
    const line_memory::Blocks blocks;
    for (std::size_t i = 0; i < kLines; ++i) lines.push_back(line_pairs(values, i));
  });
  reader.join();
  // The thread is gone; its blocks stay while lines in them do.
  CHECK(line_memory::blocks_alive() >= before + 8);
  for (std::size_t i = 0; i < kLines; i += 499) {
    REQUIRE(lines[i].size() == 7);
    CHECK(lines[i][6].value == values[i]);
    CHECK(lines[i][6].value_span.begin == i);
    CHECK(lines[i][6].value_span.end == 6);
  }
  // Freed here, on another thread than the one that took them, in any order.
  lines.erase(lines.begin() + 1000, lines.begin() + 4000);
  CHECK(line_memory::blocks_alive() > before);
  lines.clear();
  CHECK(line_memory::blocks_alive() == before);
}

TEST_CASE("line memory: without a Blocks, and past a block's share, lines take malloc's memory", "[memory]") {
  const std::size_t before = line_memory::blocks_alive();
  std::vector<std::string> values{"n1"};
  {
    const KeyValues here = line_pairs(values, 0);
    CHECK(line_memory::blocks_alive() == before);
  }
  std::thread reader([&] {
    const line_memory::Blocks blocks;
    KeyValues huge;
    huge.reserve(100000);  // a 10 MB line of repeated keys: 7 MB of pairs
    CHECK(line_memory::blocks_alive() == before);
    {
      const line_memory::Blocks nested;  // a Blocks inside another keeps the thread's block
      const KeyValues small = line_pairs(values, 0);
      CHECK(line_memory::blocks_alive() == before + 1);
    }
    // The vector is freed but the thread still holds its current block.
    CHECK(line_memory::blocks_alive() == before + 1);
  });
  reader.join();
  CHECK(line_memory::blocks_alive() == before);
}
