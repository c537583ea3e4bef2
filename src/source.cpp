// SPDX-License-Identifier: Apache-2.0
// SourceManager: owns file texts and maps byte offsets to line:column on demand.
#include "greslint/source.hpp"

#include "huge_pages.hpp"

#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstring>
#include <new>

namespace greslint {

namespace {

/// The parse copy this thread gave back last (give_back_parse_copy).
thread_local ParseCopy spare_copy;

constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;

/// Lets the whole 2 MiB pages of `copy` from byte `keep` on go (madvise): their memory
/// leaves the process now, and comes back (zeroed) if a larger file needs it. Whole pages
/// only: letting part of a huge page go would split it.
void let_pages_go(const ParseCopy& copy, std::size_t keep) noexcept {
  const auto base = reinterpret_cast<std::uintptr_t>(copy.bytes.get());
  const std::uintptr_t from = (base + keep + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t to = (base + copy.capacity) & ~(kHugePage - 1);
  if (copy.bytes && to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

}  // namespace

void ParseCopyUnmap::operator()(char* p) const noexcept { ::munmap(p, bytes); }

ParseCopy take_parse_copy(std::size_t size) {
  if (spare_copy.bytes && spare_copy.capacity >= size) {
    // A gres.conf that includes one file per GPU type may read the largest first: the pages
    // the smaller ones leave unused go meanwhile.
    let_pages_go(spare_copy, size);
    return std::move(spare_copy);
  }
  spare_copy = {};
  // A mapping of its own, in whole 2 MiB pages advised as such: read() fills it a 2 MiB fault
  // at a time. In the heap (a first version), the block left a hole the blocks made after the
  // reading filled only in part: +10 MB in the peak memory of a 100,000-node run.
  const std::size_t capacity = (std::max<std::size_t>(size, 1) + kHugePage - 1) & ~(kHugePage - 1);
  void* p = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  advise_large_block(p, capacity);
  return ParseCopy{std::unique_ptr<char[], ParseCopyUnmap>(static_cast<char*>(p), ParseCopyUnmap{capacity}), capacity};
}

void give_back_parse_copy(ParseCopy copy) noexcept {
#ifdef GRESLINT_COPY_EVERY_FILE
  return;  // unmapped: a view still pointing into it crashes the run (src/config/reader.hpp)
#endif
  if (copy.capacity >= spare_copy.capacity) spare_copy = std::move(copy);
}

void free_parse_copies() noexcept { spare_copy = {}; }

FileText FileText::mapped(const char* data, std::size_t size, ParseCopy copy) {
  FileText t;
  t.view_ = std::string_view(data, size);
  t.mapped_ = true;
  t.copy_ = std::move(copy);
  return t;
}

FileText::FileText(FileText&& other) noexcept { *this = std::move(other); }

FileText& FileText::operator=(FileText&& other) noexcept {
  if (this == &other) return *this;
  release();
  mapped_ = other.mapped_;
  if (mapped_) {
    view_ = other.view_;
  } else {
    // A moved std::string may keep its bytes inline (short strings): view the new home.
    owned_ = std::move(other.owned_);
    view_ = owned_;
  }
  copy_ = std::move(other.copy_);
  other.mapped_ = false;
  other.owned_.clear();
  other.view_ = {};
  return *this;
}

FileText::~FileText() { release(); }

void FileText::release() noexcept {
  if (mapped_ && !view_.empty()) ::munmap(const_cast<char*>(view_.data()), view_.size());
  mapped_ = false;
  view_ = {};
  copy_ = {};
}

namespace {

/// Calls fn(offset) for every newline of [p, p + n), in order. Performance: 16 bytes per
/// step; a memchr per newline cost its start-up on every 80-byte line of a per-node file,
/// and std::count read one byte per step (2.5x slower than memchr on a 25 MB file).
template <typename Fn>
void each_newline(const char* p, std::size_t n, Fn&& fn) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    for (auto mask = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, newline))); mask != 0; mask &= mask - 1)
      fn(i + std::size_t(__builtin_ctz(mask)));
  }
#endif
  for (; i < n; ++i)
    if (p[i] == '\n') fn(i);
}

}  // namespace

std::size_t count_newlines(std::string_view text) noexcept {
  std::size_t count = 0, i = 0;
#if defined(__SSE2__)
  // Each byte lane counts its newlines (a match is -1, subtracted) for up to 255 blocks of
  // 16, then the lanes are summed: three instructions a block. A popcount of each block's
  // mask, without POPCNT in the baseline x86-64, was a dozen (3% of a per-node gres-node2
  // run, counting its included files).
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i zero = _mm_setzero_si128();
  while (i + 16 <= text.size()) {
    __m128i lanes = zero;
    for (int blocks = 0; blocks < 255 && i + 16 <= text.size(); ++blocks, i += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(bytes, newline));
    }
    const __m128i sums = _mm_sad_epu8(lanes, zero);
    count += std::size_t(_mm_cvtsi128_si32(sums)) + std::size_t(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; i < text.size(); ++i) count += text[i] == '\n' ? 1 : 0;
  return count;
}

FileId SourceManager::add(std::string path, FileText text) {
  const FileId id{static_cast<std::uint16_t>(file_count())};
  text_bytes_ += text.size();
  files_.push_back(File{std::move(path), std::move(text), {}, false});
  by_id_.push_back(&files_.back());
  return id;
}

std::uint16_t SourceManager::rebase(std::size_t files_before, std::size_t bytes_before) {
  const auto by = static_cast<std::uint16_t>(files_before - first_);
  first_ = static_cast<std::uint16_t>(files_before);
  text_bytes_ += bytes_before;
  return by;
}

bool SourceManager::adopt(SourceManager&& later) {
  if (later.first_ != file_count()) return false;
  // The elements are not moved one by one: a short text or kept string lives inside its
  // std::string, and views into it would dangle. Moving a whole deque keeps every element
  // where it is.
  by_id_.insert(by_id_.end(), later.by_id_.begin(), later.by_id_.end());
  text_bytes_ = later.text_bytes_;
  adopted_files_.push_back(std::move(later.files_));
  adopted_cooked_.push_back(std::move(later.cooked_));
  for (auto& files : later.adopted_files_) adopted_files_.push_back(std::move(files));
  for (auto& cooked : later.adopted_cooked_) adopted_cooked_.push_back(std::move(cooked));
  for (auto& object : later.kept_alive_) kept_alive_.push_back(std::move(object));
  later.kept_alive_.clear();
  later.by_id_.clear();
  later.first_ = 0;
  later.text_bytes_ = 0;
  return true;
}

const std::vector<std::uint32_t>& SourceManager::line_starts(const File& file) const {
  if (file.lines_found) return file.line_starts;
  // Counted first, so that the line starts are one allocation: grown line by line, this was
  // 4% of reading a 25 MB per-node configuration.
  const std::string_view t = file.text.view();
  std::size_t newlines = 0;
  each_newline(t.data(), t.size(), [&](std::size_t) { ++newlines; });
  file.line_starts.reserve(newlines + 1);
  file.line_starts.push_back(0);
  each_newline(t.data(), t.size(), [&](std::size_t at) { file.line_starts.push_back(std::uint32_t(at + 1)); });
  file.lines_found = true;
  return file.line_starts;
}

std::string_view SourceManager::text(Span s) const {
  if (!s.valid()) return {};
  std::string_view t = file(s.file).text.view();
  if (s.begin > t.size()) return {};
  return t.substr(s.begin, std::min<std::size_t>(s.end, t.size()) - s.begin);
}

LineCol SourceManager::line_col(FileId f, std::uint32_t offset) const {
  const std::vector<std::uint32_t>& starts = line_starts(file(f));
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  auto line = static_cast<std::uint32_t>(it - starts.begin());
  return LineCol{line, offset - starts[line - 1] + 1};
}

std::string_view SourceManager::line_text(FileId f, std::uint32_t line) const {
  const File& source = file(f);
  const std::vector<std::uint32_t>& starts = line_starts(source);
  if (line == 0 || line > starts.size()) return {};
  std::uint32_t begin = starts[line - 1];
  std::uint32_t end = line < starts.size() ? starts[line] : static_cast<std::uint32_t>(source.text.size());
  std::string_view t = source.text.view().substr(begin, end - begin);
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.remove_suffix(1);
  return t;
}

}  // namespace greslint
