// SPDX-License-Identifier: Apache-2.0
// The machine's cores as one run shares them among its threads.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace greslint {

/// How many of the machine's cores a run's threads leave free. A thread with work that could
/// go to another core takes one only when one is free (try_take), and gives it back when
/// that work is done; a thread that waits lends its own while it waits (Lent). Performance:
/// a large file's later lines are read on another thread (Reader, LaterLines), which pays
/// on a core that would otherwise idle and costs time on one that another read keeps busy:
/// with both files written node by node, two cores already read one file each.
///
/// Only a heuristic of where to work: nothing is published through it, and a run that
/// takes more cores than are free is slower, never wrong.
class CoreBudget {
 public:
  /// `cores` in all, one of them the calling thread's.
  explicit CoreBudget(unsigned cores) noexcept;
  CoreBudget(const CoreBudget&) = delete;
  CoreBudget& operator=(const CoreBudget&) = delete;
  /// Waits for the kept thread's job, if any, and ends the thread.
  ~CoreBudget();

  /// Runs `job` on a thread the budget keeps for the run's jobs, started at the first call
  /// (or by start_helper), when that thread is idle; false when it is running another job or
  /// cannot be started. The job must not throw. Performance: a thread started for a job
  /// began running 1-3.4 ms after it was asked for on the 2-core virtual machine greslint is
  /// measured on (the scheduler put it behind the thread that asked), while a kept thread
  /// that waits on a condition variable runs ~0.02 ms after it is woken. A gres.conf
  /// written one line per GPU handed four files' later lines to new threads, ~9 ms in all.
  bool run_on_helper(std::function<void()> job);
  /// Starts the kept thread now, so that the first job does not wait for it to start.
  void start_helper();

  /// This machine's cores as the standard library sees them, at least one.
  static unsigned machine_cores() noexcept {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
  }

  /// Takes a free core, or says that none is free.
  bool try_take() noexcept {
    int free = free_.load(std::memory_order_relaxed);
    while (free > 0)
      if (free_.compare_exchange_weak(free, free - 1, std::memory_order_relaxed)) {
        taken_.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
    return false;
  }
  /// How many times try_take found a free core: how often a run split its work.
  unsigned long taken() const noexcept { return taken_.load(std::memory_order_relaxed); }
  /// Takes a core whether or not one is free: a thread that goes on with its own work.
  void take() noexcept { free_.fetch_sub(1, std::memory_order_relaxed); }
  void give() noexcept { free_.fetch_add(1, std::memory_order_relaxed); }

  /// A core a thread holds while it works: taken when made, given back when gone. A null
  /// budget holds nothing.
  class Held {
   public:
    explicit Held(CoreBudget* budget) noexcept : budget_(budget) {
      if (budget_) budget_->take();
    }
    /// A core already taken (try_take) for the work this thread does.
    Held(CoreBudget* budget, std::adopt_lock_t) noexcept : budget_(budget) {}
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() {
      if (budget_) budget_->give();
    }

   private:
    CoreBudget* budget_;
  };

  /// The core of a thread that waits, free for others while it waits.
  class Lent {
   public:
    explicit Lent(CoreBudget* budget) noexcept : budget_(budget) {
      if (budget_) budget_->give();
    }
    Lent(const Lent&) = delete;
    Lent& operator=(const Lent&) = delete;
    ~Lent() {
      if (budget_) budget_->take();
    }

   private:
    CoreBudget* budget_;
  };

 private:
  struct Helper;
  Helper* helper();  ///< the kept thread, started if it was not; null when it cannot be

  std::atomic<int> free_;
  std::atomic<unsigned long> taken_{0};
  std::once_flag helper_started_;
  std::unique_ptr<Helper> helper_;
};

}  // namespace greslint
