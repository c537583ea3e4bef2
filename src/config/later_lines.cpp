// SPDX-License-Identifier: Apache-2.0
// A large file's later lines, read on a second thread while the reader reads the lines
// before them: what a file written node by node is made of, 100,000 records that need
// nothing the lines before them set.
#include <algorithm>
#include <system_error>

#include "config/reader.hpp"
#include "huge_pages.hpp"

namespace greslint::config_detail {

namespace {

/// Lines tried past the middle for one that starts where the line before has no backslash.
constexpr int kSplitTries = 64;

/// Where the later lines start: the first physical line at or past the middle of `text`
/// from `pos` (a line start) to `limit` whose line before holds no backslash, so that no
/// continuation runs into it and it starts a logical line however the lines before it are
/// read; 0 when none is near, before `limit`.
std::uint32_t split_point(std::string_view text, std::uint32_t pos, std::uint32_t limit) {
  const std::size_t middle = pos + (limit - pos) / 2;
  std::size_t previous = text.rfind('\n', middle);
  previous = previous == std::string_view::npos || previous < pos ? pos : previous + 1;
  for (int tries = 0; tries < kSplitTries; ++tries) {
    const std::size_t newline = text.find('\n', previous);
    if (newline == std::string_view::npos || newline + 1 >= limit) return 0;
    if (text.substr(previous, newline - previous).find('\\') == std::string_view::npos)
      return std::uint32_t(newline + 1);
    previous = newline + 1;
  }
  return 0;
}

}  // namespace

/// Starts reading the later half of `text` from `pos` (line `line_no`) to `limit` on a
/// thread and a core of its own, or returns null: too little to read, no free core, no place
/// to split it, or no thread to be had.
std::unique_ptr<LaterLines> Reader::read_later_lines(FileId file, std::string_view text, std::uint32_t pos,
                                                     std::uint32_t limit, std::uint32_t line_no) {
  CoreBudget* const cores = kSplitEveryFile ? nullptr : options_.cores;
  if (!kSplitEveryFile && (!cores || limit - pos < std::max<std::size_t>(options_.later_lines_from_bytes, 2)))
    return nullptr;
  const std::uint32_t begin = split_point(text, pos, limit);
  if (begin == 0 || (cores && !cores->try_take())) return nullptr;
  auto later = std::make_unique<LaterLines>();
  later->begin = begin;
  later->limit = limit;
  later->text = text;
  later->from = pos;
  later->from_line = line_no;
  later->release_pages = release_pages_;
  later->copy_heads = copy_heads_;
  later->to_mapping = to_mapping_;
  try {
    // A reader of its own: the caches of keys and repeated tails are per reader, and it
    // reports into the LaterLines' findings. The path it names in messages is this file's.
    later->done = start_task(cores, [this, file, text, cores, path = stack_.back(), &later = *later] {
      const CoreBudget::Held core(cores, std::adopt_lock);
      const line_memory::Blocks blocks;  // its lines' pairs, without taking malloc's lock per line
      Reader alone(options_, profile_, sources_, later.findings);
      alone.alone_ = true;
      alone.alone_later_ = &later;
      alone.copy_heads_ = later.copy_heads;
      alone.release_pages_ = later.release_pages;
      alone.to_mapping_ = later.to_mapping;
      alone.stack_.push_back(path);
      alone.read_alone(file, text, later);
    });
  } catch (const std::system_error&) {
    if (cores) cores->give();
    return nullptr;  // read in one piece
  }
  return later;
}

/// The thread's work: records from later.begin to later.limit, until a line needs the
/// reader's state or the reader arrives (LaterLines::unwanted).
/// Touches nothing the reader reads or writes meanwhile: `text` is the file's, held by the
/// SourceManager for the whole run, and everything it makes is later's. Its lines are
/// numbered from later.begin as line 1. Performance: counting the lines before it first was
/// a pass over half the file before the thread's first line; on a gres.conf of 800,000
/// per-GPU lines, a tenth of the thread's work. The numbers are stored in its directives and
/// comments, to which the reader adds the count it has anyway when it takes them, and named
/// in the rare message that quotes Slurm's (line_number counts them then).
void Reader::read_alone(FileId file, std::string_view text, LaterLines& later) {
  std::uint32_t pos = later.begin;
  std::uint32_t line_no = 1;
  ConfigFile& part = later.part;
  make_room(part, (later.limit - pos) / 24 + 1);  // as parse() reserves, advised for huge pages
  allow_copies(text.substr(pos, later.limit - pos));
  LogicalLine line;
  std::uint32_t lines_seen = 0;
  std::uint32_t released = later.begin;
  while (pos < later.limit && !later.unwanted.load(std::memory_order_relaxed)) {
    if (++lines_seen % kLinesPerLook == 0) advise_heap_growth();
    if (later.release_pages) release_read(text, released, pos);
    const std::uint32_t at = pos;
    const std::uint32_t at_line = line_no;
    const std::size_t comments = part.comments.size();
    next_logical_line(file, text, pos, line_no, part.comments, line);
    if (line.text.empty()) continue;
    if (part.directives.size() >= kMaxDirectives || !handle_line(file, line, part, 0)) {
      // Left to the reader from this line on, its comments included.
      pos = at;
      line_no = at_line;
      part.comments.resize(comments);
      break;
    }
  }
  if (later.release_pages) release_read(text, released, pos, 0);
  later.end = pos;
  later.end_line = line_no;
}

/// At later.begin: what the thread read takes the place of reading it here, and the reader
/// goes on where the thread stopped. Everything lands in the order a read in one piece
/// gives: directives, comments, findings (under the same per-rule limits), `failed`. The
/// directives join the file's as the thread left them (DirectiveList::append), and their
/// line numbers are made the file's on a free core while the reader goes on.
void Reader::take_later_lines(LaterLines& later, ConfigFile& result, std::uint32_t& pos, std::uint32_t& line_no) {
  // Still reading: it stops at its next line, and the reader reads on from there.
  if (options_.stop_later_lines_on_arrival) later.unwanted.store(true, std::memory_order_relaxed);
  later.done.get();    // an exception of the thread (no memory) is this reader's
  settle_numbering();  // an earlier half's, before this one's
  // Past greslint's limit of directives the reader reads on to say where it stopped.
  if (pos != later.begin || result.directives.size() + later.part.directives.size() > kMaxDirectives) return;
  // The thread's line 1 is this reader's line_no.
  const std::uint32_t lines_before = line_no - 1;
  std::vector<std::pair<Directive*, std::size_t>> runs;
  later.part.directives.for_each_run_from(0, [&runs](Directive* d, std::size_t n) { runs.emplace_back(d, n); });
  if (!later.part.directives.empty()) close_block(result);
  result.directives.append(std::move(later.part.directives));
  // Nothing but this reads or writes those directives until settle_numbering: the reader
  // adds only directives after them.
  auto number = [runs = std::move(runs), lines_before] {
    for (const auto& [first, count] : runs)
      for (std::size_t i = 0; i < count; ++i) first[i].line += lines_before;
  };
  CoreBudget* const cores = kSplitEveryFile ? nullptr : options_.cores;
  bool numbered_elsewhere = false;
  if (kSplitEveryFile || (cores && cores->try_take())) {
    try {
      numbering_ = start_task(cores, [cores, number] {
        const CoreBudget::Held core(cores, std::adopt_lock);
        number();
      });
      numbered_elsewhere = true;
    } catch (const std::system_error&) {
      if (cores) cores->give();
    }
  }
  if (!numbered_elsewhere) number();
  result.comments.reserve(result.comments.size() + later.part.comments.size());
  for (Comment& c : later.part.comments) {
    c.line += lines_before;
    result.comments.push_back(c);
  }
  result.failed = result.failed || later.part.failed;
  for (auto& object : later.kept) sources_.keep_alive(std::move(object));
  out_.absorb(std::move(later.findings));
  pos = later.end;
  line_no = later.end_line + lines_before;
}

void Reader::settle_numbering() {
  if (numbering_.valid()) numbering_.get();  // an exception of the task is this reader's
}

std::uint32_t Reader::line_number(const LogicalLine& l) {
  if (!alone_later_) return l.first_line;
  LaterLines& later = *alone_later_;
  if (!later.lines_before)
    later.lines_before = later.from_line - 1 +
                         std::uint32_t(count_newlines(later.text.substr(later.from, later.begin - later.from)));
  return l.first_line + *later.lines_before;
}

}  // namespace greslint::config_detail
