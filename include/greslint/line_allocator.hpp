// SPDX-License-Identifier: Apache-2.0
// Where a parsed line's pairs live: malloc's heap, or, on a thread that reads a file beside
// the main one, blocks of that thread's own.
#pragma once

#include <cstddef>
#include <new>

namespace greslint {

namespace line_memory {

/// Bytes for a line's pairs: from the calling thread's blocks while a Blocks is alive on
/// it, else from malloc. Either way deallocate() frees it, on any thread.
void* allocate(std::size_t bytes);
void deallocate(void* p) noexcept;
/// Blocks not freed yet, on every thread: what a test sees of them.
std::size_t blocks_alive() noexcept;

/// While alive, the thread that made it takes its lines' memory from blocks of its own
/// (16 KiB, doubling up to 1 MiB): one malloc per block instead of one per line. A file whose every line is unique
/// (one NodeName line per node, each with its own NodeAddr=), read on two threads, had both
/// take malloc's one lock for every line: 4,500 futex waits at 100,000 nodes, a third of
/// the run. A block is freed when the last line in it is, whichever thread that is on.
class Blocks {
 public:
  Blocks() noexcept;
  ~Blocks();
  Blocks(const Blocks&) = delete;
  Blocks& operator=(const Blocks&) = delete;
};

}  // namespace line_memory

/// The allocator of Directive's pairs (see line_memory). Stateless: vectors that use it move
/// and swap their memory freely.
template <class T>
struct LineAllocator {
  using value_type = T;
  static_assert(alignof(T) <= alignof(std::max_align_t) / 2, "blocks align to 8 bytes");
  LineAllocator() noexcept = default;
  template <class U>
  LineAllocator(const LineAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor): as std::allocator
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / 2 / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(line_memory::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t) noexcept { line_memory::deallocate(p); }
  template <class U>
  bool operator==(const LineAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const LineAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace greslint
