// SPDX-License-Identifier: Apache-2.0
// GRES value grammars, following gres.c (_get_gres_cnt, suffix_mult, bit_unfmt, links).
#include "gres_parse.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>

#include "util.hpp"

namespace greslint {

std::uint64_t GresCount::typed_sum() const {
  std::uint64_t sum = 0;
  for (const Typed& t : types) sum += t.count;
  return sum;
}

std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::optional<std::uint64_t> suffix_multiplier(std::string_view s) {
  static const std::pair<std::string_view, std::uint64_t> table[] = {
      {"", 1},
      {"k", 1ull << 10}, {"kib", 1ull << 10}, {"kb", 1000ull},
      {"m", 1ull << 20}, {"mib", 1ull << 20}, {"mb", 1000000ull},
      {"g", 1ull << 30}, {"gib", 1ull << 30}, {"gb", 1000000000ull},
      {"t", 1ull << 40}, {"tib", 1ull << 40}, {"tb", 1000000000000ull},
      {"p", 1ull << 50}, {"pib", 1ull << 50}, {"pb", 1000000000000000ull}};
  for (const auto& [suffix, mult] : table)
    if (iequals(s, suffix)) return mult;
  return std::nullopt;
}

namespace {
// strtoll on a bounded copy; returns the value and how many characters it read.
std::pair<long long, std::size_t> read_ll(std::string_view s) {
  std::string copy(s);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(copy.c_str(), &end, 10);
  return {v, std::size_t(end - copy.c_str())};
}
}  // namespace

std::optional<std::uint64_t> parse_gres_count(std::string_view text) {
  auto [value, used] = read_ll(text);
  auto mult = suffix_multiplier(text.substr(used));
  // strtoll reads no digits from a bare suffix ("M"): Slurm then multiplies 0, a valid count.
  if (!mult || (used == 0 && text.empty())) return std::nullopt;
  // Slurm stores the signed result in a uint64_t: -1 becomes 2^64-1 (then rejected by C16).
  return std::uint64_t(value) * *mult;
}

GresCount count_gres(std::string_view gres, std::string_view name) {
  GresCount result;
  if (gres.empty()) return result;
  auto add_type = [&](std::string_view type, std::uint64_t count) {
    for (auto& t : result.types)
      if (t.type == type) {
        t.count += count;
        return;
      }
    result.types.push_back({std::string(type), count});
  };
  for (std::string_view token : split_commas(gres)) {
    if (token == name) {
      result.present = true;
      if (result.total != 0 || !result.types.empty()) result.bare_name_reset = true;
      result.total = 1;
      break;
    }
    if (token.size() <= name.size() || token.substr(0, name.size()) != name || token[name.size()] != ':')
      continue;
    result.present = true;
    std::string_view body = token;
    if (auto paren = body.rfind('('); paren != std::string_view::npos) body = body.substr(0, paren);
    std::string_view rest = body.substr(name.size() + 1);
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (start <= rest.size()) {
      std::size_t colon = rest.find(':', start);
      fields.push_back(rest.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
      if (colon == std::string_view::npos) break;
      start = colon + 1;
    }
    std::uint64_t count = 1;
    if (!fields.empty() && !fields.back().empty() && is_digit(fields.back().front())) {
      auto [value, used] = read_ll(fields.back());
      auto mult = suffix_multiplier(fields.back().substr(used));
      if (!mult) {
        result.bad_token = std::string(token);
        break;
      }
      count = std::uint64_t(value) * *mult;
      fields.pop_back();
    }
    for (std::string_view f : fields) {
      if (f.empty()) continue;
      if (iequals(f, "no_consume")) {
        result.no_consume = true;
        continue;
      }
      add_type(f, count);
    }
    result.total += count;
  }
  return result;
}

std::optional<std::vector<std::uint32_t>> parse_core_list(std::string_view text, std::uint32_t nbits) {
  // Keep only what bit_unfmt reads; with a ':' the step form a-b:s is accepted.
  std::string clean;
  for (char c : text)
    if (is_digit(c) || c == '-' || c == ',' || c == ':') clean.push_back(c);
  // First the items and how many indexes they name: a node can claim 65535 x 65535 cores, and
  // Cores=0-4294836224 must not become a 16 GB vector.
  struct Item {
    std::uint64_t lo, hi, step;
  };
  std::vector<Item> items;
  std::uint64_t total = 0;
  for (std::string_view item : split_commas(clean)) {
    if (item.empty()) continue;
    std::uint64_t step = 1;
    if (auto colon = item.find(':'); colon != std::string_view::npos) {
      auto [s, used] = read_ll(item.substr(colon + 1));
      if (used == 0 || s <= 0) return std::nullopt;
      step = std::uint64_t(s);
      item = item.substr(0, colon);
    }
    auto dash = item.find('-');
    auto [lo, lo_used] = read_ll(item.substr(0, dash));
    if (lo_used == 0 || lo < 0) return std::nullopt;
    long long hi = lo;
    if (dash != std::string_view::npos) {
      auto [h, hi_used] = read_ll(item.substr(dash + 1));
      if (hi_used == 0 || h < 0) return std::nullopt;
      hi = h;
    }
    if (std::uint64_t(hi) >= nbits && hi >= lo) return std::nullopt;
    if (hi < lo) continue;  // names nothing (bit_unfmt's loop does not run)
    items.push_back(Item{std::uint64_t(lo), std::uint64_t(hi), step});
    total += (std::uint64_t(hi) - std::uint64_t(lo)) / step + 1;
  }
  std::vector<std::uint32_t> out;
  if (total > kMaxCoreIndexes) return out;  // valid, but too many to list (see the header)
  out.reserve(std::size_t(total));
  // i <= hi < nbits <= 2^32, so i + step cannot overflow (a signed i += step did, for a step
  // near LLONG_MAX).
  for (const Item& it : items)
    for (std::uint64_t i = it.lo; i <= it.hi; i += it.step) out.push_back(std::uint32_t(i));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string validate_links(std::string_view links) {
  if (links.empty()) return "gres_links_validate: Links is an empty string";
  int self = 0;
  for (std::string_view tok : split_commas(links)) {
    auto [v, used] = read_ll(tok);
    if (used == 0 || used != tok.size() || v < -2 || v > 1023)
      return fmt::format("gres_links_validate: Failed to parse token '{}' in links string '{}'", tok, links);
    if (v == -1 && ++self > 1)
      return fmt::format("gres_links_validate: links string '{}' has more than one -1", links);
  }
  if (self == 0) return fmt::format("gres_links_validate: -1 wasn't found in links string '{}'", links);
  return {};
}

std::string format_index_list(const std::vector<std::uint32_t>& idx) {
  std::string out;
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j + 1 < idx.size() && idx[j + 1] == idx[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", idx[i]) : fmt::format("{}-{}", idx[i], idx[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace greslint
