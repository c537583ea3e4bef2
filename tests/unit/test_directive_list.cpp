// SPDX-License-Identifier: Apache-2.0
// DirectiveList: directives in file order across blocks that never move.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "greslint/config.hpp"

using namespace greslint;

namespace {

Directive numbered(std::uint32_t line) {
  Directive d;
  d.line = line;
  return d;
}

std::vector<std::uint32_t> lines_of(const DirectiveList& list) {
  std::vector<std::uint32_t> lines;
  for (const Directive& d : list) lines.push_back(d.line);
  return lines;
}

std::vector<std::uint32_t> one_to(std::uint32_t n) {
  std::vector<std::uint32_t> lines(n);
  for (std::uint32_t i = 0; i < n; ++i) lines[i] = i + 1;
  return lines;
}

}  // namespace

TEST_CASE("directive list: an empty list", "[directive-list]") {
  DirectiveList list;
  CHECK(list.empty());
  CHECK(list.size() == 0);
  CHECK(list.begin() == list.end());
  CHECK(list.iterator_at(0) == list.end());
  CHECK(list.room().second == 0);
  CHECK_THROWS_AS(list.at(0), std::out_of_range);
  // A block reserved and left empty holds nothing either.
  list.add_block(100);
  CHECK(list.begin() == list.end());
  CHECK(list.room().second >= 100);
}

TEST_CASE("directive list: directives stay where they were put as blocks are added", "[directive-list]") {
  DirectiveList list;
  list.add_block(3);
  std::vector<const Directive*> where;
  for (std::uint32_t line = 1; line <= 1000; ++line) {
    list.push_back(numbered(line));
    where.push_back(&list.back());
  }
  REQUIRE(list.size() == 1000);
  CHECK(lines_of(list) == one_to(1000));
  // Full blocks are followed by new ones: nothing moved.
  for (std::uint32_t i = 0; i < 1000; ++i) {
    CAPTURE(i);
    REQUIRE(&list[i] == where[i]);
    REQUIRE(list[i].line == i + 1);
  }
  CHECK(list.front().line == 1);
  CHECK(list.back().line == 1000);
  CHECK(list.at(999).line == 1000);
  CHECK_THROWS_AS(list.at(1000), std::out_of_range);
  // Moving the list moves no directive either.
  const DirectiveList moved = std::move(list);
  CHECK(&moved[500] == where[500]);
}

TEST_CASE("directive list: appended lists keep their blocks, in order", "[directive-list]") {
  DirectiveList list;
  list.add_block(10);
  for (std::uint32_t line = 1; line <= 4; ++line) list.push_back(numbered(line));
  DirectiveList later;
  later.add_block(100);
  for (std::uint32_t line = 5; line <= 9; ++line) later.push_back(numbered(line));
  const Directive* fifth = &later.front();
  list.append(std::move(later));
  CHECK(later.empty());
  CHECK(later.begin() == later.end());
  REQUIRE(list.size() == 9);
  CHECK(&list[4] == fifth);
  // The next directive goes to the appended block's room, after its own.
  CHECK(list.room().second == 95);
  list.push_back(numbered(10));
  CHECK(&list[9] == fifth + 5);
  // An empty list appended, and a list appended after an empty last block, leave no gap.
  list.append(DirectiveList());
  DirectiveList more;
  more.push_back(numbered(11));
  list.add_block(1);  // reserved, never used
  list.append(std::move(more));
  CHECK(lines_of(list) == one_to(11));
  for (std::uint32_t i = 0; i < 11; ++i) REQUIRE(list[i].line == i + 1);
}

TEST_CASE("directive list: a walk from any directive", "[directive-list]") {
  DirectiveList list;
  for (std::uint32_t block = 0; block < 4; ++block) {
    DirectiveList part;
    part.add_block(block + 1);
    for (std::uint32_t k = 0; k <= block; ++k) part.push_back(numbered(std::uint32_t(list.size() + k + 1)));
    list.append(std::move(part));
  }
  REQUIRE(list.size() == 10);  // blocks of 1, 2, 3 and 4
  for (std::size_t from = 0; from <= 10; ++from) {
    CAPTURE(from);
    std::vector<std::uint32_t> seen;
    for (auto it = list.iterator_at(from); it != list.end(); ++it) seen.push_back(it->line);
    const std::vector<std::uint32_t> all = one_to(10);
    REQUIRE(seen == std::vector<std::uint32_t>(all.begin() + std::ptrdiff_t(from), all.end()));
  }
  std::vector<std::pair<std::uint32_t, std::size_t>> runs;
  list.for_each_run_from(4, [&](Directive* first, std::size_t count) { runs.emplace_back(first->line, count); });
  CHECK(runs == std::vector<std::pair<std::uint32_t, std::size_t>>{{5, 2}, {7, 4}});
  // Read-only iterators, and std's algorithms over them.
  const DirectiveList& view = list;
  DirectiveList::const_iterator it = list.begin();
  CHECK(it->line == 1);
  CHECK(std::count_if(view.begin(), view.end(), [](const Directive& d) { return d.line % 2 == 0; }) == 5);
  CHECK(std::find_if(view.begin(), view.end(), [](const Directive& d) { return d.line == 7; }) == view.iterator_at(6));
}
