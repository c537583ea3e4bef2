// SPDX-License-Identifier: Apache-2.0
#include "greslint/line_allocator.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace greslint::line_memory {

namespace {

/// A thread's first block, doubled for each next one up to the largest: a thread that reads
/// a few lines (one per gres.conf Include) keeps 16 KiB, not a megabyte that huge pages make
/// resident whole.
constexpr std::size_t kFirstBlockBytes = std::size_t(16) << 10;
constexpr std::size_t kBlockBytes = std::size_t(1) << 20;
/// Before every allocation: the Block it is in, or null for malloc's own.
constexpr std::size_t kHeader = sizeof(void*);
/// Past this a line's pairs take malloc's memory: a block is for many lines.
constexpr std::size_t kLargest = kBlockBytes / 16;

struct Block {
  /// Allocations in it that are not freed yet, plus one while it is its thread's current block.
  std::atomic<std::size_t> live{1};
  std::size_t used = 0;  ///< bytes handed out, after this header
};
static_assert(sizeof(Block) % alignof(std::max_align_t) == 0);

struct Cursor {
  Block* block = nullptr;
  std::size_t block_bytes = 0;  ///< of `block`, its header included
  int holders = 0;              ///< Blocks alive on this thread
};
thread_local Cursor cursor;
std::atomic<std::size_t> alive{0};

void release(Block* b) noexcept {
  if (b->live.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    b->~Block();
    std::free(b);
    alive.fetch_sub(1, std::memory_order_relaxed);
  }
}

char* from_block(Cursor& c, std::size_t need) {
  if (!c.block || sizeof(Block) + c.block->used + need > c.block_bytes) {
    const std::size_t bytes = std::max(c.block ? std::min(c.block_bytes * 2, kBlockBytes) : kFirstBlockBytes,
                                       sizeof(Block) + need);
    void* raw = std::malloc(bytes);
    if (!raw) throw std::bad_alloc();
    Block* fresh = new (raw) Block;
    alive.fetch_add(1, std::memory_order_relaxed);
    if (c.block) release(c.block);
    c.block = fresh;
    c.block_bytes = bytes;
  }
  char* at = reinterpret_cast<char*>(c.block + 1) + c.block->used;
  c.block->used += need;
  c.block->live.fetch_add(1, std::memory_order_relaxed);
  std::memcpy(at, &c.block, kHeader);
  return at;
}

}  // namespace

void* allocate(std::size_t bytes) {
  const std::size_t need = kHeader + ((bytes + kHeader - 1) & ~(kHeader - 1));
  Cursor& c = cursor;
  if (c.holders > 0 && need <= kLargest) return from_block(c, need) + kHeader;
  void* raw = std::malloc(need);
  if (!raw) throw std::bad_alloc();
  std::memset(raw, 0, kHeader);
  return static_cast<char*>(raw) + kHeader;
}

void deallocate(void* p) noexcept {
  if (!p) return;
  char* at = static_cast<char*>(p) - kHeader;
  Block* b = nullptr;
  std::memcpy(&b, at, kHeader);
  if (b) release(b);
  else std::free(at);
}

std::size_t blocks_alive() noexcept { return alive.load(std::memory_order_relaxed); }

Blocks::Blocks() noexcept { ++cursor.holders; }

Blocks::~Blocks() {
  Cursor& c = cursor;
  if (--c.holders == 0 && c.block) {
    release(c.block);
    c.block = nullptr;
    c.block_bytes = 0;
  }
}

}  // namespace greslint::line_memory
