// SPDX-License-Identifier: Apache-2.0
#include "greslint/fingerprint.hpp"

#include <cstdint>
#include <unordered_map>

#include "util.hpp"

namespace greslint {
namespace {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

/// FNV-1a over `text` with blank runs folded to one space and outer blanks dropped, so
/// re-indenting or re-aligning a line does not change what it hashes to.
class Hasher {
 public:
  void add_folded(std::string_view text) {
    bool pending_blank = false, any = false;
    for (char c : text) {
      if (is_space(c) || c == '\\') {  // a backslash-newline joins physical lines
        pending_blank = any;
        continue;
      }
      if (pending_blank) byte(' ');
      pending_blank = false;
      any = true;
      byte(static_cast<unsigned char>(c));
    }
    separator();
  }
  void add(std::string_view text) {
    for (char c : text) byte(static_cast<unsigned char>(c));
    separator();
  }
  std::uint64_t value() const noexcept { return h_; }

 private:
  void byte(unsigned char c) noexcept { h_ = (h_ ^ c) * kFnvPrime; }
  // A NUL between fields keeps ("GRS1", "0x") and ("GRS10", "x") apart.
  void separator() noexcept { byte(0); }
  std::uint64_t h_ = kFnvOffset;
};

/// Start of the logical line holding `offset`: physical lines ending in a backslash
/// continue onto the next one (Slurm's line joining).
std::uint32_t logical_line_start(std::string_view text, std::uint32_t offset) {
  auto line_start = [&](std::size_t at) -> std::size_t {
    if (at == 0) return 0;
    const std::size_t nl = text.rfind('\n', at - 1);
    return nl == std::string_view::npos ? 0 : nl + 1;
  };
  std::size_t start = line_start(offset);
  while (start > 0) {
    std::size_t last = start - 1;  // the '\n' that ends the previous physical line
    if (last > 0 && text[last - 1] == '\r') --last;
    if (last == 0 || text[last - 1] != '\\') break;
    start = line_start(start - 1);
  }
  return static_cast<std::uint32_t>(start);
}

/// The record's first Key=Value on the logical line from `start` ("NodeName=gpu[01-08]").
std::string_view record_head(std::string_view text, std::uint32_t start) {
  std::size_t b = start;
  while (b < text.size() && (text[b] == ' ' || text[b] == '\t')) ++b;
  std::size_t e = b;
  while (e < text.size() && !is_space(text[e]) && text[e] != '#') ++e;
  return text.substr(b, e - b);
}

std::string hex16(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[std::size_t(i)] = digits[v & 0xF];
  return out;
}

}  // namespace

std::string fingerprint_path(const std::string& path, const std::string& config_dir) {
  if (config_dir.empty()) return path;
  std::string dir = config_dir;
  if (dir.back() != '/') dir += '/';
  if (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0) return path.substr(dir.size());
  return path;
}

std::vector<std::string> fingerprint_findings(const std::vector<Diagnostic>& findings, const SourceManager& sources,
                                              const std::string& config_dir) {
  std::vector<std::string> out;
  out.reserve(findings.size());
  std::unordered_map<std::uint64_t, unsigned> seen;
  std::unordered_map<std::uint16_t, std::string> names;
  for (const Diagnostic& d : findings) {
    Hasher h;
    h.add(d.rule ? d.rule->id : std::string_view());
    Span s = d.span;
    if (s.valid() && s.file.index < sources.file_count()) {
      auto name = names.find(s.file.index);
      if (name == names.end())
        name = names.emplace(s.file.index, fingerprint_path(sources.path(s.file), config_dir)).first;
      h.add(name->second);
      std::string_view text = sources.text(s.file);
      const std::uint32_t begin = std::min<std::uint32_t>(s.begin, std::uint32_t(text.size()));
      const std::uint32_t end = std::min<std::uint32_t>(std::max(s.end, begin), std::uint32_t(text.size()));
      h.add_folded(record_head(text, logical_line_start(text, begin)));
      h.add_folded(text.substr(begin, end - begin));
    } else {
      h.add("");
      h.add("");
      h.add("");
    }
    h.add(d.nodes);
    std::uint64_t v = h.value();
    const unsigned occurrence = ++seen[v];
    if (occurrence > 1) {
      Hasher again;
      again.add(hex16(v));
      again.add(std::to_string(occurrence));
      v = again.value();
    }
    out.push_back(hex16(v));
  }
  return out;
}

}  // namespace greslint
