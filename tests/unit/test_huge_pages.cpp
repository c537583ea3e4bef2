// SPDX-License-Identifier: Apache-2.0
// advise_huge_pages marks exactly the whole 2 MiB pages of a buffer for transparent huge
// pages: read back from the kernel's own account of the mapping (/proc/self/smaps VmFlags).
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "huge_pages.hpp"

using namespace greslint;

namespace {

/// The VmFlags of the mapping that holds `address`, from /proc/self/smaps.
std::string vm_flags_at(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = lo <= address && address < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

bool advised(std::uintptr_t address) { return vm_flags_at(address).find(" hg") != std::string::npos; }

constexpr std::size_t kHuge = std::size_t(2) << 20;

/// `pages` 2 MiB pages of private memory mapped for a test, and where the first whole one starts.
struct TestMapping {
  std::size_t size;
  void* map;
  std::uintptr_t first_huge;
  explicit TestMapping(std::size_t pages)
      : size(pages * kHuge),
        map(mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)),
        first_huge((reinterpret_cast<std::uintptr_t>(map) + kHuge - 1) & ~(kHuge - 1)) {}
  bool ok() const { return map != MAP_FAILED; }
  std::uintptr_t base() const { return reinterpret_cast<std::uintptr_t>(map); }
  ~TestMapping() {
    if (ok()) munmap(map, size);
  }
  TestMapping(const TestMapping&) = delete;
  TestMapping& operator=(const TestMapping&) = delete;
};

}  // namespace

TEST_CASE("advise_huge_pages: the whole 2 MiB pages inside the buffer, and nothing else", "[memory]") {
  const TestMapping mapping(8);
  REQUIRE(mapping.ok());
  const std::uintptr_t first_huge = mapping.first_huge;
  // A buffer from 100 bytes into huge page 0 (counted from first_huge) to 100 bytes short of
  // the end of page 2: page 1 is the only whole one inside it.
  const std::uintptr_t begin = first_huge + 100;
  const std::uintptr_t end = first_huge + 3 * kHuge - 100;
  REQUIRE(end + kHuge <= mapping.base() + mapping.size);
  advise_huge_pages(reinterpret_cast<const void*>(begin), end - begin);
  CHECK_FALSE(advised(first_huge));
  CHECK(advised(first_huge + kHuge));
  CHECK(advised(first_huge + 2 * kHuge - 1));
  CHECK_FALSE(advised(first_huge + 3 * kHuge - 1));
  // A buffer smaller than a huge page holds no whole one: nothing is advised.
  advise_huge_pages(reinterpret_cast<const void*>(first_huge + 4 * kHuge + 1), kHuge - 2);
  CHECK_FALSE(advised(first_huge + 4 * kHuge + 1));
}

TEST_CASE("advise_heap_growth: what the heap grew by since advise_huge_heap is advised too", "[memory]") {
  set_page_size(PageSize::huge);  // a test before may have read a large file on a machine that chose small pages
  advise_huge_heap();
  const auto start = reinterpret_cast<std::uintptr_t>(sbrk(0));
  void* probe = std::malloc(64);
  const auto at = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  // A sanitizer's allocator maps its own memory: no heap grows, there is nothing to advise.
  if (at >= start || at + (std::uintptr_t(1) << 30) < start) {
    advise_heap_growth();
    CHECK(reinterpret_cast<std::uintptr_t>(sbrk(0)) == start);
    return;
  }
  // Blocks under the 32 MiB mmap threshold come from the heap: past the reserve
  // advise_huge_heap grew it by, malloc grows it again.
  std::vector<void*> blocks;
  while (reinterpret_cast<std::uintptr_t>(sbrk(0)) < start + 4 * kHuge && blocks.size() < 32)
    blocks.push_back(std::malloc(std::size_t(30) << 20));
  const auto high = reinterpret_cast<std::uintptr_t>(sbrk(0));
  REQUIRE(high >= start + 4 * kHuge);
  const std::uintptr_t inside = ((start + kHuge - 1) & ~(kHuge - 1)) + kHuge;
  CHECK_FALSE(advised(inside));
  advise_heap_growth();
  CHECK(advised(inside));
  CHECK(advised(((high & ~(kHuge - 1)) - 1)));
  for (void* b : blocks) std::free(b);
}

TEST_CASE("move_heap_to_huge_boundary: the heap's next block starts on a 2 MiB boundary", "[memory]") {
  // Larger than any free block (just under the mmap threshold): it comes from the top of
  // the heap, where the next blocks come from.
  constexpr std::size_t kFromTheTop = std::size_t(31) << 20;
  advise_huge_heap();
  void* probe = std::malloc(kFromTheTop);
  const auto before = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  const std::uintptr_t boundary = move_heap_to_huge_boundary(kFromTheTop);
  const auto start = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // A sanitizer's allocator maps its own memory: there is no heap to move.
  if (before >= start || before + (std::uintptr_t(1) << 30) < start) {
    CHECK(boundary == 0);
    return;
  }
  REQUIRE(boundary != 0);
  CHECK(boundary % kHuge == 0);
  CHECK(boundary >= before);
  CHECK(boundary - before < kHuge);
  void* next = std::malloc(kFromTheTop);
  const auto at = reinterpret_cast<std::uintptr_t>(next);
  CHECK(at >= boundary);
  CHECK(at - boundary <= 16);  // the block's header, on the boundary
  std::free(next);
}

namespace {

/// A driver directory as sysfs lays it out: one virtio<N> entry per device, with its
/// features file.
struct FakeBalloonDriver {
  std::filesystem::path dir;
  explicit FakeBalloonDriver(const std::string& name) {
    dir = std::filesystem::temp_directory_path() / ("greslint-balloon-" + name + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "uevent") << "DRIVER=virtio_balloon\n";
  }
  void device(const std::string& entry, const std::string& features) const {
    std::filesystem::create_directories(dir / entry);
    std::ofstream(dir / entry / "features") << features << "\n";
  }
  ~FakeBalloonDriver() { std::filesystem::remove_all(dir); }
};

}  // namespace

TEST_CASE("balloon_reports_free_pages: feature bit 5 of a bound balloon device", "[memory]") {
  // The features of the Firecracker guest greslint is measured on: stats, deflate on OOM,
  // free page reporting.
  const std::string reporting = "0110010100000000000000000000000010000000";
  const std::string no_reporting = "0110000100000000000000000000000010000000";
  SECTION("a device that reports") {
    const FakeBalloonDriver driver("reports");
    driver.device("virtio0", reporting);
    CHECK(balloon_reports_free_pages(driver.dir.c_str()));
  }
  SECTION("a device without the bit, and an entry that is not a device") {
    const FakeBalloonDriver driver("quiet");
    driver.device("virtio3", no_reporting);
    driver.device("module", reporting);
    CHECK_FALSE(balloon_reports_free_pages(driver.dir.c_str()));
  }
  SECTION("a features file too short to hold the bit") {
    const FakeBalloonDriver driver("short");
    driver.device("virtio1", "01100");
    CHECK_FALSE(balloon_reports_free_pages(driver.dir.c_str()));
  }
  SECTION("no balloon driver at all (bare metal)") {
    CHECK_FALSE(balloon_reports_free_pages("/nonexistent/virtio_balloon"));
  }
}

TEST_CASE("advise_large_block: huge pages unless small ones were chosen, and then the opposite advice", "[memory]") {
  const TestMapping mapping(6);
  REQUIRE(mapping.ok());
  const std::uintptr_t first_huge = mapping.first_huge;
  const auto not_huge = [](std::uintptr_t at) { return vm_flags_at(at).find(" nh") != std::string::npos; };
  set_page_size(PageSize::huge);
  advise_large_block(reinterpret_cast<const void*>(first_huge), 2 * kHuge);
  CHECK(advised(first_huge));
  CHECK_FALSE(not_huge(first_huge));
  set_page_size(PageSize::small);
  advise_large_block(reinterpret_cast<const void*>(first_huge), 2 * kHuge);
  CHECK_FALSE(advised(first_huge));
  CHECK(not_huge(first_huge + kHuge));
  set_page_size(PageSize::huge);
}

TEST_CASE("small_pages_pay_off: where the host takes free pages back and a small page is cheap", "[memory]") {
  CHECK(small_pages_pay_off(true, 1700));   // the Firecracker guest greslint is measured on
  CHECK(small_pages_pay_off(true, 0));      // not measured: by the balloon alone
  CHECK_FALSE(small_pages_pay_off(true, 10000));  // session 23's host: ~10 us a small page
  CHECK_FALSE(small_pages_pay_off(false, 1700));  // bare metal, or no reporting balloon
}
