// SPDX-License-Identifier: Apache-2.0
// Logical lines and Key=Value matching, as Slurm's s_p_parse_file reads them.
#include "config/logical_line.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <utility>

namespace greslint::config_detail {

namespace {

/// Character classes of keyvalue_pattern, one lookup per byte. Performance: the comparisons
/// of is_space and is_alnum, byte by byte, were 9% of reading a file written node by node,
/// where every line's first pair is matched here.
enum CharClass : std::uint8_t { kBlank = 1, kKeyChar = 2 };
constexpr std::array<std::uint8_t, 256> kCharClass = [] {
  std::array<std::uint8_t, 256> table{};
  for (const unsigned char c : {' ', '\t', '\n', '\v', '\f', '\r'}) table[c] = kBlank;  // is_space
  for (unsigned char c = 0; c < 128; ++c)
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.')
      table[c] = kKeyChar;
  return table;
}();
bool has_class(char c, CharClass k) noexcept { return (kCharClass[static_cast<unsigned char>(c)] & k) != 0; }

// Performance: the key and the value of a line's first pair, byte by byte, were a tenth of
// reading a gres.conf written one line per GPU (~200 instructions a line); sixteen bytes at
// a time where sixteen are left, byte by byte for the rest.
#if defined(__SSE2__)
/// Bit i set when byte i of the 16 at `p` is a key character (kKeyChar). Bytes from 0x80 are
/// negative to the signed comparisons, so no range takes them.
unsigned key_char_bits(const char* p) noexcept {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));  // A-Z to a-z, a-z unchanged
  const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                       _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
  const __m128i digit =
      _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
  const __m128i other = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')), _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
  return unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), other)));
}

/// Bit i set when byte i of the 16 at `p` is blank (kBlank: ' ' and '\t' to '\r').
unsigned blank_bits(const char* p) noexcept {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i control = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('\t' - 1)),
                                        _mm_cmplt_epi8(v, _mm_set1_epi8('\r' + 1)));
  return unsigned(_mm_movemask_epi8(_mm_or_si128(control, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')))));
}
#endif

/// The first index from `i` whose byte is not a key character, or s.size().
std::size_t end_of_key(std::string_view s, std::size_t i) noexcept {
#if defined(__SSE2__)
  for (; i + 16 <= s.size(); i += 16)
    if (const unsigned other = ~key_char_bits(s.data() + i) & 0xFFFFu) return i + std::size_t(__builtin_ctz(other));
#endif
  while (i < s.size() && has_class(s[i], kKeyChar)) ++i;
  return i;
}

/// The first index from `i` whose byte is blank, or s.size().
std::size_t end_of_non_blank(std::string_view s, std::size_t i) noexcept {
#if defined(__SSE2__)
  for (; i + 16 <= s.size(); i += 16)
    if (const unsigned blank = blank_bits(s.data() + i)) return i + std::size_t(__builtin_ctz(blank));
#endif
  while (i < s.size() && !has_class(s[i], kBlank)) ++i;
  return i;
}

}  // namespace

/// Slurm's keyvalue_pattern, applied at `pos` with POSIX leftmost-longest semantics.
std::optional<KvMatch> match_key_value(std::string_view s, std::size_t pos) {
  std::size_t i = pos;
  while (i < s.size() && has_class(s[i], kBlank)) ++i;
  const std::size_t key_begin = i;
  i = end_of_key(s, i);
  if (i == key_begin) return std::nullopt;
  const std::size_t key_end = i;
  while (i < s.size() && has_class(s[i], kBlank)) ++i;
  char op = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '*' || s[i] == '+' || s[i] == '/')) op = s[i++];
  if (i >= s.size() || s[i] != '=') return std::nullopt;
  ++i;
  const std::size_t after_eq = i;
  while (i < s.size() && has_class(s[i], kBlank)) ++i;
  if (i >= s.size()) return std::nullopt;
  // Alternative 1: "..." followed by whitespace or end of line.
  std::size_t quoted_len = 0;
  if (s[i] == '"') {
    std::size_t close = s.find('"', i + 1);
    if (close != std::string_view::npos && (close + 1 == s.size() || is_space(s[close + 1])))
      quoted_len = close + 1 - i;
  }
  // Alternative 2: a run of non-space characters.
  const std::size_t plain_len = end_of_non_blank(s, i) - i;
  if (quoted_len == 0 && plain_len == 0) return std::nullopt;
  KvMatch m{key_begin, key_end, op, 0, 0, false, i > after_eq, 0};
  if (quoted_len >= plain_len && quoted_len > 0) {
    m.quoted = true;
    m.value_begin = i + 1;
    m.value_end = i + quoted_len - 1;
    m.end = i + quoted_len;
  } else {
    m.value_begin = i;
    m.value_end = i + plain_len;
    m.end = i + plain_len;
  }
  return m;
}

namespace {

/// Where the content of the physical line [pos, line_end) ends: at a NUL (Slurm reads lines
/// with fgets and then uses strlen) or at a '#' not preceded by an odd run of backslashes.
std::uint32_t content_end_of(FileId file, std::string_view text, std::uint32_t pos, std::uint32_t line_end,
                             std::uint32_t line_no, std::vector<Comment>& comments) {
  std::uint32_t content_end = line_end;
  if (const void* nul = std::memchr(text.data() + pos, '\0', line_end - pos))
    content_end = std::uint32_t(static_cast<const char*>(nul) - text.data());
  // A '#' starts the comment unless the run of backslashes right before it is odd. Found
  // with memchr: byte by byte this was the costliest loop of reading a per-node file.
  for (std::uint32_t from = pos; from < content_end;) {
    const void* hash = std::memchr(text.data() + from, '#', content_end - from);
    if (!hash) break;
    const auto i = std::uint32_t(static_cast<const char*>(hash) - text.data());
    std::uint32_t run = 0;
    while (i - run > pos && text[i - run - 1] == '\\') ++run;
    if (run % 2 == 0) {
      std::string_view body = text.substr(i + 1, line_end - i - 1);
      if (body.find("greslint:") != std::string_view::npos)
        comments.push_back(Comment{Span{file, i, line_end}, body, line_no});
      return i;
    }
    from = i + 1;
  }
  return content_end;
}

/// Escapes: every backslash is dropped and the next character kept as it is. Moves the
/// continuation joins from raw to cooked indexes.
/// Performance: the bytes between backslashes, joins and piece ends are copied in bulk with
/// one offset run each (byte by byte, cooking was a third of reading a 25 MB file).
void cook(LogicalLine& l) {
  const std::string& raw = l.raw;
  const auto& pieces = l.pieces;
  std::string& out = l.cooked;
  out.clear();
  out.reserve(raw.size());
  std::vector<std::size_t> joins;
  std::size_t j = 0;
  std::size_t piece = 0;
  auto source_of = [&](std::size_t i) {
    while (piece + 1 < pieces.size() && pieces[piece + 1].first <= i) ++piece;
    return pieces[piece].second + std::uint32_t(i - pieces[piece].first);
  };
  // The next backslash at or after i, searched for once per backslash: a search per segment
  // was quadratic on a line joined a million times.
  std::size_t backslash = raw.find('\\');
  for (std::size_t i = 0; i < raw.size();) {
    while (j < l.joins.size() && l.joins[j] <= i) joins.push_back(out.size()), ++j;
    if (raw[i] == '\\') {
      if (++i >= raw.size()) break;
      l.offsets.add(out.size(), source_of(i));
      out.push_back(raw[i++]);
      continue;
    }
    const std::uint32_t source = source_of(i);
    if (backslash < i) backslash = raw.find('\\', i);
    std::size_t stop = std::min(backslash, raw.size());
    if (piece + 1 < pieces.size()) stop = std::min(stop, pieces[piece + 1].first);
    if (j < l.joins.size()) stop = std::min(stop, l.joins[j]);
    l.offsets.add(out.size(), source);
    out.append(raw, i, stop - i);
    i = stop;
  }
  while (j < l.joins.size()) joins.push_back(out.size()), ++j;
  l.joins = std::move(joins);
  l.text = out;
  l.offsets.finish(out.size(), l.end);
}

}  // namespace

// Performance: one pass, 16 bytes per step, instead of a memchr for each of the four (a line
// of a per-node file is about 80 bytes, so each memchr was mostly its own start-up; the four
// were 7% of reading such a file).
std::size_t first_special(const char* p, std::size_t n) noexcept {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i nul = _mm_setzero_si128();
  const __m128i hash = _mm_set1_epi8('#');
  const __m128i backslash = _mm_set1_epi8('\\');
  auto specials = [&](std::size_t at) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, newline), _mm_cmpeq_epi8(v, nul)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, hash), _mm_cmpeq_epi8(v, backslash)));
    return unsigned(_mm_movemask_epi8(hit));
  };
  for (; i + 16 <= n; i += 16)
    if (const unsigned mask = specials(i)) return i + std::size_t(__builtin_ctz(mask));
  if (i < n && n >= 16) {
    // The last bytes: one load of the final 16, without the bytes already looked at.
    const std::size_t at = n - 16;
    if (const unsigned mask = specials(at) >> (i - at)) return i + std::size_t(__builtin_ctz(mask));
    return n;
  }
#endif
  for (; i < n; ++i)
    if (p[i] == '\n' || p[i] == '\0' || p[i] == '#' || p[i] == '\\') return i;
  return n;
}

void next_logical_line(FileId file, std::string_view text, std::uint32_t& pos, std::uint32_t& line_no,
                       std::vector<Comment>& comments, LogicalLine& l) {
  l.text = {};
  l.own_text = false;
  l.offsets.clear();
  l.joins.clear();
  l.raw.clear();
  l.pieces.clear();
  l.first_line = line_no;
  l.begin = pos;
  // Nearly every line: no NUL, '#' or backslash before its newline (or the end of the file).
  // It is the file's own text, as the general path below would find with four searches.
  if (pos < text.size()) {
    const std::uint32_t stop = pos + std::uint32_t(first_special(text.data() + pos, text.size() - pos));
    if (stop == text.size() || text[stop] == '\n') {
      l.end = stop;
      l.text = text.substr(pos, stop - pos);
      l.own_text = true;
      l.offsets.add(0, pos);
      l.offsets.finish(l.text.size(), l.end);
      pos = stop == text.size() ? stop : stop + 1;
      ++line_no;
      return;
    }
  }
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    std::uint32_t line_end = eol == std::string_view::npos ? std::uint32_t(text.size()) : std::uint32_t(eol);
    std::uint32_t next = eol == std::string_view::npos ? line_end : line_end + 1;
    const std::uint32_t content_end = content_end_of(file, text, pos, line_end, line_no, comments);
    // Continuation: an odd run of trailing backslashes (trailing blanks allowed after it).
    std::uint32_t scan = content_end;
    int run = 0;
    while (scan > pos) {
      char c = text[scan - 1];
      if (c == '\\')
        ++run;
      else if (is_space(c) && run == 0) {
      } else
        break;
      --scan;
    }
    const bool continued = run % 2 == 1;
    std::uint32_t keep_end = continued ? scan + std::uint32_t(run) - 1 : content_end;
    l.end = continued ? line_end : keep_end;
    if (!continued && l.pieces.empty() && !std::memchr(text.data() + pos, '\\', keep_end - pos)) {
      // One physical line without a backslash, nearly every line: the file's own text.
      l.text = text.substr(pos, keep_end - pos);
      l.own_text = true;
      l.offsets.add(0, pos);
      l.offsets.finish(l.text.size(), l.end);
      pos = next;
      ++line_no;
      return;
    }
    if (keep_end > pos) {
      // In bulk: per-byte push_back made a 10 MB line cost 20 million of them.
      l.pieces.emplace_back(l.raw.size(), pos);
      l.raw.append(text.data() + pos, keep_end - pos);
    }
    pos = next;
    ++line_no;
    if (!continued) break;
    l.joins.push_back(l.raw.size());
  }
  cook(l);
}

}  // namespace greslint::config_detail
