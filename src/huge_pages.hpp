// SPDX-License-Identifier: Apache-2.0
// Transparent huge pages for the memory a large configuration fills.
#pragma once

#include <cstddef>
#include <cstdint>

namespace greslint {

/// Asks the kernel to back the whole 2 MiB pages inside [p, p + bytes) with transparent huge
/// pages. Only worth it for a buffer of many megabytes that is about to be filled; a no-op
/// where THP is off.
void advise_huge_pages(const void* p, std::size_t bytes) noexcept;

/// Grows the heap once by a range advised for huge pages, keeps what is freed in it, and has
/// every thread allocate there (main calls it first). See huge_pages.cpp for why and what it measured.
void advise_huge_heap() noexcept;

/// Moves the heap's next allocations past its first 2 MiB boundary, once per run: the bytes
/// before it (up to 2 MiB, outside the advised range) would otherwise be filled in 4 KiB
/// pages. Called when a large file is read, so that a small configuration, whose whole run
/// fits in those bytes, does not fault in a 2 MiB page it does not need.
void skip_heap_head() noexcept;
/// What skip_heap_head does, every time it is called, with a probe block of `probe_bytes`
/// (larger than any free block, below the mmap threshold): the boundary the heap's next
/// block starts at, or 0 when the heap is not advise_huge_heap's (a sanitizer's allocator).
std::uintptr_t move_heap_to_huge_boundary(std::size_t probe_bytes) noexcept;

/// Advises what the heap grew by since advise_huge_heap, or since the last call: malloc
/// grows it 128 MiB at a time, and a 100,000-node slurm.conf written node by node with a
/// NodeAddr= per line filled 30 MB of a second reserve in 4 KiB pages (7,500 page faults).
/// Cheap (no system call); the readers call it every 1,024 lines.
void advise_heap_growth() noexcept;

}  // namespace greslint
