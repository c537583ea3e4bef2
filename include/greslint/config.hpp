// SPDX-License-Identifier: Apache-2.0
// Syntax tree of Slurm's Key=Value files, read with Slurm's own lexical rules.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "greslint/core_budget.hpp"
#include "greslint/keys.hpp"
#include "greslint/line_allocator.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"
#include "greslint/version.hpp"

namespace greslint {

/// One Key=Value pair. Strings are "cooked" (escapes removed, quotes dropped); spans point
/// at the physical text. The strings are views owned by the SourceManager that read the file:
/// into the file's text itself, or, for the rare line with escapes or continuations, into
/// the cooked copy it keeps (SourceManager::keep). A per-node file holds millions of pairs,
/// and two owned strings each were most of its memory and a third of its reading time.
struct KeyValue {
  std::string_view key;    ///< as written
  std::string_view value;  ///< cooked value
  const KeySpec* spec = nullptr;  ///< the table entry it matched (never null in a parsed tree)
  Span key_span;
  Span value_span;
  char op = 0;  ///< '+', '-', '*', '/' for "Key+=..." forms, else 0
  bool quoted = false;
};

/// The sub-keys of a record line whose text after the first pair an earlier line of the same
/// kind already said, as that line parsed them, placed relative to where that text starts.
/// Files generated node by node repeat one line a hundred thousand times but for the name
/// (`NodeName=r0001n001 CPUs=64 ... Gres=gpu:a100:8`): the text is parsed once, and each
/// line that repeats it holds only its own first pair (see Directive).
struct RepeatedTail {
  struct Pair {
    const KeySpec* spec = nullptr;
    std::uint32_t key_begin = 0, key_end = 0;      ///< key text and key span, relative
    std::uint32_t value_begin = 0, value_end = 0;  ///< value text and value span, relative
    char op = 0;
    bool quoted = false;
  };
  std::vector<Pair> pairs;
  std::uint32_t key_mask = 0;  ///< key_bit of every pair's key, or-ed
  /// The text the pairs are placed in: a copy of the first line's, which every line that
  /// repeats the tail also says. The pairs view it rather than each line's own text, so a
  /// file's pages can go once read (see Directive::rehome_head).
  std::string text;
};

/// One of 32 bits for a key name, from its length and its first and last letters, the same
/// in any case. Directive::find looks among a record's pairs only when the bit of the key
/// asked for is among theirs. Performance: most of the model's lookups are of keys a line
/// lacks, and a line written node by node with its own NodeAddr= was searched pair by pair
/// some fifteen times (a tenth of linting such a file).
constexpr std::uint32_t key_bit(std::string_view key) noexcept {
  if (key.empty()) return 1;
  // | 0x20 lower-cases ASCII letters, so names iequals finds equal get the same bit.
  const auto first = std::uint32_t(static_cast<unsigned char>(key.front()) | 0x20);
  const auto last = std::uint32_t(static_cast<unsigned char>(key.back()) | 0x20);
  // These weights leave 2 of slurm.conf's 23 usual NodeName keys sharing a bit, none of
  // gres.conf's 10 record keys.
  return std::uint32_t(1) << ((std::uint32_t(key.size()) + first + last * 31) & 31);
}

/// A record's sub-keys, in order.
using KeyValues = std::vector<KeyValue, LineAllocator<KeyValue>>;

/// What a directive keeps outside itself, allocated with the line's memory (line_memory)
/// when a line first has some, so that the many lines that never do (a repeating line whose
/// pairs nothing asks for) hold a null pointer: its pairs once made, which keys they hold,
/// and a head whose text and spans the directive's own few bytes cannot say (WideHead).
struct LineExtras {
  /// A head written as no per-node line is: its key or value split by a continuation or an
  /// escape (its spans then differ from its text), a key past 255 bytes, a value past 65,535.
  struct WideHead {
    std::uint32_t key_size = 0, value_offset = 0, value_size = 0;
    std::uint32_t key_end = 0, value_begin = 0, value_end = 0;
  };
  KeyValues pairs;
  std::uint32_t key_mask = 0;  ///< key_bit of every pair in `pairs`, or-ed (seal_keys)
  std::unique_ptr<WideHead> wide;
  /// The directive's repeated tail, which the directive's one pointer names until the line
  /// has extras (TailOrExtras).
  const RepeatedTail* tail = nullptr;
};

/// A directive's one pointer beyond itself: null; its repeated tail (owned by the
/// SourceManager of the file's text); or, with its lowest bit set, its LineExtras (owned
/// here, allocated with line_memory), whose `tail` then holds the tail. Moved, never copied.
class TailOrExtras {
 public:
  TailOrExtras() = default;
  TailOrExtras(TailOrExtras&& other) noexcept : word_(std::exchange(other.word_, nullptr)) {}
  TailOrExtras& operator=(TailOrExtras&& other) noexcept {
    if (this != &other) {
      release();
      word_ = std::exchange(other.word_, nullptr);
    }
    return *this;
  }
  TailOrExtras(const TailOrExtras&) = delete;
  TailOrExtras& operator=(const TailOrExtras&) = delete;
  ~TailOrExtras() { release(); }

  /// The extras, if there are any.
  LineExtras* extras() const noexcept {
    const auto word = reinterpret_cast<std::uintptr_t>(word_);
    return (word & 1u) ? reinterpret_cast<LineExtras*>(word - 1u) : nullptr;
  }
  const RepeatedTail* tail() const noexcept {
    const LineExtras* extras = this->extras();
    return extras ? extras->tail : static_cast<const RepeatedTail*>(word_);
  }
  void set_tail(const RepeatedTail* tail) noexcept {
    if (LineExtras* extras = this->extras()) extras->tail = tail;
    else word_ = tail;
  }
  /// The extras, made (the tail moved into them) when there are none yet.
  LineExtras& make_extras();

 private:
  void release() noexcept;
  const void* word_ = nullptr;
};

/// One logical line that parsed: a top-level setting, or a record (NodeName=..., Name=...).
/// 48 bytes: a gres.conf written one line per GPU holds 800,000 of them at 100,000 nodes. The
/// head is kept as offsets and made on demand (head()); a KeyValue of its own was 72 bytes
/// of the 128 a directive took, 58 MB of such a file's 161 MB. Its spans are found from its
/// text's offsets (a line read as written has them the same), its rarer keys' bits are in
/// LineExtras: 88 -> 64 bytes, 19 MB less on that file, each MB of fresh memory ~0.4 ms here.
/// 64 -> 48: the head's KeySpec as a 16-bit id, its operator in three bits, and one pointer
/// for the repeated tail and the extras (13 MB less on that file).
class Directive {
 public:
  Directive()
      : quoted_(false), owns_line_(false), wide_(false), op_code_(0), tail_merged_(0), own_pending_(0),
        own_pending_keys_(0) {}

  enum class Kind : std::uint8_t { setting, record };
  Kind kind = Kind::setting;
  bool complete = true;  ///< false when Slurm rejected part of the line

 private:
  /// Bytes from the head's value to the repeated tail (declared here, where the padding
  /// after `complete` holds it).
  std::uint16_t tail_gap_ = 0;

 public:
  std::uint32_t line = 0;  ///< first physical line, 1-based
  Span span;               ///< the whole logical line (first physical line to last)

  /// setting: its one pair. record: the record key (NodeName=, Name=, PartitionName=...).
  /// Made anew at each call (a copy): keep the directive, not a pointer to its head.
  KeyValue head() const {
    KeyValue kv;
    kv.key = std::string_view(key_, key_size());
    kv.value = head_value();
    kv.spec = head_spec();
    kv.key_span = Span{span.file, key_begin_, key_end()};
    kv.value_span = head_value_span();
    kv.op = kOps[op_code_];
    kv.quoted = quoted_;
    return kv;
  }
  /// The head's value and its span, without making the whole head.
  std::string_view head_value() const { return std::string_view(key_ + value_offset(), value_size()); }
  Span head_value_span() const { return Span{span.file, value_begin(), value_end()}; }
  const KeySpec* head_spec() const { return key_spec_of(spec_id_); }
  /// A record's sub-keys after the head, in order (a setting has none).
  const KeyValues& rest() const;
  /// Last occurrence of `key` among the record's sub-keys (Slurm: last value wins).
  const KeyValue* find(std::string_view key) const;
  /// The same pair, copied: a line that repeats a tail after pairs of its own (a node's
  /// NodeAddr=) answers without making its pairs, which find() and rest() do.
  std::optional<KeyValue> value_of(std::string_view key) const;
  /// The text after the head (and after pairs_before_tail() pairs of the line's own, and before
  /// pairs_after_tail() more) that this line repeats from an earlier line, or null. Lines with
  /// the same non-null tail have equal sub-keys but for their own, apart from where they are
  /// written.
  const RepeatedTail* repeated_tail() const { return more_.tail(); }
  /// How many of the sub-keys the line says before its repeated tail (all of them without one).
  std::size_t pairs_before_tail() const;
  /// How many of the sub-keys the line says after its repeated tail (none without one): a
  /// node's own NodeAddr= written at the end of its line.
  std::size_t pairs_after_tail() const;
  /// Where a repeating line's tail starts: its text (the tail's own copy), and its offset in
  /// the file. For a line without one, the text right after its head's value.
  const char* tail_text() const {
    const RepeatedTail* tail = repeated_tail();
    return tail ? tail->text.data() : key_ + value_offset() + (tail_begin() - value_begin());
  }
  std::uint32_t tail_begin() const { return value_end() + tail_gap_; }
  /// A repeating line's text between its head's value and its tail (blanks, a closing quote),
  /// as written.
  std::string_view gap_text() const {
    return std::string_view(key_ + value_offset() + value_size(), tail_begin() - value_end());
  }
  /// Whether the line's views are all in a copy of its own text from the head on (own_line).
  bool owns_line() const { return owns_line_; }
  /// For a line that owns_line(): its text after the head's value, as written.
  std::string_view text_after_head() const {
    return std::string_view(key_ + value_offset() + value_size(), span.end - value_end());
  }

  // The reader's: how a directive is built.
  /// `head`'s key and value view one text, the value after the key (a line's, as the reader
  /// makes them), and its spans are in span.file.
  /// Inline: the reader makes `head` right before (make_pair), and a call through memory
  /// stalled on reading back, a word at a time, the spans it had just written in halves.
  /// `spec_id` is key_spec_id(head.spec), which the reader finds once per key.
  void set_head(const KeyValue& head, std::uint16_t spec_id) {
    const std::ptrdiff_t offset = head.value.data() - head.key.data();
    key_ = head.key.data();
    if (spec_id == kNoKeySpecId && head.spec) throw_unkept_head();
    spec_id_ = spec_id;
    key_begin_ = head.key_span.begin;
    op_code_ = op_code(head.op);
    quoted_ = head.quoted;
    // Read as written (nearly every line), the spans are the text's offsets from the key.
    const bool as_read = offset >= 0 && offset < UINT8_MAX && head.key.size() <= UINT8_MAX &&
                         head.value.size() <= UINT16_MAX && head.key_span.end == key_begin_ + head.key.size() &&
                         head.value_span.begin == key_begin_ + std::size_t(offset) &&
                         head.value_span.end == head.value_span.begin + head.value.size();
    wide_ = !as_read;
    if (!as_read) return set_wide_head(head, offset);
    key_size_ = std::uint8_t(head.key.size());
    value_offset_ = std::uint8_t(offset);
    value_size_ = std::uint16_t(head.value.size());
    if (LineExtras* extras = more_.extras()) extras->wide.reset();
  }
  KeyValues& own_rest() const { return extras().pairs; }
  /// The line's own `count` pairs before its tail, a node's own addresses (NodeAddr=,
  /// NodeHostname=, BcastAddr=; `keys` has bit k set for kOwnAddressKeys[k]), stay text in
  /// gap_text(): value_of() reads them there, rest() and find() make them. For a line that
  /// repeat()s a tail, whose own pairs the reader found to parse without a finding.
  /// Performance: made at once they were a LineExtras and a KeyValue per node of a slurm.conf
  /// written from an inventory, ~12 MB at 100,000 nodes, which nearly nothing reads.
  void keep_own_pairs_as_text(std::size_t count, std::uint8_t keys) {
    own_pending_ = std::uint8_t(count) & 3u;
    own_pending_keys_ = keys & 7u;
  }
  /// The keys keep_own_pairs_as_text takes, by their bit.
  static constexpr std::array<std::string_view, 3> kOwnAddressKeys{"NodeAddr", "NodeHostname", "BcastAddr"};
  /// The sub-keys but those in own_rest() (none, or a node's own NodeAddr=..., before the
  /// tail or after it) are `tail`'s, placed at file offset `begin` of file span.file,
  /// when `begin` is at most 65,535 bytes past the head's value; false (nothing changed)
  /// when it is not. `tail` must outlive the directive (SourceManager::keep_alive).
  /// Only for a line that is its file's own text (no escapes, no continuation): its views
  /// and spans then have the same offsets, which is how tail_text() is found.
  bool repeat(const RepeatedTail* tail, std::uint32_t begin) {
    const std::uint32_t from = value_end();
    if (begin < from || begin - from > UINT16_MAX) return false;
    more_.set_tail(tail);
    tail_gap_ = static_cast<std::uint16_t>(begin - from);
    return true;
  }
  /// Points the views of the head and of the line's own pairs that fall in the `size` bytes
  /// at `from` at the same bytes at `to` (a copy of them). A repeating line's text before its
  /// tail is copied (Reader::copy_head), so that the model, which reads every line's head,
  /// does not keep the file's pages resident once the reader has passed them.
  void rehome_head(const char* from, std::size_t size, const char* to);
  /// rehome_head for the `size` bytes at `from` that are the whole line from its head on (a
  /// line that is its file's own text), copied to `to`: owns_line() from then on.
  void own_line(const char* from, std::size_t size, const char* to) {
    rehome_head(from, size, to);
    owns_line_ = true;
  }
  /// Moves every span `by` file ids on (a file read before its id was known).
  void shift_file(std::uint16_t by);
  /// Records which keys the sub-keys hold (key_bit), for find(): called once they are all
  /// there (the reader, as it keeps the line).
  void seal_keys();

 private:
  /// Whether the tail's pairs are still to be made (the extras then hold the line's own pairs).
  bool tail_pending() const;
  /// The own pair of gap_text() that starts at or after `at` (keep_own_pairs_as_text), and
  /// `at` moved past it.
  KeyValue own_pair_in_gap(std::size_t& at) const;
  /// Makes the pairs keep_own_pairs_as_text left as text, first of the extras' pairs.
  void make_own_pairs() const;
  /// key_bit of the keys keep_own_pairs_as_text left as text.
  std::uint32_t own_pending_mask() const {
    std::uint32_t mask = 0;
    for (std::size_t k = 0; k < kOwnAddressKeys.size(); ++k)
      if ((own_pending_keys_ >> k) & 1u) mask |= key_bit(kOwnAddressKeys[k]);
    return mask;
  }
  KeyValue tail_pair(const RepeatedTail::Pair& p) const;
  /// set_head for a head whose spans are not its text's offsets (LineExtras::WideHead).
  void set_wide_head(const KeyValue& head, std::ptrdiff_t offset);
  LineExtras& extras() const;
  [[noreturn]] static void throw_unkept_head();
  /// key_bit of every sub-key, or-ed: the tail's and the line's own.
  std::uint32_t key_mask() const {
    const LineExtras* extras = more_.extras();
    const RepeatedTail* tail = more_.tail();
    return (tail ? tail->key_mask : 0) | (extras ? extras->key_mask : 0) | own_pending_mask();
  }
  // A head read as written (no wide_): its spans are its text's offsets from key_begin_.
  const LineExtras::WideHead& wide() const { return *more_.extras()->wide; }
  /// The operators a pair may have (KeyValue::op), by op_code_.
  static constexpr char kOps[] = {0, '+', '-', '*', '/'};
  static std::uint8_t op_code(char op) {
    switch (op) {
      case 0: return 0;
      case '+': return 1;
      case '-': return 2;
      case '*': return 3;
      case '/': return 4;
      default: throw_unkept_head();
    }
  }
  std::uint32_t key_size() const { return wide_ ? wide().key_size : key_size_; }
  std::uint32_t value_offset() const { return wide_ ? wide().value_offset : value_offset_; }
  std::uint32_t value_size() const { return wide_ ? wide().value_size : value_size_; }
  std::uint32_t key_end() const { return wide_ ? wide().key_end : key_begin_ + key_size_; }
  std::uint32_t value_begin() const { return wide_ ? wide().value_begin : key_begin_ + value_offset_; }
  std::uint32_t value_end() const { return wide_ ? wide().value_end : key_begin_ + value_offset_ + value_size_; }

  std::uint32_t key_begin_ = 0;
  std::uint16_t value_size_ = 0;
  std::uint8_t key_size_ = 0;
  std::uint8_t value_offset_ = 0;  ///< from the key's first byte to the value's
  bool quoted_ : 1;
  bool owns_line_ : 1;
  bool wide_ : 1;  ///< the head is in the extras' wide
  std::uint8_t op_code_ : 3;  ///< the head's operator, as kOps has it
  // A byte of their own: rest() sets them on a const directive, beside bits other threads
  // may read.
  /// The extras hold the tail's pairs too (rest() made them), between the line's own.
  mutable std::uint8_t tail_merged_ : 1;
  /// How many of the line's own pairs before its tail are still text (keep_own_pairs_as_text).
  mutable std::uint8_t own_pending_ : 2;
  /// Which of kOwnAddressKeys those pairs have, by bit.
  mutable std::uint8_t own_pending_keys_ : 3;
  std::uint16_t spec_id_ = kNoKeySpecId;  ///< the head's KeySpec (key_spec_of)
  // The head (see head()): its key's text; the value is found from there.
  const char* key_ = "";
  /// The repeated tail and the extras. A repeating line's sub-keys are made only when
  /// something asks for them (rest(), find()): the model reads most repeating lines through
  /// their head and repeated_tail(). Until then the extras hold the pairs the line says
  /// before its tail, if any, or none. Made once, never changed after: pointers into them
  /// stay valid.
  mutable TailOrExtras more_;
};

/// A file's directives in file order, in a few blocks that never move once they hold a
/// directive: a full last block is followed by a new one, and the directives a large file's
/// later lines gave on another core (Reader::read_later_lines) join in their own blocks.
/// Pointers to directives stay valid for the list's life, moves of the list included.
/// Performance: one vector had each later half moved into it, which the reader waited for:
/// 7-36 ms of a 100,000-node run on a gres.conf written one line per GPU (800,000
/// directives), and the memory of the largest half twice.
class DirectiveList {
 public:
  template <bool Const>
  class Iterator {
    using Blocks = std::conditional_t<Const, const std::vector<std::vector<Directive>>,
                                      std::vector<std::vector<Directive>>>;

   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Directive;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const Directive*, Directive*>;
    using reference = std::conditional_t<Const, const Directive&, Directive&>;

    Iterator() = default;
    /// The directive at `offset` of block `block` of `blocks`, or the first after it (the end
    /// when there is none).
    Iterator(Blocks* blocks, std::size_t block, std::size_t offset) : blocks_(blocks), block_(block) {
      for (; block_ < blocks_->size(); ++block_, offset = 0)
        if (offset < (*blocks_)[block_].size()) {
          at_ = (*blocks_)[block_].data() + offset;
          return;
        }
    }
    /// A list's iterator as a read-only one.
    template <bool C = Const, typename = std::enable_if_t<C>>
    Iterator(const Iterator<false>& other)  // NOLINT(google-explicit-constructor): as std's iterators
        : blocks_(other.blocks_), block_(other.block_), at_(other.at_) {}

    reference operator*() const noexcept { return *at_; }
    pointer operator->() const noexcept { return at_; }
    Iterator& operator++() noexcept {
      if (++at_ == (*blocks_)[block_].data() + (*blocks_)[block_].size()) *this = Iterator(blocks_, block_ + 1, 0);
      return *this;
    }
    Iterator operator++(int) noexcept {
      Iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) noexcept { return a.at_ == b.at_; }
    friend bool operator!=(const Iterator& a, const Iterator& b) noexcept { return a.at_ != b.at_; }

   private:
    friend class Iterator<!Const>;
    Blocks* blocks_ = nullptr;
    std::size_t block_ = 0;
    pointer at_ = nullptr;
  };
  using iterator = Iterator<false>;
  using const_iterator = Iterator<true>;

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  Directive& operator[](std::size_t i) noexcept { return *locate(i); }
  const Directive& operator[](std::size_t i) const noexcept { return *locate(i); }
  const Directive& at(std::size_t i) const;
  Directive& front() noexcept { return *begin(); }
  const Directive& front() const noexcept { return *begin(); }
  Directive& back() noexcept { return (*this)[size_ - 1]; }
  const Directive& back() const noexcept { return (*this)[size_ - 1]; }
  iterator begin() noexcept { return iterator(&blocks_, 0, 0); }
  iterator end() noexcept { return iterator(&blocks_, blocks_.size(), 0); }
  const_iterator begin() const noexcept { return const_iterator(&blocks_, 0, 0); }
  const_iterator end() const noexcept { return const_iterator(&blocks_, blocks_.size(), 0); }
  /// The iterator at directive `i` (the end when `i` is the size): a walk over part of the list.
  iterator iterator_at(std::size_t i) noexcept;
  const_iterator iterator_at(std::size_t i) const noexcept;

  /// Appends `d` to the last block, or to a new one twice the size of the list when it is full.
  void push_back(Directive&& d) {
    if (blocks_.empty() || blocks_.back().size() == blocks_.back().capacity())
      add_block(std::max<std::size_t>(size_, 16));
    blocks_.back().push_back(std::move(d));
    ++size_;
  }

  // The reader's: how directives are laid out as a file is read.
  /// The room left in the last block: where the next directive goes (raw memory), and how
  /// many fit there.
  std::pair<void*, std::size_t> room() noexcept {
    if (blocks_.empty() || blocks_.back().size() == blocks_.back().capacity()) return {nullptr, 0};
    std::vector<Directive>& last = blocks_.back();
    return {last.data() + last.size(), last.capacity() - last.size()};
  }
  /// Room for `capacity` directives in a new last block (the last one itself when it holds
  /// none); the block, whose memory the caller may advise.
  std::vector<Directive>& add_block(std::size_t capacity);
  /// Appends `later`'s directives, in their own blocks (none of them moves), and empties it.
  void append(DirectiveList&& later);
  /// Calls `each(block_data, count)` for every run of directives from `i` on, in order.
  template <typename Each>
  void for_each_run_from(std::size_t i, Each&& each) {
    for (std::size_t b = block_of(i); b < blocks_.size(); ++b) {
      const std::size_t offset = i > starts_[b] ? i - starts_[b] : 0;
      if (offset < blocks_[b].size()) each(blocks_[b].data() + offset, blocks_[b].size() - offset);
    }
  }

 private:
  /// The block that holds directive `i` (< size()).
  std::size_t block_of(std::size_t i) const noexcept;
  Directive* locate(std::size_t i) noexcept;
  const Directive* locate(std::size_t i) const noexcept;

  std::vector<std::vector<Directive>> blocks_;
  std::vector<std::size_t> starts_;  ///< the index of each block's first directive
  std::size_t size_ = 0;
};

/// A comment that greslint reads itself (suppressions), with its span.
struct Comment {
  Span span;
  std::string_view text;  ///< after '#', not cooked
  std::uint32_t line = 0;
};

/// A parsed file (with its Includes spliced in, in order).
struct ConfigFile {
  FileId file;
  std::string path;
  bool exists = false;
  bool failed = false;  ///< Slurm's s_p_parse_file would return an error
  /// greslint stopped reading at its limit of settings and records (a GRS008 finding says
  /// where); what Slurm makes of the file is then not modelled.
  bool truncated = false;
  DirectiveList directives;
  std::vector<Comment> comments;
  std::vector<FileId> files;  ///< this file and every file it included
  /// Lines of files Slurm would not read (an Include that failed here but names a file
  /// that exists elsewhere, an indented Include). Never linted; they only let greslint name
  /// the nodes a fatal configuration leaves without a daemon.
  DirectiveList recovered;
  /// An Include path used %c (ClusterName): what the read made of it depends on the
  /// ClusterName known when it started (ReadOptions::cluster_name).
  bool include_used_cluster_name = false;

  /// Moves every span `by` file ids on (a file read before its id was known;
  /// SourceManager::rebase), the directives in two halves at once when `cores` has a core free.
  void shift_files(std::uint16_t by, CoreBudget* cores = nullptr);
  /// shift_files but for the directives, which the caller moves on itself (Directive::shift_file)
  /// as it walks them for a pass of its own.
  void shift_files_but_directives(std::uint16_t by);
};

/// A file's directives by kind, in file order: its settings, and the records of each record
/// key. Performance: the checks that want the PartitionName or SlurmctldHost lines walked
/// every directive for them, and a slurm.conf written node by node has 100,000 NodeName
/// lines: fifteen such walks, each a cache miss per line, were a sixth of linting it. Holds
/// pointers into `directives`, which must outlive it unchanged.
class DirectiveIndex {
 public:
  DirectiveIndex() = default;
  explicit DirectiveIndex(const DirectiveList& directives);
  const std::vector<const Directive*>& settings() const noexcept { return settings_; }
  /// The records whose head is `key` (a record key such as "NodeName", any case).
  const std::vector<const Directive*>& records(std::string_view key) const;

 private:
  std::vector<const Directive*> settings_;
  /// By the head's canonical key name; a file has a handful of record keys.
  std::vector<std::pair<std::string_view, std::vector<const Directive*>>> records_;
};

struct ReadOptions {
  KeyTable table = KeyTable::slurm_conf;
  /// Directory of slurm.conf: base of relative Includes from 23.02 on.
  std::string slurm_conf_dir;
  /// Value of ClusterName known so far (for %c in Include), lower-cased by the reader.
  std::string cluster_name;
  /// --prefix-map OLD=NEW: an Include naming OLD/... (after the base directory is applied)
  /// is read from NEW/...; the longest matching OLD wins. A checkout of /etc/slurm elsewhere.
  std::vector<std::pair<std::string, std::string>> prefix_map;
  /// The run's cores: a large file's later lines are read on a free one while the reader
  /// reads the lines before them. Null: every file is read on the calling thread alone.
  CoreBudget* cores = nullptr;
  /// How much of a file must be left to read for its later half to go to a free core. Below
  /// 512 KiB the thread's start costs about what it saves; tests and the fuzzer go lower.
  std::size_t later_lines_from_bytes = std::size_t(512) << 10;
  /// The reader that reaches lines a free core is still reading stops that core there and
  /// reads the rest itself. Off, it waits for them all: tests that count what each core did
  /// turn it off, since a core the scheduler starts late has read nothing by then.
  bool stop_later_lines_on_arrival = true;
};

/// `path` with the longest matching prefix of `map` replaced (whole path components only);
/// `path` itself when none matches.
std::string map_prefix(const std::string& path, const std::vector<std::pair<std::string, std::string>>& map);

/// Whether a run that has read `files` files holding `bytes` bytes in all still reads its
/// next Include: greslint's own limits on one run's reading (GRS008 past them).
bool within_read_limits(std::size_t files, std::size_t bytes) noexcept;

/// Reads and parses `path` as Slurm would. Problems become GRS0xx diagnostics.
ConfigFile read_config_file(const std::string& path, const ReadOptions& options,
                            const VersionProfile& profile, SourceManager& sources,
                            Reporter& out);

/// Parses text already in the SourceManager (tests, fuzzing). Includes are resolved
/// relative to options.slurm_conf_dir.
ConfigFile parse_config_text(FileId file, const ReadOptions& options, const VersionProfile& profile,
                             SourceManager& sources, Reporter& out);

/// Slurm's numeric and boolean conversions (parse_value.c); on failure `error`
/// receives Slurm's exact message.
bool convert_value(const KeySpec& spec, std::string_view value, std::string& error);

/// Reads a file with greslint's safety limits; false with a message on failure.
bool read_file_bounded(const std::string& path, std::string& text, std::string& error);
/// The same for a file the SourceManager will hold: a large one is mapped, not copied.
bool read_file_bounded(const std::string& path, FileText& text, std::string& error);
/// The same for a file the reader parses: a large one is mapped (not populated) and its
/// bytes read into a parse copy (FileText::parse_view), which the reader gives back once
/// it has parsed them (SourceManager::drop_parse_copy). `on_size`, when given, is called with
/// the file's size once it is open, before its bytes are read (not for a file that cannot be
/// opened or is past the limits).
bool read_file_to_parse(const std::string& path, FileText& text, std::string& error,
                        const std::function<void(std::uint64_t size)>& on_size = {});

}  // namespace greslint
