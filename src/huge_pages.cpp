// SPDX-License-Identifier: Apache-2.0
// Performance: a 100,000-node configuration written node by node touches ~110 MB of memory.
// In 4 KiB pages that was 25,000 page faults, 60 ms of a 0.3 s run spent in the kernel
// zeroing and mapping pages; in 2 MiB pages it is about 1,500. The effect is that of glibc's
// own glibc.malloc.hugetlb=1 tunable, which only the environment can set.
//
// Except on a virtual machine whose balloon reports free pages to its host (free page
// reporting: the guest hands the host its free blocks of 2 MiB and more, and the host drops
// their memory). A 2 MiB page is such a block: once the guest has been idle for two seconds,
// the kernel finds only dropped ones, and the host faults each back in 4 KiB at a time. On
// the 2-core Firecracker guest greslint is measured on, 113 MB took 10-13 ms in 2 MiB pages
// right after another process freed as much, 200-350 ms after 3 s idle (each page past the
// first dozen ~5 ms); in 4 KiB pages, which the kernel takes from smaller free blocks the host
// still backs, 45-60 ms either way. An admin runs greslint once, after idle: a gres.conf of
// one line per GPU at 100,000 nodes took 0.29-0.36 s so, 0.13-0.16 s in 4 KiB pages.
#include "huge_pages.hpp"

#include <dirent.h>
#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <string>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

namespace greslint {

namespace {
constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
constexpr std::size_t kHeapReserve = std::size_t(128) << 20;
/// The end of the heap advised so far; 0 until advise_huge_heap ran.
std::atomic<std::uintptr_t> advised_end{0};
/// Where advise_huge_heap's advice starts.
std::atomic<std::uintptr_t> advised_begin{0};
/// page_size(): 0 until decided, else 1 + PageSize.
std::atomic<int> chosen_size{0};

/// What a 4 KiB page of fresh memory cost this run (prefault_heap_start), in ns; 0 unknown.
std::atomic<std::uint32_t> small_page_ns{0};
/// Fewer pages than this before the boundary make too short a measure to go by.
constexpr std::uintptr_t kPagesTimed = 16;

/// Whether page_size() chose small pages (false while undecided).
bool small_pages_chosen() noexcept {
  return chosen_size.load(std::memory_order_acquire) == 1 + int(PageSize::small);
}

/// Gives `advice` to the whole 2 MiB pages inside [p, p + bytes).
void advise_whole_huge_pages(const void* p, std::size_t bytes, int advice) noexcept {
  const auto low = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = (low + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = (low + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}

constexpr const char* kBalloonDriver = "/sys/bus/virtio/drivers/virtio_balloon";

PageSize decide_page_size() noexcept {
  if (const char* forced = std::getenv("GRESLINT_HUGE_PAGES")) {
    if (std::strcmp(forced, "0") == 0) return PageSize::small;
    if (std::strcmp(forced, "1") == 0) return PageSize::huge;
  }
  return small_pages_pay_off(balloon_reports_free_pages(kBalloonDriver),
                             small_page_ns.load(std::memory_order_relaxed))
             ? PageSize::small
             : PageSize::huge;
}
/// The block skip_heap_head keeps, never freed.
std::atomic<void*> skipped_head{nullptr};

/// Faults in the first kPrefaultBytes of the heap from `low` (where the next blocks come
/// from) in one system call. Performance: a 10-node run took ~50 page faults there, one per
/// 4 KiB page as its blocks reached it, ~5 us each on the 2-core VM greslint is measured on;
/// in one call: 155 -> 109 faults, 4.72 -> 4.49 ms median (300 interleaved runs, /bin/true
/// 2.08 ms). A large run skips these bytes (skip_heap_head): 256 KiB it holds unused.
/// MADV_POPULATE_WRITE needs Linux 5.14; older kernels refuse it, and nothing changes.
/// The pages before the first 2 MiB boundary are small ones: how long they took is recorded
/// (small_page_ns) for page_size().
void prefault_heap_start(std::uintptr_t low) noexcept {
  constexpr std::size_t kPrefaultBytes = std::size_t(256) << 10;
  constexpr std::uintptr_t kPage = 4096;
  const std::uintptr_t from = (low + kPage - 1) & ~(kPage - 1);
  const std::uintptr_t to = from + kPrefaultBytes;
  const std::uintptr_t boundary = std::min(to, (from + kHugePage - 1) & ~(kHugePage - 1));
  timespec start{}, end{};
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  const bool faulted = boundary > from && madvise(reinterpret_cast<void*>(from), boundary - from, MADV_POPULATE_WRITE) == 0;
  ::clock_gettime(CLOCK_MONOTONIC, &end);
  const std::uintptr_t pages = (boundary - from) / kPage;
  if (faulted && pages >= kPagesTimed) {
    const auto ns = (end.tv_sec - start.tv_sec) * 1'000'000'000LL + (end.tv_nsec - start.tv_nsec);
    small_page_ns.store(std::uint32_t(std::clamp<long long>(ns / static_cast<long long>(pages), 1, UINT32_MAX)),
                        std::memory_order_relaxed);
  }
  if (to > boundary) madvise(reinterpret_cast<void*>(boundary), to - boundary, MADV_POPULATE_WRITE);
}

}  // namespace

bool balloon_reports_free_pages(const char* driver_dir) noexcept {
  constexpr std::size_t kReportingBit = 5;
  DIR* dir = ::opendir(driver_dir);
  if (!dir) return false;
  bool reports = false;
  try {
    while (const dirent* entry = ::readdir(dir)) {
      // The driver's directory links each device it drives as virtio<N>.
      if (std::strncmp(entry->d_name, "virtio", 6) != 0) continue;
      const std::string features = std::string(driver_dir) + "/" + entry->d_name + "/features";
      const int fd = ::open(features.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char bits[kReportingBit + 1] = {};
      const ssize_t n = ::read(fd, bits, sizeof bits);
      ::close(fd);
      if (n > ssize_t(kReportingBit) && bits[kReportingBit] == '1') reports = true;
    }
  } catch (...) {  // no memory for a path: huge pages, as without a balloon
  }
  ::closedir(dir);
  return reports;
}

bool small_pages_pay_off(bool host_takes_free_pages, std::uint32_t page_ns) noexcept {
  // A 2 MiB page the host took back costs 4.5-6.5 ms here, 2.2-3.2 ms per MiB; small pages
  // at 5 us each would cost 1.3 ms per MiB. Session 23's host (docs/performance.md) faulted a
  // small page in ~10 us, where huge pages were the cheaper even after a pause.
  constexpr std::uint32_t kSmallPageCeilingNs = 5000;
  return host_takes_free_pages && page_ns < kSmallPageCeilingNs;
}

PageSize page_size() noexcept {
  int chosen = chosen_size.load(std::memory_order_acquire);
  if (chosen == 0) {
    const int decided = 1 + int(decide_page_size());
    // Two threads may decide at once: the same answer, the first kept.
    chosen_size.compare_exchange_strong(chosen, decided, std::memory_order_acq_rel);
    chosen = chosen_size.load(std::memory_order_acquire);
  }
  return PageSize(chosen - 1);
}

void set_page_size(PageSize size) noexcept { chosen_size.store(1 + int(size), std::memory_order_release); }

void advise_large_block(const void* p, std::size_t bytes) noexcept {
  advise_whole_huge_pages(p, bytes, small_pages_chosen() ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
}

void fault_in_for_writing(void* p, std::size_t bytes) noexcept {
  // Measured on the Firecracker guest: 70 MB written one byte per 4 KiB page took 27-37 ms
  // faulted page by page, 22-25 ms in one MADV_POPULATE_WRITE per MiB; the clearing is the
  // same, the entries into the kernel are not.
  if (bytes == 0 || !small_pages_chosen()) return;
  static const auto page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
  const auto low = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = low & ~(page - 1);
  const std::uintptr_t end = (low + bytes + page - 1) & ~(page - 1);
  madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);  // refused before Linux 5.14: faulted as written
}

void release_unused(void* p, std::size_t bytes) noexcept {
  static const auto page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
  const auto low = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = (low + page - 1) & ~(page - 1);
  const std::uintptr_t end = (low + bytes) & ~(page - 1);
  // Best effort: a failure leaves the pages resident, nothing else. A huge page that is cut
  // is split, and its pages past `begin` are freed.
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

void advise_huge_pages(const void* p, std::size_t bytes) noexcept { advise_whole_huge_pages(p, bytes, MADV_HUGEPAGE); }

void advise_huge_heap() noexcept {
  // Blocks up to 32 MiB (glibc's ceiling for this setting) come from the heap rather than a
  // mapping of their own; the heap grows kHeapReserve at a time and is never trimmed, so
  // memory freed is reused inside the advised range instead of returned and faulted in again.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, int(kHeapReserve));
  // More than the heap holds at start-up: it grows now, by the pad, right after this block.
  if (void* probe = std::malloc(256 << 10)) {
    const auto low = reinterpret_cast<std::uintptr_t>(probe);
    const auto high = reinterpret_cast<std::uintptr_t>(sbrk(0));
    std::free(probe);
    // Where the heap could not grow in place, malloc maps memory elsewhere and the break did
    // not move past the block: nothing to advise then.
    if (high > low && high - low <= 2 * kHeapReserve) {
      advise_huge_pages(probe, high - low);
      advised_begin.store(low, std::memory_order_relaxed);
      advised_end.store(high, std::memory_order_relaxed);
      prefault_heap_start(low);  // measures what page_size() goes by
    }
  }
  // One arena in huge pages: the thread that reads gres.conf ahead (model/read_ahead.hpp) then
  // allocates in the heap advised for them too, not in a mapping of its own in 4 KiB pages
  // (gres-gpu at 100,000 nodes 82 -> 88 ms with two, slurm-node 40 -> 44 ms). In small
  // pages, two: slurm.conf and gres.conf are read at once, and a block often faults a fresh
  // page in while the arena's lock is held. A configuration that includes one file per rack
  // (6,250 files, a dozen small blocks each) spent 14% of its samples waiting for that lock:
  // 80 -> 53 ms with two, no other shape slower, peaks +0-4.5 MB. More arenas gained
  // nothing and held more. (Interleaved runs, session 36.)
  mallopt(M_ARENA_MAX, page_size() == PageSize::small ? 2 : 1);
}

std::uintptr_t move_heap_to_huge_boundary(std::size_t probe_bytes) noexcept {
  if (advised_end.load(std::memory_order_relaxed) == 0) return 0;
  // A block larger than any free one comes from the top of the heap, where the next blocks
  // would come from. Shrunk in place to end on the boundary, it gives the rest back to the
  // top, which then starts there. Never touched past its header: address space, not memory.
  // Kept for the whole run, so that nothing small is carved out of it again.
  void* probe = std::malloc(probe_bytes);
  if (!probe) return 0;
  const auto at = reinterpret_cast<std::uintptr_t>(probe);
  const std::uintptr_t boundary = (at + kHugePage - 1) & ~(kHugePage - 1);
  // malloc's header is 16 bytes before the pointer: the block after this one starts on the
  // boundary with its header when this one ends 16 bytes short of it.
  constexpr std::uintptr_t kHeader = 2 * sizeof(std::size_t);
  if (boundary - at <= kHeader) {
    std::free(probe);
    return boundary;
  }
  void* head = std::realloc(probe, boundary - at - kHeader / 2);
  if (head != probe) {  // not shrunk in place: the heap is not as this expects
    std::free(head ? head : probe);
    return 0;
  }
  skipped_head.store(head);
  return boundary;
}

void skip_heap_head() noexcept {
  // Measured on this project's 2-core PVM guest: a 4 KiB page of fresh memory costs ~10 us to
  // fault in, a 2 MiB page ~0.2 ms. A 100,000-node run filled the 0-2 MiB before the
  // boundary in 150-500 small faults (where the heap starts is random), most of them on the
  // thread that builds the node table; 95 faults in all after.
  static std::atomic<bool> skipped{false};
  if (skipped.exchange(true)) return;
  if (page_size() == PageSize::small) {
    // The heap was advised at start-up, before anyone knew the run would be large.
    const std::uintptr_t begin = advised_begin.load(std::memory_order_relaxed);
    const std::uintptr_t end = advised_end.load(std::memory_order_relaxed);
    if (end > begin) advise_large_block(reinterpret_cast<const void*>(begin), end - begin);
    return;
  }
  // 1 MiB: early in a run no free block is that large, and the heap's top is larger, so the
  // probe neither misses the top nor grows the heap (31 MiB did: 150-600 faults of 4 KiB
  // pages in the grown part before it was advised).
  move_heap_to_huge_boundary(std::size_t(1) << 20);
}

void advise_heap_growth() noexcept {
  if (small_pages_chosen()) return;
  std::uintptr_t from = advised_end.load(std::memory_order_relaxed);
  if (from == 0) return;
  const auto high = reinterpret_cast<std::uintptr_t>(sbrk(0));  // glibc's cached break: no system call
  // Another thread may be advising the same growth: one of them does.
  while (high > from)
    if (advised_end.compare_exchange_weak(from, high, std::memory_order_relaxed)) {
      advise_huge_pages(reinterpret_cast<const void*>(from), high - from);
      return;
    }
}

}  // namespace greslint
