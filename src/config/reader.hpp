// SPDX-License-Identifier: Apache-2.0
// The reader behind read_config_file: Slurm's s_p_parse_file re-done with spans. Private
// to src/config/; one class over four files (lines and records, findings, Include, a large
// file's later lines on a second thread).
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/logical_line.hpp"
#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "greslint/text_hash.hpp"
#include "task.hpp"

namespace greslint::config_detail {

inline constexpr std::size_t kMaxFileBytes = 64u << 20;  // far above any real config; bounds memory
/// Files from this size on are mapped rather than read (read_file_bounded): below it a copy
/// costs less than setting up a mapping, and nearly every configuration file is far smaller.
/// A build may set GRESLINT_COPY_EVERY_FILE: every non-empty file is then mapped and parsed
/// from a parse copy, and each copy is unmapped once parsed, never reused, so that a view
/// left pointing into one crashes the run (scripts/refactor-oracle.py compares such a build
/// with a normal one on every input).
#ifdef GRESLINT_COPY_EVERY_FILE
inline constexpr std::size_t kMapFileBytes = 1;
#else
inline constexpr std::size_t kMapFileBytes = 256u << 10;
#endif
/// Configuration text read in all, in bytes, from which a run is large: its memory is then
/// laid out for size (huge_pages.hpp, skip_heap_head).
inline constexpr std::size_t kLargeConfigurationBytes = 256u << 10;
/// greslint's own stops on Include. Slurm has none: it reads Includes one after another, any
/// number of them, and recurses until fopen runs out of file descriptors (parse_config.c). A
/// large site includes one file per rack (3,125 files for 100,000 nodes), so the stops sit far
/// above that; past them greslint says that it stopped (GRS008) and predicts no verdict.
inline constexpr int kMaxIncludeDepth = 64;
/// Files (and bytes) one run reads: a file that includes the next one twice, 40 deep, would
/// otherwise be read 2^40 times. FileId is 16 bits, so files stay below 65,535.
inline constexpr std::size_t kMaxSourceFiles = std::size_t(1) << 15;
inline constexpr std::size_t kMaxSourceBytes = 2 * kMaxFileBytes;
// Settings and records kept from one file and its Includes. A 100,000-node cluster written
// one line per node has ~100,000; each kept line costs 200-1,000 bytes, so 64 MiB of tiny
// lines (6 million `NodeName=a`) took 1.6 GB before this limit.
inline constexpr std::size_t kMaxDirectives = std::size_t(1) << 20;

/// A build may set GRESLINT_SPLIT_EVERY_FILE: every file then has its later lines read on
/// another thread at every line where it can be split, free core or not, whatever its size
/// (ReadOptions::later_lines_from_bytes and ::cores are ignored). That is how splitting is
/// tested against reading in one piece on every input (scripts/refactor-oracle.py).
#ifdef GRESLINT_SPLIT_EVERY_FILE
inline constexpr bool kSplitEveryFile = true;
#else
inline constexpr bool kSplitEveryFile = false;
#endif
/// How often (in lines) the reader looks for a free core: one may free up while it reads.
inline constexpr std::uint32_t kLinesPerLook = 1024;
/// How many directives' room add_directive faults in at a time (fault_in_for_writing): ~180 KB.
/// A block left with room has at most this much faulted in for nothing (close_block gives
/// it back, but the faults are paid).
inline constexpr std::size_t kDirectivesFaultedAhead = 2048;

/// How much of a mapped file the readers pass before they let its pages go (release_read).
inline constexpr std::uint32_t kReleaseStep = std::uint32_t(1) << 20;
/// Lets the whole pages of a mapped file's `text` from `released` to `pos` go, once at least
/// `step` bytes have been read past `released`, and moves `released` on. Nothing is lost: a
/// page touched again (a finding's line, a view into an earlier line) is read back from the
/// file. Performance: with every repeating line's head copied (Reader::copy_head), nothing
/// reads most of a large file again, and its pages were a quarter of a run's memory (53 MB
/// of a per-GPU gres.conf's 204 MB at 100,000 nodes).
void release_read(std::string_view text, std::uint32_t& released, std::uint32_t pos,
                  std::uint32_t step = kReleaseStep) noexcept;

inline Daemon daemon_for(KeyTable table) { return table == KeyTable::gres_conf ? Daemon::slurmd : Daemon::slurmctld; }

/// A file parsed from its parse copy (FileText::parse_view): views into the copy's `size`
/// bytes at `copy` are pointed at the same bytes of the file's mapping at `mapping`, so that
/// nothing kept points into the copy, which the next file reuses. Inactive (copy null) for
/// every other file.
struct ParseCopyViews {
  const char* copy = nullptr;
  std::size_t size = 0;
  const char* mapping = nullptr;
  bool active() const noexcept { return copy != nullptr; }
  void rehome(Directive& d) const {
    if (active()) d.rehome_head(copy, size, mapping);
  }
  void rehome(std::string_view& v) const {
    if (active() && v.data() >= copy && v.data() + v.size() <= copy + size)
      v = std::string_view(mapping + (v.data() - copy), v.size());
  }
};

/// The lines of one large file from `begin` on, read on another thread while the reader
/// reads the lines before (Reader::read_later_lines). Only records of the file's own text
/// are read there: the first line that needs what the reader learns before it (a setting,
/// whose repeats and ClusterName are tracked across the file; an Include; an escape or
/// continuation, kept in the SourceManager) stops it, and the reader goes on from there.
struct LaterLines {
  std::uint32_t begin = 0;     ///< a line start; the physical line before it has no backslash
  /// Where it stops at the latest: the end of the file, or where the next LaterLines begins.
  std::uint32_t limit = 0;
  /// The file's text, and a line start before `begin` with its number: what
  /// Reader::line_number counts from when a finding names a line.
  std::string_view text;
  std::uint32_t from = 0, from_line = 0;
  /// Lines from `from_line` up to the line before `begin`, once counted (line_number).
  std::optional<std::uint32_t> lines_before;
  std::uint32_t end = 0;       ///< where it stopped: the reader's next line
  /// That line's number, counted as the thread's lines are: the line at `begin` is line 1.
  std::uint32_t end_line = 0;
  /// Whether `text` is a mapping of the file (not a parse copy), whose pages the thread lets
  /// go once read (release_read).
  bool release_pages = false;
  /// The reader's copy_heads_ and to_mapping_ for the file, taken when the thread starts
  /// (an Include the reader meets meanwhile changes its own).
  bool copy_heads = false;
  ParseCopyViews to_mapping;
  /// Its directives, comments and `failed`. Their line numbers count from `begin` as line 1:
  /// the reader, at `begin`, knows the line's number and adds it (take_later_lines).
  ConfigFile part;
  /// What its directives point into: repeated tails, blocks of copied heads (Reader::keep).
  std::vector<std::shared_ptr<const void>> kept;
  Reporter findings;           ///< what it reported, added after the reader's own
  std::atomic<bool> unwanted{false};
  Task<void> done;

  LaterLines() = default;
  LaterLines(const LaterLines&) = delete;
  LaterLines& operator=(const LaterLines&) = delete;
  /// Never leaves the thread behind: a reader that stops first (a limit) tells it to stop.
  ~LaterLines() {
    unwanted = true;
    done.wait();
  }
};

class Reader {
 public:
  Reader(const ReadOptions& options, const VersionProfile& profile, SourceManager& sources, Reporter& out)
      : options_(options),
        profile_(profile),
        sources_(sources),
        out_(out),
        cluster_name_(to_lower(options.cluster_name)) {}
  // Its tail slots point at each other (RecentTail::next): a copy would point into this one.
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  /// Reads file `file` (and what it includes) into `result`, complete when it returns.
  void parse(FileId file, ConfigFile& result, int depth);

 private:
  /// parse() of an included file: its later directives' line numbers may still be being
  /// made when it returns (settle_numbering).
  void parse_included(FileId file, ConfigFile& result, int depth);
  Span span_of(FileId file, const LogicalLine& l, std::size_t b, std::size_t e) const {
    return Span{file, l.offsets[b], e > b ? l.offsets[e - 1] + 1 : l.offsets[b]};
  }

  // Lines and records (reader.cpp; read_record, own_prefix/own_suffix and the tails below:
  // repeated_tails.cpp).
  /// False only when reading alone (LaterLines) and the line needs the reader's state: it is
  /// then left as it was, nothing reported.
  bool handle_line(FileId file, LogicalLine& l, ConfigFile& result, int depth);
  /// Makes room for `more` directives in `result` (see reader.cpp for how it grows).
  static void make_room(ConfigFile& result, std::size_t more);
  /// Gives back the memory of the room left in `result`'s last block (release_unused), before
  /// directives go to a block after it: the pages add_directive faulted in ahead, or the
  /// rest of a 2 MiB page. Memory: a per-GPU gres.conf leaves a block at each of its later
  /// halves, and in 2 MiB pages they held 14 MB more at the run's peak (131 MB).
  static void close_block(ConfigFile& result);
  /// Appends `d`, growing the directives as make_room does when they are full.
  void add_directive(ConfigFile& result, Directive&& d);
  /// Parses file `file` (its lines at `text`) into `result`: parse() without the setting up
  /// and giving back of the file's parse copy around it.
  void parse_lines(FileId file, std::string_view text, ConfigFile& result, int depth);
  void read_record(FileId file, const LogicalLine& l, KeyTable table, std::size_t ptr, Directive& d,
                   ConfigFile& result);
  /// Parses the pairs of `l` from `ptr` to `end` (the end of the line by default) into `d`.
  bool parse_record(FileId file, const LogicalLine& l, KeyTable table, std::size_t ptr, Directive& d,
                    ConfigFile& result, std::size_t end = std::string_view::npos);
  /// The pairs a NodeName line gives its node alone (NodeAddr=, NodeHostname=, BcastAddr=, each
  /// once, plain strings that parse without a finding), all at one end of the pairs, and
  /// where they are: [begin, end) of the line's text, beside the pairs an earlier line may
  /// have said, [shared_begin, shared_end). `end` 0 when there are none, or no other pair is
  /// there.
  struct OwnPairs {
    std::array<const KeySpec*, 3> specs{};
    std::size_t count = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
    std::size_t shared_begin = 0;
    std::size_t shared_end = 0;
  };
  /// The spec of the pair `m` matched when it names the node's own address or host name: a
  /// plain string (nothing to convert, so nothing to report) that gives this node alone a
  /// value. Null otherwise.
  const KeySpec* own_address_spec(KeyTable table, std::string_view text, const KvMatch& m);
  /// Those right after the name (from `ptr`).
  OwnPairs own_prefix(KeyTable table, std::string_view text, std::size_t ptr);
  /// Those that end the line (the pairs from `ptr` on).
  OwnPairs own_suffix(KeyTable table, std::string_view text, std::size_t ptr);
  /// Whether `tail` has a pair of one of the keys of `own` (the line would then hold it twice).
  static bool names_any(const RepeatedTail& tail, const OwnPairs& own);
  /// Which of Directive::kOwnAddressKeys `own` holds, by bit (Directive::keep_own_pairs_as_text).
  static std::uint8_t own_keys(const OwnPairs& own);
  /// What an earlier line with this text after its head (and its first `skip` pairs, and
  /// before its last `drop`) can take instead of parsing it; `begin` is where that text starts.
  /// `text` is that text, which the tail keeps a copy of.
  static std::shared_ptr<RepeatedTail> relative_tail(const Directive& d, std::string_view text, std::uint32_t begin,
                                                     std::size_t skip, std::size_t drop = 0);
  /// Keeps `object` (a RepeatedTail, a block of copied text) as long as the directives that
  /// point into it: in the SourceManager, or, reading alone (it is the reader's), in the
  /// LaterLines, until the reader takes them.
  void keep(std::shared_ptr<const void> object);
  /// Points the views of a repeating line `d` before its tail (its head from `from`, the
  /// index of its key in `l.text`, and any pairs of its own) at a copy of that text, so that
  /// a mapped file's pages need not stay once read (release_read). Performance: the model
  /// reads every line's head, and kept a per-GPU gres.conf's 53 MB resident for it.
  void copy_head(const LogicalLine& l, std::size_t from, Directive& d);
  /// A record of a mapped file that repeats no tail: its whole text from `from` (the head) on
  /// is copied, while kLineCopyBytes allow, and its views moved there (own_line).
  void copy_line(const LogicalLine& l, std::size_t from, Directive& d);
  /// `text`, copied into a block kept as long as the directives.
  std::string_view copy_text(std::string_view text);
  const KeySpec* key_spec(KeyTable table, std::string_view key);
  const KeySpec* mapped_key_spec(KeyTable table, std::string_view key);
  KeyValue make_pair(FileId file, const LogicalLine& l, const KvMatch& m, const KeySpec* spec);
  /// The number of `l`'s first line in its file, as a message names it (l.first_line counts
  /// from LaterLines::begin when reading alone).
  std::uint32_t line_number(const LogicalLine& l);
  bool convert(FileId file, const KeyValue& kv, ConfigFile& result);

  // A large file's later lines, read on a second thread (later_lines.cpp).
  std::unique_ptr<LaterLines> read_later_lines(FileId file, std::string_view text, std::uint32_t pos,
                                               std::uint32_t limit, std::uint32_t line_no);
  void read_alone(FileId file, std::string_view text, LaterLines& later);
  void take_later_lines(LaterLines& later, ConfigFile& result, std::uint32_t& pos, std::uint32_t& line_no);
  /// A later half's line numbers being made the file's on another core (take_later_lines),
  /// while this thread reads on.
  Task<void> numbering_;
  /// Waits for the numbering, if any: before the file's directives are handed on, and
  /// before another later half is taken.
  void settle_numbering();

  // What the reader itself reports (reader_findings.cpp).
  static std::string help_for_value(const KeySpec& spec);
  static std::string_view table_label(KeyTable t);
  void duplicate(const KeyValue& first, const KeyValue& again);
  void unknown_key(FileId file, const LogicalLine& l, const KvMatch& m, KeyTable table, bool in_record,
                   ConfigFile& result);
  void parse_error(FileId file, const LogicalLine& l, std::size_t from, ConfigFile& result);
  bool check_empty_value(FileId file, const LogicalLine& l, const KvMatch& m);
  void check_joins(FileId file, const LogicalLine& l, const KvMatch& m);

  // Include (include.cpp).
  void handle_include(FileId file, const LogicalLine& l, ConfigFile& result, int depth);
  /// Reads included file `full` to parse it (read_file_to_parse).
  bool read_included(const std::string& full, FileText& text, std::string& error);
  bool reads_live_config() const;
  void warn_not_in_checkout(const std::string& path, Span name_span, const std::string& fix);
  bool reads_checkout_of(const std::string& path) const;
  bool read_from_checkout(const std::string& path, Span name_span, std::string& full, std::string& mapped);
  struct CheckoutCopy {
    std::string path;         ///< the file greslint reads; empty when the checkout has none
    std::string site_folder;  ///< the part of the Include's path the checkout stands for
  };
  CheckoutCopy checkout_copy(const std::string& path) const;
  std::string missing_include_help(const std::string& path) const;
  bool include_refused(const std::string& name, const std::string& full,
                       const std::function<void(std::string, std::string)>& fail) const;
  bool past_limits(const std::string& name, Span where, int depth, ConfigFile& result);
  void recover(const std::string& path, ConfigFile& result, int depth);

  const ReadOptions& options_;
  const VersionProfile& profile_;
  SourceManager& sources_;
  Reporter& out_;
  std::string cluster_name_;
  std::vector<std::string> stack_;
  bool stopped_ = false;  // a greslint limit reached: nothing more is read, Includes included
  bool alone_ = false;    // reading a file's later lines on another thread (LaterLines)
  /// Reading alone: the LaterLines it reads into. The tails it makes are kept there
  /// (LaterLines::kept), not in the SourceManager, which the reader may be adding to meanwhile.
  LaterLines* alone_later_ = nullptr;
  /// The file being read is mapped: repeating lines' heads are copied (copy_head), and
  /// whatever else a directive or comment views is pointed at the mapping (to_mapping_) or,
  /// parsed from the mapping itself, its pages are let go as the reader passes them
  /// (release_pages_, release_read).
  bool copy_heads_ = false;
  bool release_pages_ = false;
  ParseCopyViews to_mapping_;
  /// The memory add_directive faulted in last (fault_in_for_writing), as addresses.
  std::uintptr_t faulted_from_ = 0, faulted_to_ = 0;
  /// copy_text's block: its bytes, how many are used, and the last head copied.
  static constexpr std::size_t kCopyBlock = std::size_t(64) << 10;
  std::string_view copies_;
  std::size_t copies_used_ = 0;
  std::string_view last_head_copy_;
  /// What copy_line may still copy. Performance: a record line that repeats no earlier one
  /// (the first of each kind, an exception) is read again by the model: a gres.conf line when
  /// the records are gathered (model/gres_records.cpp, ContentIds), a slurm.conf NodeName line
  /// when its node line is made. From the mapping, that read maps the page cache's folio
  /// around it: a 2 MiB one for a file written moments before (a fresh checkout). A gres.conf
  /// of 800,000 lines peaked 18 MB higher for ten such reads; a slurm.conf of 100,000 node
  /// lines whose Feature= names the rack (two lines of each rack parsed whole) kept nearly all
  /// of its 15 MB file resident. Bounded, so that a file of lines that all differ costs at most
  /// this much, and a quarter of its size (allow_copies), more memory than its mapping: a
  /// slurm.conf of 100,000 node lines with a Weight= of their own among their pairs, a sixth
  /// of its lines parsed whole throughout the file, kept the file resident for them (17 MB
  /// of a 127 MB peak) with 512 KiB to copy them into.
  static constexpr std::size_t kLineCopyBytes = std::size_t(512) << 10;
  static constexpr std::size_t kLineCopyShare = 4;
  std::size_t line_copies_left_ = kLineCopyBytes;
  /// Lets copy_line copy a further share of `text`, a mapped file's text (or part of it) that
  /// this reader is about to read.
  void allow_copies(std::string_view text) {
    if (copy_heads_) line_copies_left_ += text.size() / kLineCopyShare;
  }
  std::unordered_map<const KeySpec*, KeyValue> settings_;
  std::unordered_map<std::string, const KeySpec*> key_specs_;  ///< see key_spec()
  std::string key_buffer_;
  /// The first spellings of keys met (key_spec): searched in order before the map. Bounded,
  /// so that a file of a million different unknown keys is not searched linearly.
  struct Spelling {
    KeyTable table;
    std::string key;
    const KeySpec* spec;
  };
  /// The top-level key of the last line read, its spec and its record table (handle_line).
  struct LastHead {
    std::string key;
    const KeySpec* spec = nullptr;
    std::optional<KeyTable> record;
    std::uint16_t spec_id = kNoKeySpecId;  ///< key_spec_id(spec), for Directive::set_head
  };
  LastHead last_head_;
  static constexpr std::size_t kRecentKeys = 32;
  std::vector<Spelling> recent_keys_;
  std::vector<std::pair<const KeySpec*, std::size_t>> last_of_;  ///< parse_record's scratch
  /// Record text after the head already parsed, by table: see RepeatedTail. Bounded, so that
  /// a file of a million different lines does not keep a million parses.
  /// Hashed once where it is made: a line whose tail is new is looked up twice (among the
  /// repeated tails, then the tails seen once), and hashing its text twice was a tenth of
  /// that line's reading in a file written node by node with a NodeAddr= per line.
  struct TailKey {
    KeyTable table{};
    /// A view into a file the SourceManager holds, or, in repeated_tails_, into the tail's copy.
    std::string_view text;
    std::uint64_t hash = 0;
    TailKey() = default;
    TailKey(KeyTable t, std::string_view x) : table(t), text(x), hash(text_hash(x) * 31 + std::uint64_t(t)) {}
    bool operator==(const TailKey& o) const { return hash == o.hash && table == o.table && text == o.text; }
  };
  struct TailHash {
    std::size_t operator()(const TailKey& k) const { return k.hash; }
  };
  static constexpr std::size_t kMaxRepeatedTails = 1u << 16;
  /// Each kept alive where the directives that repeat it are (keep).
  std::unordered_map<TailKey, const RepeatedTail*, TailHash> repeated_tails_;
  /// One bit per group of hashes, set for each key of repeated_tails_: a clear bit answers
  /// that no tail has the key without the map's lookup. Performance: every line written with
  /// its own NodeAddr= asks for its whole tail first, which no line repeats; with a tail per
  /// rack (Feature=rack0001) those misses walked a map of ~1,000 tails, ~2 ms of a
  /// 100,000-node run's CPU time.
  std::vector<std::uint64_t> tail_filter_;
  static constexpr std::size_t kTailFilterWords = 1024;  ///< 65,536 bits, as many as kMaxRepeatedTails
  static std::size_t tail_filter_bit(const TailKey& key) { return std::size_t(key.hash >> 40) % (kTailFilterWords * 64); }
  bool may_hold_tail(const TailKey& key) const {
    const std::size_t bit = tail_filter_bit(key);
    return !tail_filter_.empty() && (tail_filter_[bit / 64] >> (bit % 64) & 1) != 0;
  }
  /// The tail lines with the text `key` after their head take, or null.
  const RepeatedTail* find_tail(const TailKey& key);
  /// The tails found last, one per slot chosen by a few bits of their hash: a file written one
  /// line per GPU alternates between eight tails, and a file written node by node repeats one.
  /// Performance: the map's lookup (a division for the bucket, a chain of nodes) was 5.7% of
  /// the samples of linting a gres.conf written one line per GPU; with these slots, 2.5%.
  struct RecentTail {
    TailKey key{};
    const RepeatedTail* tail = nullptr;
    /// The slot of the tail the next line took, the last time a line took this one: a tail
    /// the line after may take again (followed_tail). A slot that has been given to another
    /// tail since is only a guess that fails.
    RecentTail* next = nullptr;
  };
  std::array<RecentTail, 64> recent_tails_{};
  /// The slot of the tail the line before took, if it took one (find_tail).
  RecentTail* last_taken_ = nullptr;
  /// The tail `text` (after a head of `table`) is, when it is the one that followed the line
  /// before's tail the last time: found without hashing the text. Performance: the hash and
  /// the slot's lookup were ~100 instructions of a per-GPU gres.conf line, whose tails come
  /// round in the same order node after node, as a per-node file's one tail does.
  const RepeatedTail* followed_tail(KeyTable table, std::string_view text);
  /// Makes `tail` the one lines with the text `key` after their head take.
  void remember_tail(TailKey key, std::shared_ptr<RepeatedTail> tail);
  /// Tails seen once, not yet in repeated_tails_: a tail is kept there only when a second line
  /// says it. Performance: a file written node by node with a NodeAddr= per line repeats no
  /// tail; keeping each of them (up to kMaxRepeatedTails) took an allocation and a lookup in a
  /// map of 65,536 scattered nodes per line, a sixth of reading such a file. Two ways per set,
  /// the older replaced, so two tails that alternate line by line are both kept even when
  /// their hashes share a set.
  struct SeenTail {
    TailKey key{};  ///< hash 0 and no text: an empty way
  };
  struct SeenTailSet {
    std::array<SeenTail, 2> ways;
    std::uint8_t older = 0;  ///< the way to replace next
  };
  /// The table starts small and grows fourfold while it is more than an eighth full, up to
  /// kSeenTailSets; past kPlainSeenTailSets only while one text in kSeenHitShare asked about
  /// was there. Performance: at its full 147 KB from the first line, zeroing it was a third
  /// of the page faults of a 10-node run (72 of 220, two readers), ~1 ms on this machine,
  /// where such a run costs ~3 ms more than starting a process. Texts that come round every
  /// few thousand lines (a Weight= of 4,000 values in turn) need the larger table; texts that
  /// never come again (each line with a value of its own) only pay for its cache misses.
  /// Growing at a quarter full, a slurm.conf of 100,000 nodes of four types with a Weight=
  /// of 977 values in turn parsed 17,649 lines whole; growing at an eighth, 8,845 (-7 ms of
  /// CPU time), and a 10-node run is no slower.
  static constexpr std::size_t kFirstSeenTailSets = 1u << 5;
  static constexpr std::size_t kPlainSeenTailSets = 1u << 11;
  static constexpr std::size_t kSeenTailSets = 1u << 14;
  static constexpr std::size_t kSeenHitShare = 64;
  std::vector<SeenTailSet> seen_tails_;
  std::size_t seen_tails_held_ = 0;  ///< ways of seen_tails_ that hold a tail
  std::size_t seen_asked_ = 0, seen_found_ = 0;  ///< seen_before's calls, and its trues
  /// True when `key` was seen before (and is now forgotten here); else remembers it.
  bool seen_before(const TailKey& key);
  /// The set of `sets` (a power of two of them) that `key` belongs to.
  static SeenTailSet& set_for(std::vector<SeenTailSet>& sets, const TailKey& key);
  /// Puts `key` in its set's older way; false when that way held another tail, now forgotten.
  static bool put_seen_tail(std::vector<SeenTailSet>& sets, const TailKey& key);
  void grow_seen_tails();
  void forget_seen_tails();
};

}  // namespace greslint::config_detail
