// SPDX-License-Identifier: Apache-2.0
#include "greslint/core_budget.hpp"

#include <condition_variable>
#include <system_error>
#include <utility>

namespace greslint {

/// The thread a budget keeps: it waits for a job, runs it, and waits again.
struct CoreBudget::Helper {
  std::mutex mutex;
  std::condition_variable wake;
  std::function<void()> job;  ///< under mutex: set by run_on_helper, taken by the thread
  bool busy = false;          ///< under mutex: from run_on_helper until the job has run
  bool stop = false;          ///< under mutex
  std::thread thread;

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [this] { return job || stop; });
      if (!job) return;
      std::function<void()> next = std::exchange(job, nullptr);
      lock.unlock();
      next();
      next = nullptr;  // what the job holds goes before the next may start
      lock.lock();
      busy = false;
    }
  }
};

CoreBudget::CoreBudget(unsigned cores) noexcept : free_(int(cores) - 1) {}

CoreBudget::~CoreBudget() {
  if (!helper_) return;
  {
    const std::lock_guard<std::mutex> lock(helper_->mutex);
    helper_->stop = true;
  }
  helper_->wake.notify_one();
  helper_->thread.join();  // after the job it may be running: it ends once that is done
}

CoreBudget::Helper* CoreBudget::helper() {
  std::call_once(helper_started_, [this] {
    auto helper = std::make_unique<Helper>();
    try {
      helper->thread = std::thread([h = helper.get()] { h->run(); });
    } catch (const std::system_error&) {
      return;  // no thread to be had: every job starts one of its own, or runs in place
    }
    helper_ = std::move(helper);
  });
  return helper_.get();
}

void CoreBudget::start_helper() { helper(); }

bool CoreBudget::run_on_helper(std::function<void()> job) {
  Helper* const h = helper();
  if (!h) return false;
  {
    const std::lock_guard<std::mutex> lock(h->mutex);
    if (h->busy || h->stop) return false;
    h->busy = true;
    h->job = std::move(job);
  }
  h->wake.notify_one();
  return true;
}

}  // namespace greslint
