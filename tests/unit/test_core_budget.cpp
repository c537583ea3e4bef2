// SPDX-License-Identifier: Apache-2.0
// The cores a run shares, the thread it keeps for short jobs, and the tasks started on it.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "greslint/core_budget.hpp"
#include "task.hpp"

using namespace greslint;

TEST_CASE("core budget: the kept thread runs one job at a time, on a thread of its own", "[core-budget]") {
  CoreBudget cores(2);
  std::atomic<bool> release{false};
  std::atomic<bool> ran{false};
  std::thread::id where;
  REQUIRE(cores.run_on_helper([&] {
    where = std::this_thread::get_id();
    while (!release.load()) std::this_thread::yield();
    ran = true;
  }));
  // Busy with the first job: a second is refused, not queued behind it.
  CHECK_FALSE(cores.run_on_helper([] {}));
  release = true;
  while (!ran.load()) std::this_thread::yield();
  // Free again once the job is done (busy is cleared just after it returns).
  bool again = false;
  for (int tries = 0; tries < 1000 && !again; ++tries) {
    again = cores.run_on_helper([] {});
    if (!again) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(again);
  CHECK(where != std::this_thread::get_id());
}

TEST_CASE("core budget: a task gives its result or what it threw, on the kept thread or its own", "[core-budget]") {
  CoreBudget cores(2);
  std::atomic<bool> release{false};
  Task<int> first = start_task(&cores, [&] {
    while (!release.load()) std::this_thread::yield();
    return 41;
  });
  // The kept thread is busy: this one gets a thread of its own.
  Task<int> second = start_task(&cores, [] { return 1; });
  CHECK(second.get() == 1);
  release = true;
  CHECK(first.get() == 41);
  Task<void> failing = start_task(&cores, [] { throw std::runtime_error("no"); });
  CHECK_THROWS_AS(failing.get(), std::runtime_error);
  Task<int> no_budget = start_task(nullptr, [] { return 7; });
  CHECK(no_budget.get() == 7);
}

TEST_CASE("core budget: a task is waited for when it goes, however its scope ends", "[core-budget]") {
  CoreBudget cores(2);
  std::atomic<int> done{0};
  {
    Task<void> slow = start_task(&cores, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done = 1;
    });
  }
  CHECK(done.load() == 1);
  try {
    Task<void> slow = start_task(&cores, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done = 2;
    });
    throw std::runtime_error("the caller's scope ends early");
  } catch (const std::runtime_error&) {
    CHECK(done.load() == 2);
  }
}
