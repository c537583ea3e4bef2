// SPDX-License-Identifier: Apache-2.0
// Transparent huge pages for the memory a large configuration fills.
#pragma once

#include <cstddef>
#include <cstdint>

namespace greslint {

/// The pages the memory of a large configuration is filled in.
enum class PageSize : std::uint8_t { huge, small };

/// Decides, once per run, the pages of a large configuration (skip_heap_head asks): 2 MiB
/// pages, unless the environment says otherwise (GRESLINT_HUGE_PAGES=0 or 1) or
/// small_pages_pay_off on this machine. See huge_pages.cpp for what that costs.
PageSize page_size() noexcept;
/// Whether 4 KiB pages are the cheaper: on a virtual machine whose balloon reports free
/// pages to its host (balloon_reports_free_pages), unless a small page costs so much here
/// (`page_ns`, what this run's first ones took; 0 unknown) that the host's faults on a
/// huge page cost less.
bool small_pages_pay_off(bool host_takes_free_pages, std::uint32_t page_ns) noexcept;
/// Sets what page_size() answers from now on (tests).
void set_page_size(PageSize size) noexcept;
/// Whether a virtio balloon device bound to the driver at `driver_dir`
/// (/sys/bus/virtio/drivers/virtio_balloon) offers free page reporting, from its features
/// file (one '0' or '1' per feature bit; VIRTIO_BALLOON_F_REPORTING is bit 5).
bool balloon_reports_free_pages(const char* driver_dir) noexcept;

/// For a block of many megabytes about to be filled: advise_huge_pages, or where small pages
/// were chosen (page_size), the opposite advice, which a kernel that gives every mapping huge
/// pages (THP "always") also heeds.
void advise_large_block(const void* p, std::size_t bytes) noexcept;

/// Where small pages were chosen (page_size): faults in the pages of [p, p + bytes) in one
/// system call, as a block about to be written is. Nothing in huge pages, whose faults are
/// few already, or before the choice.
void fault_in_for_writing(void* p, std::size_t bytes) noexcept;

/// Gives the whole 4 KiB pages inside [p, p + bytes) back to the kernel: room of a block that
/// will not be filled after all, which fault_in_for_writing or a huge page made resident.
/// The bytes read as zeros if touched again.
void release_unused(void* p, std::size_t bytes) noexcept;

/// Asks the kernel to back the whole 2 MiB pages inside [p, p + bytes) with transparent huge
/// pages. Only worth it for a buffer of many megabytes that is about to be filled; a no-op
/// where THP is off.
void advise_huge_pages(const void* p, std::size_t bytes) noexcept;

/// Grows the heap once by a range advised for huge pages, keeps what is freed in it, and has
/// every thread allocate there (main calls it first). See huge_pages.cpp for why and what it measured.
void advise_huge_heap() noexcept;

/// Called when a large file is read, once per run: decides the page size (page_size()). For
/// huge pages, moves the heap's next allocations past its first 2 MiB boundary: the bytes
/// before it (up to 2 MiB, outside the advised range) would otherwise be filled in 4 KiB
/// pages; a small configuration, whose whole run fits in those bytes, does not fault in a
/// 2 MiB page it does not need. For small pages, withdraws the heap's advice.
void skip_heap_head() noexcept;
/// What skip_heap_head does, every time it is called, with a probe block of `probe_bytes`
/// (larger than any free block, below the mmap threshold): the boundary the heap's next
/// block starts at, or 0 when the heap is not advise_huge_heap's (a sanitizer's allocator).
std::uintptr_t move_heap_to_huge_boundary(std::size_t probe_bytes) noexcept;

/// Advises what the heap grew by since advise_huge_heap, or since the last call: malloc
/// grows it 128 MiB at a time, and a 100,000-node slurm.conf written node by node with a
/// NodeAddr= per line filled 30 MB of a second reserve in 4 KiB pages (7,500 page faults).
/// Cheap (no system call); the readers call it every 1,024 lines. Nothing once small pages
/// were chosen.
void advise_heap_growth() noexcept;

}  // namespace greslint
