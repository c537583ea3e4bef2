// SPDX-License-Identifier: Apache-2.0
// Reading a file as Slurm's s_p_parse_file does: one top-level key per line, records,
// conversions, and the entry points read_config_file / parse_config_text.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <unordered_map>

#include "config/reader.hpp"
#include "huge_pages.hpp"
#include "rules/rules.hpp"

namespace greslint {
namespace config_detail {

void release_read(std::string_view text, std::uint32_t& released, std::uint32_t pos, std::uint32_t step) noexcept {
  if (pos < released || pos - released < step) return;
  static const auto page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
  const auto base = reinterpret_cast<std::uintptr_t>(text.data());
  const auto from = (base + released + page - 1) & ~(page - 1);
  const auto to = (base + pos) & ~(page - 1);
  if (to <= from) return;
  // Best effort: a failure leaves the pages where they are.
  ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  released = std::uint32_t(to - base);
}

void Reader::parse(FileId file, ConfigFile& result, int depth) {
  parse_included(file, result, depth);
  settle_numbering();
}

void Reader::parse_included(FileId file, ConfigFile& result, int depth) {
  result.files.push_back(file);
  stack_.push_back(sources_.path(file));
  // An Include reads another file with this reader: what these say is this file's again after.
  const bool copy_heads_before = std::exchange(copy_heads_, sources_.mapped(file));
  const bool release_before = std::exchange(release_pages_, copy_heads_ && !sources_.has_parse_copy(file));
  const std::string_view text = sources_.parse_text(file);
  allow_copies(text);
  const ParseCopyViews to_mapping_before = std::exchange(
      to_mapping_, sources_.has_parse_copy(file) ? ParseCopyViews{text.data(), text.size(), sources_.text(file).data()}
                                                 : ParseCopyViews{});
  const std::size_t comments_before = result.comments.size();
  parse_lines(file, text, result, depth);
  if (to_mapping_.active()) {
    // The comments' views (the directives' were moved as each was kept), and the tails seen
    // once, which the next file's copy would overwrite under them: the copy can go.
    for (std::size_t i = comments_before; i < result.comments.size(); ++i) to_mapping_.rehome(result.comments[i].text);
    forget_seen_tails();
    sources_.drop_parse_copy(file);
  }
  copy_heads_ = copy_heads_before;
  release_pages_ = release_before;
  to_mapping_ = to_mapping_before;
  stack_.pop_back();
}

void Reader::parse_lines(FileId file, std::string_view text, ConfigFile& result, int depth) {
  // Room for a directive per line of this file (see make_room), from an estimate, not a
  // count: counting the lines was a pass over the file of its own, on a gres.conf written one
  // line per GPU a twentieth of its reading. Lines of 24 bytes and more (a per-node line is
  // ~80) fit; a file of shorter lines gets another block when it has filled this room.
  make_room(result, text.size() / 24 + 1);
  // A file large enough to have its later lines read on another core: the thread the budget
  // keeps for such work is started now (CoreBudget::run_on_helper), not when the first core
  // frees up.
  if (!kSplitEveryFile && options_.cores && text.size() >= options_.later_lines_from_bytes)
    options_.cores->start_helper();
  std::uint32_t pos = 0;
  std::uint32_t line_no = 1;
  // The lines read on other cores meanwhile, the nearest last; each one stops at the latest
  // where the one before it in this vector begins. A core that frees up while lines before
  // the nearest are left takes the later half of those (read_later_lines), and the reader
  // that arrives where lines still being read begin takes what was read so far: the two
  // cores finish a file together, whichever reads faster. Performance: with one split per
  // file, one core waited for the other up to 30 ms of a 100,000-node gres.conf written one
  // line per GPU (its four files took 5-60 ms of such waits in all, from run to run).
  std::vector<std::unique_ptr<LaterLines>> laters;
  std::uint32_t lines_read = 0;
  std::uint32_t lines_seen = 0;
  LogicalLine line;
  std::uint32_t released = 0;
  while (pos < text.size() && !stopped_) {
    if (++lines_seen % kLinesPerLook == 0) advise_heap_growth();
    if (release_pages_) release_read(text, released, pos);
    if (!laters.empty() && pos >= laters.back()->begin) {
      take_later_lines(*laters.back(), result, pos, line_no);
      laters.pop_back();
      lines_read = 0;  // the core that read them is free: the lines left may go to it
      continue;
    }
    // Splitting every file, two at a time: enough to take one inside another's lines.
    if (kSplitEveryFile ? laters.size() < 2 : lines_read++ % kLinesPerLook == 0) {
      const std::uint32_t limit = laters.empty() ? std::uint32_t(text.size()) : laters.back()->begin;
      if (auto later = read_later_lines(file, text, pos, limit, line_no)) laters.push_back(std::move(later));
    }
    next_logical_line(file, text, pos, line_no, result.comments, line);
    if (line.text.empty()) continue;
    if (result.directives.size() >= kMaxDirectives) {
      stopped_ = true;
      out_.report(rules::GRS008, span_of(file, line, 0, line.text.size()),
                  fmt::format("greslint stops reading here: the file already holds {} settings and records, "
                              "greslint's limit",
                              kMaxDirectives))
          .effect(Effect::none, Daemon::none)
          .help("a real cluster needs far fewer lines: fold the node lines into hostlists (gpu[001-100])");
      result.truncated = true;
      break;
    }
    handle_line(file, line, result, depth);
  }
  if (release_pages_) release_read(text, released, pos, 0);
}

/// Room for `more` directives after the last: in the last block when it has it, else in a
/// new one (DirectiveList: nothing moves), never past greslint's limit (the reader stops
/// there). Performance: a file of a million settings, or one that includes 100,000 node
/// lines, grew a single vector twenty times, moving every directive at each step, and held
/// the old and the new one at once. A block is at least as large as the list before it, so
/// that blocks stay few when a file's lines are shorter than its estimate. Pages that stay
/// unused are reserved address space, never touched, never resident. Past 32 MiB a block is
/// a mapping of its own, outside the heap advise_huge_heap set up: it is advised before the
/// directives move in, and 200,000 per-node gres.conf lines fill it in a few dozen page
/// faults instead of 7,000.
void Reader::make_room(ConfigFile& result, std::size_t more) {
  DirectiveList& kept = result.directives;
  if (kept.room().second >= more) return;
  close_block(result);
  std::vector<Directive>& block = kept.add_block(std::min(std::max(more, kept.size()), kMaxDirectives));
  advise_large_block(block.data(), block.capacity() * sizeof(Directive));
}

void Reader::close_block(ConfigFile& result) {
  const auto [next, left] = result.directives.room();
  release_unused(next, left * sizeof(Directive));
}

void Reader::add_directive(ConfigFile& result, Directive&& d) {
  d.seal_keys();
  if (result.directives.room().second == 0) make_room(result, 1);
  // The room of the next directives, faulted in ahead where pages are small (a per-GPU
  // gres.conf writes 70 MB of directives): at a block's start, and every so many after.
  const auto [next, left] = result.directives.room();
  const auto at = reinterpret_cast<std::uintptr_t>(next);
  if (at < faulted_from_ || at >= faulted_to_) {
    const std::size_t bytes = std::min(left, kDirectivesFaultedAhead) * sizeof(Directive);
    fault_in_for_writing(next, bytes);
    faulted_from_ = at;
    faulted_to_ = at + bytes;
  }
  result.directives.push_back(std::move(d));
}

bool Reader::handle_line(FileId file, LogicalLine& l, ConfigFile& result, int depth) {
  std::string_view s = l.text;
  if (s.size() > 7 && iequals(s.substr(0, 7), "include") && is_space(s[7])) {
    if (alone_) return false;
    handle_include(file, l, result, depth);
    return true;
  }
  auto m = match_key_value(s, 0);
  if (!m) {
    if (only_space(s)) return true;
    if (alone_) return false;
    parse_error(file, l, 0, result);
    return true;
  }
  std::string_view key = s.substr(m->key_begin, m->key_end - m->key_begin);
  // The key of the line before, remembered with what it is: a file written node by node
  // starts every line with the same NodeName=, and finding its spec and record table again
  // was a sixth of reading such a line.
  if (!last_head_.spec || last_head_.key != key) {
    const KeySpec* spec = key_spec(options_.table, key);
    if (!spec) {
      if (alone_) return false;
      unknown_key(file, l, *m, options_.table, /*in_record=*/false, result);
      return true;
    }
    last_head_ = LastHead{std::string(key), spec, record_table(options_.table, key), key_spec_id(spec)};
  }
  const KeySpec* spec = last_head_.spec;
  const auto sub = last_head_.record;
  if (alone_ && (!sub || l.is_cooked())) return false;
  // The pairs view the line's text: a cooked line moves to the SourceManager first.
  if (l.is_cooked()) {
    l.text = sources_.keep(std::move(l.cooked));
    s = l.text;
    key = s.substr(m->key_begin, m->key_end - m->key_begin);
  }
  Directive d;
  d.span = Span{file, l.begin, l.end};
  d.line = l.first_line;
  d.set_head(make_pair(file, l, *m, spec), last_head_.spec_id);
  check_joins(file, l, *m);
  check_empty_value(file, l, *m);
  std::size_t ptr = m->end;
  if (sub) {
    d.kind = Directive::Kind::record;
    read_record(file, l, *sub, ptr, d, result);
    if (copy_heads_) {
      if (d.repeated_tail())
        copy_head(l, m->key_begin, d);
      else if (!l.is_cooked())
        copy_line(l, m->key_begin, d);
    }
    to_mapping_.rehome(d);
    add_directive(result, std::move(d));
    return true;
  }
  to_mapping_.rehome(d);  // before its head is kept (settings_)
  const KeyValue& kv = d.head();
  if (!convert(file, kv, result)) return true;
  if (!only_space(s.substr(ptr))) {
    parse_error(file, l, ptr, result);
    return true;
  }
  if (spec->type != ValueType::array) {
    auto previous = settings_.find(spec);
    if (previous != settings_.end()) duplicate(previous->second, kv);
    settings_[spec] = kv;
  }
  if (iequals(spec->name, "ClusterName")) cluster_name_ = to_lower(kv.value);
  add_directive(result, std::move(d));
  return true;
}

void Reader::copy_head(const LogicalLine& l, std::size_t from, Directive& d) {
  const std::string_view head = l.text.substr(from, d.tail_begin() - l.begin - from);
  // A file written one line per GPU names each node on eight lines in a row.
  if (head != last_head_copy_) last_head_copy_ = copy_text(head);
  d.rehome_head(head.data(), head.size(), last_head_copy_.data());
  // The line's own pairs after its tail (a node's NodeAddr= written last) are copied too: the
  // model reads them, and their views would fault the file's pages in again (5 MB more at
  // the peak of a 100,000-node slurm.conf written that way).
  const std::size_t after = d.tail_begin() - l.begin + d.repeated_tail()->text.size();
  if (after < l.text.size()) {
    const std::string_view own = l.text.substr(after);
    d.rehome_head(own.data(), own.size(), copy_text(own).data());
  }
}

void Reader::copy_line(const LogicalLine& l, std::size_t from, Directive& d) {
  const std::string_view line = l.text.substr(from);
  if (line.size() > line_copies_left_) return;  // viewed where it is, as before
  line_copies_left_ -= line.size();
  d.own_line(line.data(), line.size(), copy_text(line).data());
}

std::string_view Reader::copy_text(std::string_view text) {
  if (copies_.size() - copies_used_ < text.size()) {
    const std::size_t size = std::max(text.size(), kCopyBlock);
    auto block = std::shared_ptr<char[]>(new char[size]);
    copies_ = std::string_view(block.get(), size);
    copies_used_ = 0;
    keep(std::move(block));
  }
  char* at = const_cast<char*>(copies_.data()) + copies_used_;
  std::memcpy(at, text.data(), text.size());
  copies_used_ += text.size();
  return std::string_view(at, text.size());
}

void Reader::keep(std::shared_ptr<const void> object) {
  if (alone_later_)
    alone_later_->kept.push_back(std::move(object));
  else
    sources_.keep_alive(std::move(object));
}

/// Parses the pairs after a record's first key into `d`. True when nothing in them was
/// reported: another line with the same text after its head can then take them as they are.
bool Reader::parse_record(FileId file, const LogicalLine& l, KeyTable table, std::size_t ptr, Directive& d,
                          ConfigFile& result, std::size_t end) {
  const std::string_view s = std::string_view(l.text).substr(0, end);
  KeyValues& pairs = d.own_rest();
  // Reserved before the first pair: one per '=' (more when values hold one), never more than
  // a record has distinct keys (repeats replace each other).
  pairs.reserve(std::min<std::size_t>(std::size_t(std::count(s.begin() + std::ptrdiff_t(ptr), s.end(), '=')), 32));
  // Index of the last pair of each key: a duplicate is reported against the previous
  // occurrence, as for top-level keys. Kept per distinct key, so a 10 MB line of repeated
  // CPUs=1 stays linear; searched in a vector, since a record has a handful of keys (a hash
  // map cost a node allocation per pair on every line). The reader's own, reused from record
  // to record (one per record was an allocation per line).
  std::vector<std::pair<const KeySpec*, std::size_t>>& last_of = last_of_;
  last_of.clear();
  bool clean = true;
  while (auto sm = match_key_value(s, ptr)) {
    std::string_view sub_key = s.substr(sm->key_begin, sm->key_end - sm->key_begin);
    const KeySpec* sub_spec = key_spec(table, sub_key);
    if (!sub_spec) {
      unknown_key(file, l, *sm, table, /*in_record=*/true, result);
      d.complete = false;
      break;
    }
    KeyValue kv = make_pair(file, l, *sm, sub_spec);
    if (!convert(file, kv, result)) {
      d.complete = false;
      break;
    }
    check_joins(file, l, *sm);
    if (check_empty_value(file, l, *sm)) clean = false;
    if (sub_spec->type != ValueType::array && sub_spec->type != ValueType::line &&
        sub_spec->type != ValueType::expline) {
      auto seen = std::find_if(last_of.begin(), last_of.end(), [&](const auto& e) { return e.first == sub_spec; });
      if (seen != last_of.end()) {
        duplicate(pairs[seen->second], kv);
        clean = false;
        // Slurm keeps the last value: it takes the earlier pair's place, so a line that
        // repeats one key a million times holds one pair (find() saw only the last anyway).
        pairs[seen->second] = kv;
        ptr = sm->end;
        continue;
      }
      last_of.emplace_back(sub_spec, pairs.size());
    }
    pairs.push_back(kv);
    ptr = sm->end;
  }
  if (d.complete && !only_space(s.substr(ptr))) {
    parse_error(file, l, ptr, result);
    d.complete = false;
  }
  return clean && d.complete;
}

/// find_key, remembered per spelling: a file spells each key the same way on every line, and
/// the case-insensitive search of the key table was a tenth of reading a per-node file.
const KeySpec* Reader::key_spec(KeyTable table, std::string_view key) {
  // The spellings met so far, searched first: a per-node file repeats the same few keys on
  // every line, and building the map's key and hashing it were still 8% of reading one.
  for (const Spelling& s : recent_keys_)
    if (s.table == table && s.key == key) return s.spec;
  const KeySpec* spec = mapped_key_spec(table, key);
  if (recent_keys_.size() < kRecentKeys) recent_keys_.push_back(Spelling{table, std::string(key), spec});
  return spec;
}

const KeySpec* Reader::mapped_key_spec(KeyTable table, std::string_view key) {
  key_buffer_.assign(1, char(table));
  key_buffer_.append(key);
  auto it = key_specs_.find(key_buffer_);
  if (it == key_specs_.end()) it = key_specs_.emplace(key_buffer_, find_key(table, key, profile_.version())).first;
  return it->second;
}

KeyValue Reader::make_pair(FileId file, const LogicalLine& l, const KvMatch& m, const KeySpec* spec) {
  KeyValue kv;
  kv.key = l.text.substr(m.key_begin, m.key_end - m.key_begin);
  kv.value = l.text.substr(m.value_begin, m.value_end - m.value_begin);
  kv.op = m.op;
  kv.quoted = m.quoted;
  kv.key_span = span_of(file, l, m.key_begin, m.key_end);
  kv.value_span = span_of(file, l, m.value_begin, m.value_end);
  kv.spec = spec;
  return kv;
}

bool Reader::convert(FileId file, const KeyValue& kv, ConfigFile& result) {
  std::string error;
  if (convert_value(*kv.spec, kv.value, error)) return true;
  out_.report(rules::GRS003, kv.value_span,
              fmt::format("{}={} is not a value Slurm accepts for {}", kv.key, kv.value, kv.spec->name))
      .slurm(error)
      .effect(Effect::fatal, daemon_for(options_.table))
      .help(help_for_value(*kv.spec));
  result.failed = true;
  return false;
}

}  // namespace config_detail

using config_detail::Reader;

ConfigFile parse_config_text(FileId file, const ReadOptions& options, const VersionProfile& profile,
                             SourceManager& sources, Reporter& out) {
  ConfigFile result;
  result.file = file;
  result.path = sources.path(file);
  result.exists = true;
  Reader reader(options, profile, sources, out);
  reader.parse(file, result, 0);
  return result;
}

ConfigFile read_config_file(const std::string& path, const ReadOptions& options, const VersionProfile& profile,
                            SourceManager& sources, Reporter& out) {
  ConfigFile result;
  result.path = path;
  struct stat st {};
  // Callers decide what a missing file means; any other stat() failure (a symlink loop, a
  // directory we may not search) is a file Slurm cannot read.
  if (::stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) return result;
  result.exists = true;
  FileText text;
  std::string error;
  if (!read_file_to_parse(path, text, error)) {
    result.failed = true;
    out.report(rules::GRS008, Span{}, fmt::format("{} cannot be read: {}", path, error))
        .slurm(fmt::format("s_p_parse_file: unable to read \"{}\": {}", path, error))
        .effect(Effect::fatal, config_detail::daemon_for(options.table))
        .help("point greslint at the regular text file Slurm reads");
    return result;
  }
  FileId file = sources.add(path, std::move(text));
  ConfigFile parsed = parse_config_text(file, options, profile, sources, out);
  free_parse_copies();  // this file and its Includes are read
  return parsed;
}

}  // namespace greslint
