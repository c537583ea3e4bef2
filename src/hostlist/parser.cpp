// SPDX-License-Identifier: Apache-2.0
// Slurm's hostlist grammar (hostlist_create for each release), rebuilt from hostlist.c's
// observable behaviour.
#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "hostlist/hostlist_detail.hpp"

namespace greslint {

using namespace hostlist_detail;

namespace {

struct Item {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  int width = 0;
  std::size_t begin = 0;  ///< offsets into the parsed text
  std::size_t end = 0;
  std::uint64_t count() const noexcept { return hi - lo + 1; }
};

enum class Status : std::uint8_t { ok, invalid, fatal };

/// A bracket group inside a token's prefix. Level 0 is the rightmost one: Slurm expands it
/// in the outer loop and recurses leftwards, so the leftmost group varies fastest.
struct Level {
  std::size_t open = 0;
  std::size_t close = 0;
  std::size_t literal_end = 0;  ///< text after `]` up to the next group (or the top `[`)
  std::vector<Item> items;
  std::size_t used = 0;  ///< items Slurm gets through before its prefix cap stops it
  std::uint64_t count = 0;
};

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) noexcept {
  if (a == 0 || b == 0) return 0;
  return a > kULongMax / b ? kULongMax : a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
  return a > kULongMax - b ? kULongMax : a + b;
}

/// One host, as Slurm's hostrange of a name without brackets.
HostRange host_range(std::string_view name, Span where) {
  const SlurmRange s = split_hostname(name);
  HostRange r;
  r.prefix = std::string(s.prefix);
  r.numeric = !s.single;
  r.lo = s.lo;
  r.hi = s.hi;
  r.width = s.width;
  r.item = r.expr = where;
  return r;
}

/// True when `text` is one host name and nothing else: no separator of any release, no
/// bracket, no NUL. The Parser would make it one token of one host spanning `where` (a
/// token's span is `where` itself whether or not it was exact).
bool one_plain_name(std::string_view text) noexcept {
  // Performance: one table lookup per byte; seven comparisons each were 3% of reading a
  // cluster written node by node, where every line's name comes through here.
  static constexpr std::array<bool, 256> kEndsName = [] {
    std::array<bool, 256> table{};
    for (const unsigned char c : {',', ' ', '\t', '\n', '[', ']', '\0'}) table[c] = true;
    return table;
  }();
  if (text.empty()) return false;
  return std::none_of(text.begin(), text.end(), [](char c) { return kEndsName[static_cast<unsigned char>(c)]; });
}

class Parser {
 public:
  Parser(std::string_view text, Span where, const VersionProfile& profile)
      : text_(text.substr(0, std::min(text.size(), text.find('\0')))),
        where_(where),
        exact_(where.size() == text.size()),
        newline_separates_(!profile.hostlist_missing_bracket_is_literal()),
        missing_bracket_literal_(profile.hostlist_missing_bracket_is_literal()),
        suffix_allowed_(profile.hostlist_suffix_allowed()) {}

  HostlistResult run() {
    std::size_t pos = 0, b = 0, e = 0;
    while (next_token(pos, b, e))
      if (token(b, e) != Status::ok) return std::move(result_);
    Hostlist list(std::move(ranges_));
    for (const auto& run : HostlistAccess::runs(list)) {
      // Slurm drops such a range after its first host and then walks off the list.
      if (run.hi == kULongMax && run.lo < run.hi) {
        error(run.first->item,
              fmt::format("range reaches {}; Slurm cannot step through it (scontrol crashes)", kULongMax), false);
        return std::move(result_);
      }
    }
    result_.list = std::move(list);
    return std::move(result_);
  }

 private:
  Span span(std::size_t b, std::size_t e) const {
    if (!exact_) return where_;
    return Span{where_.file, where_.begin + std::uint32_t(b), where_.begin + std::uint32_t(e)};
  }
  void error(Span s, std::string message, bool slurm_logs = true) {
    for (const HostlistError& seen : result_.errors)
      if (seen.message == message && seen.span.begin == s.begin && seen.span.end == s.end) return;
    result_.errors.push_back(HostlistError{s, std::move(message), slurm_logs});
  }
  void warning(Span s, std::string message) { result_.warnings.push_back(HostlistError{s, std::move(message), false}); }

  bool is_separator(char c) const noexcept {
    return c == ',' || c == ' ' || c == '\t' || (c == '\n' && newline_separates_);
  }

  std::size_t find_char(char c, std::size_t from) const noexcept {
    const std::size_t i = text_.find(c, from);
    return i == std::string_view::npos ? text_.size() : i;
  }

  /// find_char for a bracket, remembered: the first `c` at or after `from` is still the
  /// answer for any later `from` up to it. A search per token of a long list without
  /// brackets (a partition naming 33,000 nodes one by one) read the rest of the list each
  /// time, quadratic in its length.
  std::size_t find_bracket(char c, std::size_t from) const noexcept {
    Found& f = c == '[' ? open_ : close_;
    if (!f.valid || from < f.from || from > f.at) f = Found{true, from, find_char(c, from)};
    return f.at;
  }

  /// _next_tok: split on separators, except that a `[` before the separator whose first
  /// following `]` lies beyond it pulls the token on to that `]`.
  bool next_token(std::size_t& pos, std::size_t& b, std::size_t& e) const {
    const std::size_t n = text_.size();
    while (pos < n && is_separator(text_[pos])) ++pos;
    if (pos >= n) return false;
    b = pos;
    std::size_t parse = pos, s = pos;
    for (;;) {
      while (s < n && !is_separator(text_[s])) ++s;
      bool extended = false;
      for (;;) {
        const std::size_t open = find_bracket('[', parse);
        if (open >= n || open > s) break;
        const std::size_t close = find_bracket(']', parse);
        if (close >= n || close < open) break;
        if (close < s) {
          parse = close + 1;
          continue;
        }
        s = close;
        extended = true;
        break;
      }
      if (!extended) break;
    }
    e = s;
    while (s < n && is_separator(text_[s])) ++s;
    pos = s;
    return true;
  }

  bool account(std::uint64_t ranges, std::uint64_t hosts, Span where) {
    const std::uint64_t total_ranges = saturating_add(total_ranges_, ranges);
    const std::uint64_t total_hosts = saturating_add(total_hosts_, hosts);
    if (total_ranges > kMaxTotalRanges) {
      error(where,
            fmt::format("hostlist needs {} ranges; Slurm would build every one of them, greslint stops at {}",
                        total_ranges == kULongMax ? std::string("more than 2^64") : std::to_string(total_ranges),
                        kMaxTotalRanges),
            false);
      return false;
    }
    if (total_hosts > kMaxTotalHosts) {
      error(where,
            fmt::format("hostlist holds {} hosts; Slurm counts hosts in an int, which breaks above {}",
                        total_hosts == kULongMax ? std::string("more than 2^64") : std::to_string(total_hosts),
                        kMaxTotalHosts),
            false);
      return false;
    }
    total_ranges_ = total_ranges;
    total_hosts_ = total_hosts;
    return true;
  }

  void push_host(std::string_view name, Span where) { ranges_.push_back(host_range(name, where)); }

  Status token(std::size_t b, std::size_t e) {
    const std::string_view tok = text_.substr(b, e - b);
    const Span expr = span(b, e);
    const std::size_t open = tok.rfind('[');
    if (open == std::string_view::npos) {
      if (!account(1, 1, expr)) return Status::invalid;
      push_host(tok, expr);
      return Status::ok;
    }
    const std::size_t close = tok.find(']', open + 1);
    if (close == std::string_view::npos) {
      if (!missing_bracket_literal_) {
        error(span(b + open, e), fmt::format("`[' without `]' in `{}'", tok), false);
        return Status::invalid;
      }
      const std::string host = open > 0 ? std::string(tok.substr(0, open)) + "]" : std::string(tok.substr(open + 1));
      warning(expr,
              fmt::format("`{}' has no `]'; Slurm 22.05 reads it as the host `{}' (23.02 rejects it)", tok, host));
      if (!account(1, 1, expr)) return Status::invalid;
      push_host(host, expr);
      return Status::ok;
    }
    std::string_view suffix;
    if (close + 1 < tok.size() && tok[close + 1] != ',') {
      if (!suffix_allowed_) {
        error(span(b + close + 1, e),
              fmt::format("text after `]' needs Slurm 23.11 or later: `{}'", tok.substr(close + 1)), false);
        return Status::invalid;
      }
      suffix = tok.substr(close + 1);
    }
    std::vector<Item> top;
    if (parse_range_list(b + open + 1, b + close, top) != Status::ok) return Status::invalid;
    for (const Item& it : top)
      if (it.hi == kULongMax && it.lo < it.hi) {
        error(span(it.begin, it.end),
              fmt::format("range `{}' reaches {}; Slurm cannot step through it",
                          text_.substr(it.begin, it.end - it.begin), kULongMax),
              false);
        return Status::invalid;
      }
    return push_range_list(b, b + open, suffix, top, expr);
  }

  Status parse_range_list(std::size_t b, std::size_t e, std::vector<Item>& items) {
    std::size_t s = b;
    for (;;) {
      const std::size_t comma = std::min(find_char(',', s), e);
      if (items.size() == kMaxRangesPerBracket) {
        error(span(s, comma), "_parse_range_list: Too many ranges, can't process entire list");
        return Status::fatal;
      }
      Item it;
      if (!parse_single_range(s, comma, it)) return Status::invalid;
      items.push_back(it);
      if (comma >= e) return Status::ok;
      s = comma + 1;
    }
  }

  bool parse_single_range(std::size_t b, std::size_t e, Item& out) {
    const std::string_view item = text_.substr(b, e - b);
    auto reject = [&](const char* what) {
      error(span(b, e), fmt::format("_parse_single_range: {} `{}'", what, item));
      return false;
    };
    if (item.find('x') != std::string_view::npos) return reject("Invalid range:");
    const std::size_t dash = item.find('-');
    const bool has_dash = dash != std::string_view::npos;
    const std::string_view lo_text = has_dash ? item.substr(0, dash) : item;
    const std::string_view hi_text = has_dash ? item.substr(dash + 1) : std::string_view();
    if (!hi_text.empty() && hi_text.front() == '-') return reject("Invalid range:");
    const ULongParse lo = parse_ulong(lo_text);
    if (!lo.converted) return reject("Invalid range:");
    std::uint64_t hi = lo.value;
    if (!hi_text.empty()) {
      // Slurm never looks at what follows the low bound once a high bound is present.
      const ULongParse h = parse_ulong(hi_text);
      if (!h.converted || h.end != hi_text.size()) return reject("Invalid range:");
      hi = h.value;
    } else if (lo.end != lo_text.size()) {
      return reject("Invalid range:");
    }
    if (lo.value > hi) return reject("Invalid range:");
    if (hi - lo.value + 1 > kMaxHostsPerRange) return reject("Too many hosts in range");
    out = Item{lo.value, hi, int(lo_text.size()), b, e};
    const auto plain = [](std::string_view t) {
      return std::all_of(t.begin(), t.end(), [](char c) { return c_isdigit(c); });
    };
    if (!plain(lo_text) || !plain(hi_text)) {
      warning(span(b, e),
              fmt::format("`{}' is not plain digits; Slurm reads it as {} padded to width {}", item,
                          lo.value == hi ? std::to_string(hi) : fmt::format("{}-{}", lo.value, hi), lo_text.size()));
    }
    return true;
  }

  /// _push_range_list: expand the bracket groups of the prefix, then push the top ranges
  /// under every resulting prefix.
  Status push_range_list(std::size_t prefix_b, std::size_t prefix_e, std::string_view suffix,
                         const std::vector<Item>& top, Span expr) {
    std::vector<Level> levels;
    const std::size_t literal_end = find_levels(prefix_b, prefix_e, levels);
    bool yields_nothing = false;
    if (Status s = count_levels(levels, yields_nothing); s != Status::ok) return s;
    if (yields_nothing) return Status::ok;

    std::uint64_t prefixes = 1;
    for (const Level& l : levels) prefixes = saturating_mul(prefixes, l.count);
    std::uint64_t top_hosts = 0;
    for (const Item& it : top) top_hosts = saturating_add(top_hosts, it.count());
    if (!account(saturating_mul(prefixes, top.size()), saturating_mul(prefixes, top_hosts), expr))
      return Status::invalid;
    // Sized once for a token of many prefixes (a million ranges from four groups of 100),
    // by doubling still for a list of many small tokens.
    const std::size_t needed = ranges_.size() + std::size_t(prefixes * top.size());
    if (needed > ranges_.capacity()) ranges_.reserve(std::max(needed, 2 * ranges_.capacity()));
    push_prefixed(levels, std::string(text_.substr(prefix_b, literal_end - prefix_b)), suffix, top, expr);
    return Status::ok;
  }

  /// The bracket groups of a prefix, rightmost first; returns where the literal text
  /// before the leftmost group ends.
  std::size_t find_levels(std::size_t prefix_b, std::size_t prefix_e, std::vector<Level>& levels) const {
    std::size_t end = prefix_e;
    for (;;) {
      const std::string_view region = text_.substr(prefix_b, end - prefix_b);
      const std::size_t open = region.rfind('[');
      if (open == std::string_view::npos) break;
      const std::size_t close = region.rfind(']');
      if (close == std::string_view::npos || close < open) break;
      Level l;
      l.open = prefix_b + open;
      l.close = prefix_b + close;
      l.literal_end = end;
      levels.push_back(std::move(l));
      end = prefix_b + open;
    }
    return end;
  }

  /// Parses each group's items and how many of them Slurm gets through before its prefix
  /// cap. `yields_nothing`: a deeper group failed, which Slurm logs and ignores.
  Status count_levels(std::vector<Level>& levels, bool& yields_nothing) {
    if (levels.empty()) return Status::ok;
    Level& outer = levels.front();
    if (parse_range_list(outer.open + 1, outer.close, outer.items) != Status::ok) return Status::invalid;
    if (Status s = check_prefix_items(outer); s != Status::ok) return s;
    bool first_level_over = false;
    for (const Item& it : outer.items) {
      outer.count += it.count();
      ++outer.used;
      if (outer.count > kMaxPrefixes) {
        first_level_over = true;
        break;
      }
    }
    // Deeper groups are parsed inside Slurm's recursion, whose failures it logs and ignores.
    for (std::size_t k = 1; k < levels.size(); ++k) {
      Level& l = levels[k];
      const Status s = parse_range_list(l.open + 1, l.close, l.items);
      if (s == Status::fatal) return Status::invalid;
      if (s == Status::invalid) {
        yields_nothing = true;
        break;
      }
      if (Status c = check_prefix_items(l); c != Status::ok) return c;
      count_deeper_level(l);
    }
    if (first_level_over) {
      error(span(outer.open, outer.close + 1),
            fmt::format("more than {} prefixes from `{}'", kMaxPrefixes,
                        text_.substr(outer.open, outer.close + 1 - outer.open)),
            false);
      return Status::invalid;
    }
    return Status::ok;
  }

  void count_deeper_level(Level& l) {
    for (const Item& it : l.items) {
      if (l.count + it.count() > kMaxPrefixes) {
        warning(span(l.open, l.close + 1), fmt::format("Slurm silently stops `{}' after {} prefixes",
                                                       text_.substr(l.open, l.close + 1 - l.open), l.count));
        break;
      }
      l.count += it.count();
      ++l.used;
    }
  }

  /// Pushes the top ranges under every prefix the groups spell, leftmost group fastest.
  void push_prefixed(const std::vector<Level>& levels, const std::string& leftmost, std::string_view suffix,
                     const std::vector<Item>& top, Span expr) {
    std::vector<std::uint64_t> chosen(levels.size());
    std::vector<int> chosen_width(levels.size());
    std::string prefix;
    const std::string suffix_text(suffix);
    std::function<void(std::size_t)> expand = [&](std::size_t k) {
      if (k == levels.size()) {
        prefix = leftmost;
        for (std::size_t i = levels.size(); i-- > 0;) {
          const Level& l = levels[i];
          append_padded(prefix, chosen[i], chosen_width[i]);
          prefix.append(text_.substr(l.close + 1, l.literal_end - l.close - 1));
        }
        for (const Item& it : top) {
          HostRange r;
          r.prefix = prefix;
          r.suffix = suffix_text;
          r.lo = it.lo;
          r.hi = it.hi;
          r.width = it.width;
          r.numeric = true;
          r.item = span(it.begin, it.end);
          r.expr = expr;
          ranges_.push_back(std::move(r));
        }
        return;
      }
      const Level& l = levels[k];
      for (std::size_t i = 0; i < l.used; ++i) {
        const Item& it = l.items[i];
        chosen_width[k] = it.width;
        for (std::uint64_t v = it.lo;; ++v) {
          chosen[k] = v;
          expand(k + 1);
          if (v == it.hi) break;
        }
      }
    };
    expand(0);
  }

  /// Slurm's prefix loop counts up to hi inclusive and never ends when hi is the largest
  /// unsigned long.
  Status check_prefix_items(const Level& l) {
    for (const Item& it : l.items)
      if (it.hi == kULongMax) {
        error(span(it.begin, it.end),
              fmt::format("prefix range `{}' reaches {}; Slurm loops forever on it",
                          text_.substr(it.begin, it.end - it.begin), kULongMax),
              false);
        return Status::invalid;
      }
    return Status::ok;
  }

  std::string_view text_;
  /// The last answer of find_bracket for each bracket, found searching from `from`.
  struct Found {
    bool valid = false;
    std::size_t from = 0, at = 0;
  };
  mutable Found open_, close_;
  Span where_;
  bool exact_;
  bool newline_separates_;
  bool missing_bracket_literal_;
  bool suffix_allowed_;
  std::vector<HostRange> ranges_;
  std::uint64_t total_ranges_ = 0;
  std::uint64_t total_hosts_ = 0;
  HostlistResult result_;
};

}  // namespace

int natural_compare_names(std::string_view a, std::string_view b) noexcept { return natural_compare(a, b); }

bool is_single_host(std::string_view text) noexcept {
  if (!one_plain_name(text)) return false;
  std::size_t digits = 0;
  while (digits < text.size() && c_isdigit(text[text.size() - 1 - digits])) ++digits;
  return digits <= 19;  // below 10^19 < 2^64: the number reads and prints back unchanged
}

HostlistResult parse_hostlist(std::string_view text, Span where, const VersionProfile& profile) {
  // Performance: a file written node by node has a hostlist of one plain name on every line
  // (`NodeName=r0001n001`); the tokenizer, the bracket searches and the parser's own result
  // were most of the cost of reading one. The answer is the same hostrange the Parser pushes.
  if (one_plain_name(text)) {
    HostlistResult result;
    std::vector<HostRange> ranges;
    ranges.push_back(host_range(text, where));
    result.list = Hostlist(std::move(ranges));
    return result;
  }
  return Parser(text, where, profile).run();
}

}  // namespace greslint
