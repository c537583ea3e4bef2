// SPDX-License-Identifier: Apache-2.0
// Work started on another thread, waited for as std::async's is.
#pragma once

#include <future>
#include <memory>
#include <type_traits>
#include <utility>

#include "greslint/core_budget.hpp"

namespace greslint {

/// The result of work started on another thread (start_task). Like a future of std::async,
/// it waits for the work when it goes: work that views the caller's objects never outlives
/// them, however the caller's scope ends.
template <class R>
class Task {
 public:
  Task() = default;
  Task(std::future<R> result, std::future<void> thread) noexcept
      : result_(std::move(result)), thread_(std::move(thread)) {}
  Task(Task&&) noexcept = default;
  Task& operator=(Task&& other) noexcept {
    wait();
    result_ = std::move(other.result_);
    thread_ = std::move(other.thread_);
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { wait(); }

  bool valid() const noexcept { return result_.valid(); }
  void wait() const {
    if (result_.valid()) result_.wait();
  }
  /// The work's result, or what it threw.
  R get() { return result_.get(); }

 private:
  std::future<R> result_;
  std::future<void> thread_;  ///< a thread of its own (std::async's, which joins it), if any
};

/// Runs `work()` on `cores`' kept thread when it is idle (CoreBudget::run_on_helper), else on
/// a thread of its own. Throws std::system_error when no thread can be had, as std::async
/// does. The caller takes the core the work holds (CoreBudget::try_take), as before.
template <class Work>
Task<std::invoke_result_t<Work&>> start_task(CoreBudget* cores, Work&& work) {
  using R = std::invoke_result_t<Work&>;
  auto task = std::make_shared<std::packaged_task<R()>>(std::forward<Work>(work));
  std::future<R> result = task->get_future();
  if (cores && cores->run_on_helper([task] { (*task)(); })) return Task<R>(std::move(result), {});
  std::future<void> thread = std::async(std::launch::async, [task] { (*task)(); });
  return Task<R>(std::move(result), std::move(thread));
}

}  // namespace greslint
