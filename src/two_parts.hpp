// SPDX-License-Identifier: Apache-2.0
// One pass over a long range, in two halves on two cores when one is free.
#pragma once

#include <cstddef>
#include <future>
#include <system_error>
#include <utility>

#include "greslint/core_budget.hpp"
#include "task.hpp"

namespace greslint {

/// Runs `work(begin, end, part)` over [0, n): as one part (0) on this thread, or, when `n` is
/// at least `enough` and `cores` has a core free, as two: [0, middle) here and [middle, n)
/// (part 1) on a thread that holds that core meanwhile. A `middle` of 0 or n runs one part.
/// Returns how many parts ran. The two calls may run at once: each must write only what its
/// part owns. Performance: the passes over a gres.conf written one line per GPU (800,000
/// lines at 100,000 nodes) come after the file is read, while the model's thread waits for
/// them with its core lent.
///
/// A build with GRESLINT_SPLIT_EVERY_FILE (see config/reader.hpp) splits every range of two
/// or more, free core or not, so that scripts/refactor-oracle.py compares two parts put
/// together with one pass on every input.
template <class Work>
int in_two_parts_at(CoreBudget* cores, std::size_t n, std::size_t middle, std::size_t enough, Work&& work) {
  const bool inside = middle > 0 && middle < n;
#ifdef GRESLINT_SPLIT_EVERY_FILE
  cores = nullptr;
  const bool split = inside;
  (void)enough;
#else
  const bool split = inside && cores && n >= enough && cores->try_take();
#endif
  if (!split) {
    work(std::size_t(0), n, 0);
    return 1;
  }
  Task<void> later;
  try {
    later = start_task(cores, [&work, cores, middle, n] {
      const CoreBudget::Held core(cores, std::adopt_lock);
      work(middle, n, 1);
    });
  } catch (const std::system_error&) {
    if (cores) cores->give();  // no thread to be had: all of it here
    work(std::size_t(0), n, 0);
    return 1;
  }
  // Should this part throw, `later`'s destructor waits for the other before `work` goes.
  work(std::size_t(0), middle, 0);
  later.get();
  return 2;
}

/// in_two_parts_at, the second part from n/2.
template <class Work>
int in_two_parts(CoreBudget* cores, std::size_t n, std::size_t enough, Work&& work) {
  return in_two_parts_at(cores, n, n / 2, enough, std::forward<Work>(work));
}

}  // namespace greslint
