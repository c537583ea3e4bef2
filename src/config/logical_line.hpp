// SPDX-License-Identifier: Apache-2.0
// Slurm's line layer under s_p_parse_file: logical lines (comments, continuations,
// escapes) with the file offset of every byte, and the Key=Value pattern.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/config.hpp"
#include "util.hpp"

namespace greslint::config_detail {

/// Where each byte of a logical line came from in its file. A logical line is a few runs of
/// bytes copied unchanged, split only where a continuation joins lines or an escape drops a
/// backslash, so it is stored as runs: one offset per byte cost a 10 MB line 80 MB.
class OffsetMap {
 public:
  void clear() {
    runs_.clear();
    size_ = 0;
    end_ = 0;
  }
  /// Records that byte `index` of the line came from file offset `source`; indexes arrive
  /// in increasing order.
  void add(std::size_t index, std::uint32_t source) {
    if (!runs_.empty() && runs_.back().source + (index - runs_.back().index) == source) return;
    runs_.push_back(Run{index, source});
  }
  /// Closes the map: `size` bytes, and [size] (one past the last byte) answers `end`.
  void finish(std::size_t size, std::uint32_t end) {
    size_ = size;
    end_ = end;
  }
  std::uint32_t operator[](std::size_t index) const {
    if (index >= size_) return end_;
    // One run (the line is the file's own text): no search. Four lookups per pair, on every pair.
    if (runs_.size() == 1) return std::uint32_t(runs_.front().source + (index - runs_.front().index));
    auto run =
        std::upper_bound(runs_.begin(), runs_.end(), index, [](std::size_t i, const Run& r) { return i < r.index; });
    --run;  // runs_ starts at index 0, so a run at or before `index` exists
    return run->source + std::uint32_t(index - run->index);
  }

 private:
  struct Run {
    std::size_t index;
    std::uint64_t source;
  };
  std::vector<Run> runs_;
  std::size_t size_ = 0;
  std::uint32_t end_ = 0;
};

/// One logical line. `text` views the file's own text for a line of one physical line
/// without a backslash (nearly every line), else the line's `cooked` copy; the reader moves
/// that copy into the SourceManager before any KeyValue views it (Reader::pin). Reused from
/// line to line, so that its buffers are allocated once per file, not once per line.
struct LogicalLine {
  std::string_view text;
  std::string cooked;
  OffsetMap offsets;               // file offset of each byte of text; [text.size()] = end
  std::vector<std::size_t> joins;  // cooked indexes where a continuation joined lines
  std::uint32_t first_line = 0;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  /// True when `text` is the file's own bytes (one physical line, no backslash). Kept as a
  /// flag, not derived from where `text` points: the reader moves a cooked copy into the
  /// SourceManager, after which `text` no longer views `cooked` but is still no file text.
  bool own_text = false;
  // Scratch of next_logical_line: the kept bytes before escapes are cooked, and where each
  // physical line's bytes start in them and in the file.
  std::string raw;
  std::vector<std::pair<std::size_t, std::uint32_t>> pieces;

  bool is_cooked() const { return !text.empty() && !own_text; }
};

struct KvMatch {
  std::size_t key_begin, key_end;
  char op;
  std::size_t value_begin, value_end;  // value without quotes
  bool quoted;
  bool gap_before_value;  // whitespace between '=' and the value
  std::size_t end;        // end of the value (quotes included)
};

/// Slurm's keyvalue_pattern, applied at `pos` with POSIX leftmost-longest semantics.
std::optional<KvMatch> match_key_value(std::string_view s, std::size_t pos);

/// Offset of the first '\n', NUL, '#' or backslash in [p, p + n), or n: where a line stops
/// being plain text (the end of the line, of what Slurm reads of it, a comment, an escape).
std::size_t first_special(const char* p, std::size_t n) noexcept;

/// Reads the logical line starting at `pos` (advanced past it, with `line_no`) into `l`;
/// comments that hold "greslint:" are kept in `comments` for the suppression pass.
void next_logical_line(FileId file, std::string_view text, std::uint32_t& pos, std::uint32_t& line_no,
                       std::vector<Comment>& comments, LogicalLine& l);

inline bool only_space(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return is_space(c); });
}

inline std::string_view strip_cr_nl(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

}  // namespace greslint::config_detail
