// SPDX-License-Identifier: Apache-2.0
// Reading a file within greslint's bounds, and Slurm's value conversions (s_p_handle_*).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <fmt/format.h>

#include "config/reader.hpp"
#include "huge_pages.hpp"

namespace greslint {

using config_detail::kLargeConfigurationBytes;
using config_detail::kMapFileBytes;
using config_detail::kMaxFileBytes;

namespace {

/// A descriptor of `path` opened for reading, checked to be a regular file within the size
/// limit; -1 with `error` set otherwise. `size` is what fstat says.
int open_bounded(const std::string& path, std::uint64_t& size, std::string& error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (and a /proc file that would block
  // on read fails instead). fstat on the open descriptor: what is checked is what is read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = std::strerror(errno);
  } else if (S_ISDIR(st.st_mode)) {
    error = "Is a directory";
  } else if (!S_ISREG(st.st_mode)) {
    error = "not a regular file";
  } else if (std::uint64_t(st.st_size) > kMaxFileBytes) {
    error = fmt::format("larger than greslint's limit of {} MiB", kMaxFileBytes >> 20);
  } else {
    size = std::uint64_t(st.st_size);
    return fd;
  }
  ::close(fd);
  return -1;
}

struct Closer {
  int fd;
  ~Closer() { ::close(fd); }
};

bool read_open_file(int fd, std::uint64_t size, std::string& text, std::string& error) {
  // Never more than the limit plus one byte: /proc and /sys files report a size of 0 (and
  // /proc/self/pagemap would go on for 256 GB), and a file can grow while it is read.
  std::string buffer(std::max<std::size_t>(std::size_t(size) + 1, 4096), '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == buffer.size()) buffer.resize(std::min(buffer.size() * 2, kMaxFileBytes + 1));
    const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    const std::size_t asked = buffer.size() - got;
    got += std::size_t(n);
    // A regular file that gave the size fstat reported, and less than asked, is at its end:
    // the read that returns 0 is one more system call per Include (6,250 of them in a
    // configuration of one file per rack). A size of 0 (/proc) proves nothing: read on.
    if (size > 0 && got == size && std::size_t(n) < asked) break;
    if (got > kMaxFileBytes) {
      error = fmt::format("larger than greslint's limit of {} MiB", kMaxFileBytes >> 20);
      return false;
    }
  }
  buffer.resize(got);
  text = std::move(buffer);
  return true;
}

/// Reads exactly `size` bytes of `fd` from its start into `to`: false when the file ends
/// before, goes on after, or fails.
bool read_exactly(int fd, char* to, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::pread(fd, to + got, size - got, off_t(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += std::size_t(n);
  }
  char past = 0;
  return ::pread(fd, &past, 1, off_t(size)) == 0;
}

}  // namespace

bool read_file_bounded(const std::string& path, std::string& text, std::string& error) {
  std::uint64_t size = 0;
  const int fd = open_bounded(path, size, error);
  if (fd < 0) return false;
  const Closer closer{fd};
  return read_open_file(fd, size, text, error);
}

namespace {

/// populated: mapped, every page faulted in at once. parse_copy: mapped, and read once more
/// into a parse copy. mapped: mapped, each page faulted in when the reader reaches it.
enum class Pages { populated, parse_copy, mapped };

bool read_file(const std::string& path, FileText& text, std::string& error, Pages pages,
               const std::function<void(std::uint64_t)>& on_size) {
  std::uint64_t size = 0;
  const int fd = open_bounded(path, size, error);
  if (fd < 0) return false;
  const Closer closer{fd};
  if (on_size) on_size(size);
  // A large configuration, in one file or in many (one Include per rack: 6,250 files of
  // ~8 KB at 100,000 nodes): its pages are chosen now (skip_heap_head, page_size), before it
  // fills its memory.
  static std::atomic<std::uint64_t> bytes_read{0};
  if (bytes_read.fetch_add(size, std::memory_order_relaxed) + size >= kLargeConfigurationBytes) skip_heap_head();
  if (size >= kMapFileBytes) {
    // Mapped, not read: the page cache's own pages instead of a copy into fresh memory (see
    // FileText). Falls back to reading where mapping fails.
    // In 4 KiB pages (page_size) a parse copy costs a fault per page, as the mapping does,
    // and the copying on top: the reader parses the mapping then. A gres.conf of one line
    // per GPU at 100,000 nodes: 118 against 123 ms (median of 25 interleaved runs).
#ifndef GRESLINT_COPY_EVERY_FILE  // that build parses every file from a copy (config/reader.hpp)
    if (pages == Pages::parse_copy && page_size() == PageSize::small) pages = Pages::mapped;
#endif
    const int populate = pages == Pages::populated ? MAP_POPULATE : 0;
    void* p = ::mmap(nullptr, std::size_t(size), PROT_READ, MAP_PRIVATE | populate, fd, 0);
    if (p != MAP_FAILED) {
      const auto* data = static_cast<const char*>(p);
      ParseCopy copy;
      if (pages == Pages::parse_copy) {
        copy = take_parse_copy(std::size_t(size));
        // A file that no longer has the size fstat gave (written meanwhile) is parsed from
        // its mapping, as if no copy had been asked for.
        if (!read_exactly(fd, copy.bytes.get(), std::size_t(size))) {
          give_back_parse_copy(std::move(copy));
          copy = {};
        }
      }
      text = FileText::mapped(data, std::size_t(size), std::move(copy));
      return true;
    }
  }
  std::string bytes;
  if (!read_open_file(fd, size, bytes, error)) return false;
  text = FileText(std::move(bytes));
  return true;
}

}  // namespace

bool read_file_bounded(const std::string& path, FileText& text, std::string& error) {
  return read_file(path, text, error, Pages::populated, {});
}

bool read_file_to_parse(const std::string& path, FileText& text, std::string& error,
                        const std::function<void(std::uint64_t size)>& on_size) {
  return read_file(path, text, error, Pages::parse_copy, on_size);
}

namespace {

/// Slurm's messages print the key with "%.*s".
struct KeyName {
  const char* key;
  int len;
};

bool unlimited(const std::string& v) { return iequals(v, "UNLIMITED") || iequals(v, "INFINITE"); }

bool convert_uint16(KeyName k, const std::string& v, std::string& error) {
  char* end = nullptr;
  errno = 0;
  unsigned long n = std::strtoul(v.c_str(), &end, 0);
  if ((n == 0 && errno == EINVAL) || *end != '\0') {
    if (unlimited(v)) return true;
    error = fmt::format("{:.{}} value \"{}\" is not a valid number", k.key, k.len, v);
    return false;
  }
  if (errno == ERANGE)
    error = fmt::format("{:.{}} value ({}) is out of range", k.key, k.len, v);
  else if (!v.empty() && v[0] == '-')
    error = fmt::format("{:.{}} value ({}) is less than zero", k.key, k.len, v);
  else if (n > 0xffff)
    error = fmt::format("{:.{}} value ({}) is greater than 65535", k.key, k.len, v);
  else
    return true;
  return false;
}

bool convert_unsigned(KeyName k, bool is32, const std::string& v, std::string& error) {
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(v.c_str(), &end, 0);
  if (*end == 'k' || *end == 'K') {
    n *= 1024;
    ++end;
  }
  if ((n == 0 && errno == EINVAL) || *end != '\0') {
    if (unlimited(v)) return true;
    error = fmt::format("{:.{}} value ({}) is not a valid number", k.key, k.len, v);
    return false;
  }
  if (errno == ERANGE)
    error = fmt::format("{:.{}} value ({}) is out of range", k.key, k.len, v);
  else if (!v.empty() && v[0] == '-')
    error = fmt::format("{:.{}} value ({}) is less than zero", k.key, k.len, v);
  else if (is32 && n > 0xffffffffULL)
    error = fmt::format("{:.{}} value ({}) is greater than 4294967295", k.key, k.len, v);
  else
    return true;
  return false;
}

bool convert_long(const std::string& v, std::string& error) {
  char* end = nullptr;
  errno = 0;
  std::strtol(v.c_str(), &end, 0);
  if (*end != '\0' && !unlimited(v)) {
    error = fmt::format("\"{}\" is not a valid number", v);
    return false;
  }
  if (errno == ERANGE) {
    error = fmt::format("\"{}\" is out of range", v);
    return false;
  }
  return true;
}

bool convert_boolean(KeyName k, const std::string& v, std::string& error) {
  for (const char* ok : {"yes", "up", "true", "1", "no", "down", "false", "0"})
    if (iequals(v, ok)) return true;
  error = fmt::format("\"{}\" is not a valid option for \"{:.{}}\"", v, k.key, k.len);
  return false;
}

bool convert_floating(const std::string& v, std::string& error) {
  char* end = nullptr;
  std::strtod(v.c_str(), &end);
  if (*end != '\0' && !unlimited(v)) {
    error = fmt::format("\"{}\" is not a valid number", v);
    return false;
  }
  return true;
}

}  // namespace

bool convert_value(const KeySpec& spec, std::string_view value, std::string& error) {
  switch (spec.type) {
    case ValueType::uint16: case ValueType::uint32: case ValueType::uint64: case ValueType::long_:
    case ValueType::boolean: case ValueType::float_: case ValueType::double_: case ValueType::long_double: break;
    // Strings, hostlists, lines: nothing to convert. Returned before the copy below, which was
    // a heap string per value past 15 bytes on every pair of a per-node file.
    default: return true;
  }
  const std::string v(value);
  const KeyName k{spec.name.data(), int(spec.name.size())};
  switch (spec.type) {
    case ValueType::uint16: return convert_uint16(k, v, error);
    case ValueType::uint32: return convert_unsigned(k, true, v, error);
    case ValueType::uint64: return convert_unsigned(k, false, v, error);
    case ValueType::long_: return convert_long(v, error);
    case ValueType::boolean: return convert_boolean(k, v, error);
    case ValueType::float_:
    case ValueType::double_:
    case ValueType::long_double: return convert_floating(v, error);
    default: return true;
  }
}

}  // namespace greslint
