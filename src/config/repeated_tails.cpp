// SPDX-License-Identifier: Apache-2.0
// Record text an earlier line already said: a line whose pairs after its head (or after or
// before a node's own address) repeat another's takes that line's parse (RepeatedTail)
// instead of parsing them again. The tails seen once, remembered to know the second time.
#include <algorithm>

#include "config/reader.hpp"

namespace greslint::config_detail {

/// The pairs after a record's first key (NodeName=..., Name=...), into `d`: parsed, or, when
/// an earlier line of this table said the same after its first key, taken from that line.
void Reader::read_record(FileId file, const LogicalLine& l, KeyTable table, std::size_t ptr, Directive& d,
                         ConfigFile& result) {
  // Only a line that is its file's own text (no escapes, no continuation) can repeat or be
  // repeated: its views and spans are then the same offsets.
  const bool plain = !l.is_cooked();
  const std::string_view tail = l.text.substr(ptr);
  const bool may_repeat = plain && !tail.empty();
  if (may_repeat) {
    const RepeatedTail* followed = followed_tail(table, tail);
    if (followed && d.repeat(followed, l.offsets[ptr])) return;
  }
  const TailKey key = may_repeat ? TailKey(table, tail) : TailKey();
  if (may_repeat) {
    const RepeatedTail* repeated = find_tail(key);
    // A tail too far from the head for the directive to place it is parsed as it is.
    if (repeated && d.repeat(repeated, l.offsets[ptr])) return;
  }
  // A node's own addresses, right after its name (NodeName=n1 NodeAddr=10.0.0.1 ...) or
  // ending the line (... Gres=gpu:8 NodeAddr=10.0.0.1, as some templates write it): the text
  // beside them may repeat an earlier line. Performance: a slurm.conf written from an
  // inventory gives every node its own NodeAddr=, so no line repeated another after the
  // name, and each was parsed whole, six pairs of 72 bytes a node; with the addresses last,
  // 0.11-0.13 s and 138-146 MB at 100,000 nodes against 0.08 s and 87-92 MB.
  OwnPairs own = may_repeat && table == KeyTable::node_name ? own_prefix(table, l.text, ptr) : OwnPairs{};
  if (may_repeat && own.end == 0 && table == KeyTable::node_name) own = own_suffix(table, l.text, ptr);
  const bool own_first = own.begin < own.shared_begin;
  const TailKey shared_key =
      own.end != 0 ? TailKey(table, l.text.substr(own.shared_begin, own.shared_end - own.shared_begin)) : TailKey();
  if (own.end != 0) {
    const RepeatedTail* repeated = find_tail(shared_key);
    if (repeated && !names_any(*repeated, own)) {
      // own_prefix and own_suffix made sure these pairs parse without a finding. Before the
      // tail they are the text between the head and it, kept as such until asked for.
      if (own_first) {
        if (d.repeat(repeated, l.offsets[own.shared_begin])) {
          d.keep_own_pairs_as_text(own.count, own_keys(own));
          return;
        }
      } else {
        parse_record(file, l, table, own.begin, d, result, own.end);
        if (d.repeat(repeated, l.offsets[own.shared_begin])) return;
        d.own_rest().clear();
      }
    }
  }
  const bool clean = parse_record(file, l, table, ptr, d, result);
  if (!may_repeat || !clean) return;
  // The whole text after the head holds the node's own address: no other node's line says
  // it, and noting it as seen would push out the texts beside the address, which others do
  // say (a slurm.conf of 40,000 node lines with 4,000 Weight= values in turn parsed 31,040
  // of them whole).
  if (own.end == 0 && repeated_tails_.size() < kMaxRepeatedTails && seen_before(key))
    remember_tail(key, relative_tail(d, tail, l.offsets[ptr], 0));
  if (own.end != 0 && repeated_tails_.size() < kMaxRepeatedTails && seen_before(shared_key))
    remember_tail(shared_key, relative_tail(d, shared_key.text, l.offsets[own.shared_begin], own_first ? own.count : 0,
                                            own_first ? 0 : own.count));
}

const RepeatedTail* Reader::followed_tail(KeyTable table, std::string_view text) {
  RecentTail* next = last_taken_ ? last_taken_->next : nullptr;
  if (!next || !next->tail || next->key.table != table || next->key.text != text) return nullptr;
  last_taken_ = next;
  return next->tail;
}

const RepeatedTail* Reader::find_tail(const TailKey& key) {
  RecentTail& recent = recent_tails_[(key.hash >> 8) % recent_tails_.size()];
  RecentTail* const before = last_taken_;
  last_taken_ = nullptr;
  if (!recent.tail || !(recent.key == key)) {
    if (!may_hold_tail(key)) return nullptr;
    const auto it = repeated_tails_.find(key);
    if (it == repeated_tails_.end()) return nullptr;
    recent = RecentTail{it->first, it->second};  // its key views the tail's own copy
  }
  if (before) before->next = &recent;
  last_taken_ = &recent;
  return recent.tail;
}

void Reader::remember_tail(TailKey key, std::shared_ptr<RepeatedTail> tail) {
  const RepeatedTail* kept = tail.get();
  keep(std::move(tail));
  // The key views the tail's copy: every later line is compared with it, and the file's own
  // page it was read from may be gone (release_read).
  key.text = kept->text;
  repeated_tails_.emplace(key, kept);
  if (tail_filter_.empty()) tail_filter_.assign(kTailFilterWords, 0);
  const std::size_t bit = tail_filter_bit(key);
  tail_filter_[bit / 64] |= std::uint64_t{1} << (bit % 64);
}

const KeySpec* Reader::own_address_spec(KeyTable table, std::string_view text, const KvMatch& m) {
  if (m.op != 0 || m.quoted || m.gap_before_value) return nullptr;
  const KeySpec* spec = key_spec(table, text.substr(m.key_begin, m.key_end - m.key_begin));
  if (!spec || spec->type != ValueType::string ||
      !(iequals(spec->name, "NodeAddr") || iequals(spec->name, "NodeHostname") || iequals(spec->name, "BcastAddr")))
    return nullptr;
  return spec;
}

Reader::OwnPairs Reader::own_prefix(KeyTable table, std::string_view text, std::size_t ptr) {
  OwnPairs own;
  own.begin = ptr;
  while (own.count < own.specs.size()) {
    const auto m = match_key_value(text, ptr);
    if (!m) break;
    const KeySpec* spec = own_address_spec(table, text, *m);
    // Each once.
    if (!spec || std::find(own.specs.begin(), own.specs.begin() + own.count, spec) != own.specs.begin() + own.count)
      break;
    own.specs[own.count++] = spec;
    ptr = m->end;
  }
  // Something must follow for an earlier line to have said it.
  if (own.count == 0 || only_space(text.substr(ptr))) return OwnPairs{};
  own.end = ptr;
  own.shared_begin = ptr;
  own.shared_end = text.size();
  return own;
}

Reader::OwnPairs Reader::own_suffix(KeyTable table, std::string_view text, std::size_t ptr) {
  OwnPairs own;
  bool before_any = false;  // a pair other than the node's own precedes the run
  std::size_t at = ptr;
  while (const auto m = match_key_value(text, at)) {
    at = m->end;
    // The key's text tells most pairs apart without looking up their spec.
    const std::string_view key = text.substr(m->key_begin, m->key_end - m->key_begin);
    const bool may_be = iequals(key, "NodeAddr") || iequals(key, "NodeHostname") || iequals(key, "BcastAddr");
    const KeySpec* spec = may_be ? own_address_spec(table, text, *m) : nullptr;
    if (!spec) {  // the run so far does not end the line
      own = OwnPairs{};
      before_any = true;
      continue;
    }
    if (std::find(own.specs.begin(), own.specs.begin() + own.count, spec) != own.specs.begin() + own.count)
      return OwnPairs{};  // said twice: parsed whole, and reported
    if (own.count == 0) own.begin = m->key_begin;
    own.specs[own.count++] = spec;
  }
  // The whole line, run to its end, with a pair before them.
  if (own.count == 0 || !before_any || !only_space(text.substr(at))) return OwnPairs{};
  own.end = text.size();
  own.shared_begin = ptr;
  own.shared_end = own.begin;
  return own;
}

std::uint8_t Reader::own_keys(const OwnPairs& own) {
  std::uint8_t keys = 0;
  for (std::size_t i = 0; i < own.count; ++i)
    for (std::size_t k = 0; k < Directive::kOwnAddressKeys.size(); ++k)
      if (iequals(own.specs[i]->name, Directive::kOwnAddressKeys[k])) keys |= std::uint8_t(1u << k);
  return keys;
}

bool Reader::names_any(const RepeatedTail& tail, const OwnPairs& own) {
  return std::any_of(tail.pairs.begin(), tail.pairs.end(), [&](const RepeatedTail::Pair& p) {
    return p.spec && std::any_of(own.specs.begin(), own.specs.begin() + own.count,
                                 [&](const KeySpec* s) { return iequals(p.spec->name, s->name); });
  });
}

bool Reader::seen_before(const TailKey& key) {
  if (seen_tails_.empty()) seen_tails_.resize(kFirstSeenTailSets);
  ++seen_asked_;
  for (SeenTail& way : set_for(seen_tails_, key).ways)
    if (way.key == key) {
      way = SeenTail{};
      --seen_tails_held_;
      ++seen_found_;
      return true;
    }
  if (put_seen_tail(seen_tails_, key)) ++seen_tails_held_;
  const bool useful = seen_tails_.size() < kPlainSeenTailSets || seen_found_ * kSeenHitShare >= seen_asked_;
  if (seen_tails_held_ > seen_tails_.size() / 4 && seen_tails_.size() < kSeenTailSets && useful) grow_seen_tails();
  return false;
}

Reader::SeenTailSet& Reader::set_for(std::vector<SeenTailSet>& sets, const TailKey& key) {
  return sets[std::size_t(key.hash >> 7) & (sets.size() - 1)];
}

bool Reader::put_seen_tail(std::vector<SeenTailSet>& sets, const TailKey& key) {
  SeenTailSet& set = set_for(sets, key);
  SeenTail& way = set.ways[set.older];
  const bool was_empty = way.key.text.empty();
  way = SeenTail{key};
  set.older ^= 1;
  return was_empty;
}

void Reader::grow_seen_tails() {
  std::vector<SeenTailSet> grown(std::min(seen_tails_.size() * 4, kSeenTailSets));
  seen_tails_held_ = 0;
  for (const SeenTailSet& set : seen_tails_)
    for (std::size_t i = 0; i < set.ways.size(); ++i) {
      // The older way first, so that within a set of the grown table the newer stays longer.
      const SeenTail& way = set.ways[(set.older + i) % set.ways.size()];
      if (!way.key.text.empty() && put_seen_tail(grown, way.key)) ++seen_tails_held_;
    }
  seen_tails_ = std::move(grown);
}

void Reader::forget_seen_tails() {
  seen_tails_.clear();
  seen_tails_held_ = 0;
  seen_asked_ = seen_found_ = 0;
}

std::shared_ptr<RepeatedTail> Reader::relative_tail(const Directive& d, std::string_view text, std::uint32_t begin,
                                                   std::size_t skip, std::size_t drop) {
  auto tail = std::make_shared<RepeatedTail>();
  tail->text = std::string(text);
  const KeyValues& pairs = d.rest();
  tail->pairs.reserve(pairs.size() - skip - drop);
  for (auto it = pairs.begin() + std::ptrdiff_t(skip); it != pairs.end() - std::ptrdiff_t(drop); ++it) {
    const KeyValue& kv = *it;
    tail->pairs.push_back(RepeatedTail::Pair{kv.spec, kv.key_span.begin - begin, kv.key_span.end - begin,
                                             kv.value_span.begin - begin, kv.value_span.end - begin, kv.op, kv.quoted});
    if (kv.spec) tail->key_mask |= key_bit(kv.spec->name);
  }
  return tail;
}

}  // namespace greslint::config_detail
