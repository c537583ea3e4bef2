// SPDX-License-Identifier: Apache-2.0
// A parsed line (Directive): its head kept as offsets, its pairs made when first asked for,
// and the moves a reader makes of it (file ids, copied text).
#include <algorithm>
#include <array>
#include <new>
#include <stdexcept>

#include "config/logical_line.hpp"
#include "greslint/config.hpp"
#include "greslint/keys.hpp"
#include "two_parts.hpp"
#include "util.hpp"

namespace greslint {

// A per-GPU gres.conf holds 800,000 directives at 100,000 nodes: each byte here is 0.8 MB.
static_assert(sizeof(Directive) <= 48, "a Directive grew past 48 bytes");
// TailOrExtras tells the extras from the tail by its pointer's lowest bit.
static_assert(alignof(LineExtras) >= 2 && alignof(RepeatedTail) >= 2, "pointers with a bit to spare");

void TailOrExtras::release() noexcept {
  if (LineExtras* extras = this->extras()) {
    extras->~LineExtras();
    line_memory::deallocate(extras);
  }
  word_ = nullptr;
}

LineExtras& TailOrExtras::make_extras() {
  if (LineExtras* extras = this->extras()) return *extras;
  auto* extras = new (line_memory::allocate(sizeof(LineExtras))) LineExtras();
  extras->tail = static_cast<const RepeatedTail*>(word_);
  word_ = reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(extras) | 1u);
  return *extras;
}

void Directive::throw_unkept_head() {
  throw std::logic_error("a head whose key is no row of the key tables, or an operator Slurm has not");
}

namespace {
const KeyValues kNoPairs;
}

void Directive::set_wide_head(const KeyValue& head, std::ptrdiff_t offset) {
  // The reader's pairs view one line's text: never apart, never 4 GiB long.
  if (offset < 0 || offset > std::ptrdiff_t(UINT32_MAX) || head.key.size() > UINT32_MAX ||
      head.value.size() > UINT32_MAX)
    throw std::logic_error("a head whose key and value are not one line's text");
  extras().wide = std::make_unique<LineExtras::WideHead>(
      LineExtras::WideHead{std::uint32_t(head.key.size()), std::uint32_t(offset), std::uint32_t(head.value.size()),
                           head.key_span.end, head.value_span.begin, head.value_span.end});
}

LineExtras& Directive::extras() const { return more_.make_extras(); }

bool Directive::tail_pending() const {
  const RepeatedTail* tail = repeated_tail();
  return tail && !tail->pairs.empty() && !tail_merged_;
}

namespace {

/// The node_name table's row of `key`, one of Directive::kOwnAddressKeys: a single row in
/// every release, as the reader found it (Reader::own_address_spec). Looked up once each:
/// a search of the table per line asked was 3% of an inventory-written slurm.conf's run.
const KeySpec* own_address_row(std::string_view key) {
  static const std::array<const KeySpec*, 3> kRows = [] {
    std::array<const KeySpec*, 3> rows{};
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const KeyRange found = key_history(KeyTable::node_name, Directive::kOwnAddressKeys[k]);
      rows[k] = found.empty() ? nullptr : found.begin();
    }
    return rows;
  }();
  for (std::size_t k = 0; k < kRows.size(); ++k)
    if (iequals(key, Directive::kOwnAddressKeys[k])) return kRows[k];
  return nullptr;
}

}  // namespace

KeyValue Directive::own_pair_in_gap(std::size_t& at) const {
  const std::string_view gap = gap_text();
  if (at == 0 && quoted_ && !gap.empty() && gap.front() == '"') at = 1;  // the head's closing quote
  const std::optional<config_detail::KvMatch> m = config_detail::match_key_value(gap, at);
  KeyValue kv;
  if (!m) {  // not as keep_own_pairs_as_text was told: nothing more to find
    at = gap.size();
    return kv;
  }
  // The line is its file's own text (repeat()): the gap's offsets from the head's value are
  // the file's.
  const std::uint32_t base = value_end();
  kv.key = gap.substr(m->key_begin, m->key_end - m->key_begin);
  kv.value = gap.substr(m->value_begin, m->value_end - m->value_begin);
  kv.spec = own_address_row(kv.key);
  kv.key_span = Span{span.file, base + std::uint32_t(m->key_begin), base + std::uint32_t(m->key_end)};
  kv.value_span = Span{span.file, base + std::uint32_t(m->value_begin), base + std::uint32_t(m->value_end)};
  at = m->end;
  return kv;
}

void Directive::make_own_pairs() const {
  if (own_pending_ == 0) return;
  LineExtras& e = extras();
  KeyValues pairs;
  pairs.reserve(own_pending_ + e.pairs.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < own_pending_; ++i) pairs.push_back(own_pair_in_gap(at));
  pairs.insert(pairs.end(), e.pairs.begin(), e.pairs.end());
  e.pairs.swap(pairs);
  for (const KeyValue& kv : e.pairs)
    if (kv.spec) e.key_mask |= key_bit(kv.spec->name);
  own_pending_ = 0;
  own_pending_keys_ = 0;
}

std::size_t Directive::pairs_before_tail() const {
  if (own_pending_ != 0) return own_pending_;
  const LineExtras* extras = more_.extras();
  if (!extras) return 0;
  const KeyValues& own = extras->pairs;
  if (!extras->tail) return own.size();
  const std::uint32_t begin = tail_begin();
  return std::size_t(std::count_if(own.begin(), own.end(), [&](const KeyValue& kv) { return kv.key_span.begin < begin; }));
}

std::size_t Directive::pairs_after_tail() const {
  const LineExtras* extras = more_.extras();
  if (!extras || !extras->tail) return 0;
  const KeyValues& own = extras->pairs;
  // The tail's own pairs, once made, start before its end.
  const std::uint64_t end = std::uint64_t(tail_begin()) + extras->tail->text.size();
  return std::size_t(std::count_if(own.begin(), own.end(), [&](const KeyValue& kv) { return kv.key_span.begin >= end; }));
}

KeyValue Directive::tail_pair(const RepeatedTail::Pair& p) const {
  const std::uint32_t begin = tail_begin();
  const char* text = tail_text();
  KeyValue kv;
  kv.spec = p.spec;
  kv.key = std::string_view(text + p.key_begin, p.key_end - p.key_begin);
  kv.value = std::string_view(text + p.value_begin, p.value_end - p.value_begin);
  kv.key_span = Span{span.file, begin + p.key_begin, begin + p.key_end};
  kv.value_span = Span{span.file, begin + p.value_begin, begin + p.value_end};
  kv.op = p.op;
  kv.quoted = p.quoted;
  return kv;
}

const KeyValues& Directive::rest() const {
  make_own_pairs();
  if (tail_pending()) {
    // Made anew and swapped in: no pointer into the line's own pairs was handed out before
    // (find() and rest() make the pairs first; value_of() copies). In the order written: the
    // line's own pairs before the tail, the tail's, the line's own after it.
    KeyValues& own = own_rest();
    const std::uint32_t begin = tail_begin();
    const auto after = std::find_if(own.begin(), own.end(), [&](const KeyValue& kv) { return kv.key_span.begin >= begin; });
    const RepeatedTail& tail = *repeated_tail();
    KeyValues pairs;
    pairs.reserve(own.size() + tail.pairs.size());
    pairs.insert(pairs.end(), own.begin(), after);
    for (const RepeatedTail::Pair& p : tail.pairs) pairs.push_back(tail_pair(p));
    pairs.insert(pairs.end(), after, own.end());
    own.swap(pairs);
    tail_merged_ = true;
  }
  const LineExtras* extras = more_.extras();
  return extras ? extras->pairs : kNoPairs;
}

std::optional<KeyValue> Directive::value_of(std::string_view key) const {
  if (!(key_mask() & key_bit(key))) return std::nullopt;
  auto named = [&](const KeySpec* spec) { return spec && iequals(spec->name, key); };
  if (!tail_pending()) {
    const KeyValue* kv = find(key);
    return kv ? std::optional<KeyValue>(*kv) : std::nullopt;
  }
  // The last of a key: among the line's own pairs after the tail, the tail's, then the line's
  // own before it.
  const LineExtras* extras = more_.extras();
  const KeyValues& own = extras ? extras->pairs : kNoPairs;
  const RepeatedTail& tail = *repeated_tail();
  auto it = own.rbegin();
  for (; it != own.rend() && it->key_span.begin >= tail_begin(); ++it)
    if (named(it->spec)) return *it;
  for (auto t = tail.pairs.rbegin(); t != tail.pairs.rend(); ++t)
    if (named(t->spec)) return tail_pair(*t);
  for (; it != own.rend(); ++it)
    if (named(it->spec)) return *it;
  // The line's own pairs still as text (keep_own_pairs_as_text) come before everything else.
  std::optional<KeyValue> last;
  std::size_t at = 0;
  for (std::size_t i = 0; i < own_pending_; ++i)
    if (KeyValue kv = own_pair_in_gap(at); named(kv.spec)) last = kv;
  return last;
}

void Directive::rehome_head(const char* from, std::size_t size, const char* to) {
  auto inside = [&](const char* p, std::size_t n) { return p >= from && p + n <= from + size; };
  auto rehome = [&](std::string_view& v) {
    if (inside(v.data(), v.size())) v = std::string_view(to + (v.data() - from), v.size());
  };
  // The value is found from the key: both move, or neither.
  if (inside(key_, key_size()) && inside(key_ + value_offset(), value_size())) key_ = to + (key_ - from);
  if (LineExtras* extras = more_.extras())
    for (KeyValue& kv : extras->pairs) {
      rehome(kv.key);
      rehome(kv.value);
    }
}

void Directive::shift_file(std::uint16_t by) {
  // The head's spans are in span.file.
  greslint::shift_file(span, by);
  if (LineExtras* extras = more_.extras())
    for (KeyValue& kv : extras->pairs) {
      greslint::shift_file(kv.key_span, by);
      greslint::shift_file(kv.value_span, by);
    }
}

void ConfigFile::shift_files(std::uint16_t by, CoreBudget* cores) {
  // Below this many directives a second thread costs about what it saves.
  constexpr std::size_t kDirectivesForTwoParts = 4096;
  shift_files_but_directives(by);
  in_two_parts(cores, directives.size(), kDirectivesForTwoParts, [this, by](std::size_t begin, std::size_t end, int) {
    auto d = directives.iterator_at(begin);
    for (std::size_t i = begin; i < end; ++i, ++d) d->shift_file(by);
  });
}

void ConfigFile::shift_files_but_directives(std::uint16_t by) {
  greslint::shift_file(file, by);
  for (FileId& f : files) greslint::shift_file(f, by);
  for (Directive& d : recovered) d.shift_file(by);
  for (Comment& c : comments) greslint::shift_file(c.span, by);
}

void Directive::seal_keys() {
  // A repeating line's own pairs, if any, are in the extras beside the tail's keys (key_mask()).
  LineExtras* extras = more_.extras();
  if (!extras) return;
  extras->key_mask = 0;
  for (const KeyValue& kv : extras->pairs)
    if (kv.spec) extras->key_mask |= key_bit(kv.spec->name);
}

const KeyValue* Directive::find(std::string_view key) const {
  if (!(key_mask() & key_bit(key))) return nullptr;
  // A key a repeating line does not have is answered from the shared tail (and the line's
  // own pairs), without making the line's pairs: most lookups of the model are of keys a line
  // lacks.
  if (tail_pending() && !value_of(key)) return nullptr;
  const KeyValues& pairs = rest();
  // The model asks by the canonical spelling, which is the spec's own: a byte comparison
  // settles most pairs before the case-blind one (a per-node slurm.conf asks each of its
  // 100,000 lines for ten keys).
  for (auto it = pairs.rbegin(); it != pairs.rend(); ++it)
    if (it->spec && it->spec->name.size() == key.size() &&
        (it->spec->name == key || iequals(it->spec->name, key)))
      return &*it;
  return nullptr;
}

}  // namespace greslint
