// SPDX-License-Identifier: Apache-2.0
// A mapped file (a large one, read_file_bounded) is read as the same text in memory is, while
// the reader copies the heads of repeating lines and lets the file's pages go behind it
// (Reader::copy_head, release_read). So is one read to parse (read_file_to_parse): parsed
// from a copy of its bytes, with every view the reader keeps pointing into its mapping.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>

#include "config/reader.hpp"
#include "greslint/config.hpp"
#include "huge_pages.hpp"
#include "read_compare.hpp"

using namespace greslint;
using test::Read;
using test::same_pair;

namespace {

/// The file's text as the reader saw it.
std::string_view text_of(const Read& r) { return r.sources.text(r.file.file); }

/// A file of its own in the temporary directory, removed with it.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& text) {
    path = std::filesystem::temp_directory_path() / ("greslint-mapped-" + std::to_string(::getpid()) + "-" +
                                                      std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

/// Parses file `id` of r.sources as `table` into r.file.
void parse_as(Read& r, FileId id, KeyTable table, CoreBudget* cores) {
  ReadOptions o;
  o.table = table;
  o.slurm_conf_dir = "/nonexistent-greslint-test";
  o.cores = cores;
  r.file = parse_config_text(id, o, VersionProfile(kSlurm2405), r.sources, r.out);
}

/// Reads `text` as `table`: from memory, or from a file, mapped as a run maps a large one
/// (with a parse copy, as a run in 2 MiB pages reads it, when `copy` is given: the copy's
/// bytes go there).
std::unique_ptr<Read> read_mapped(const std::string& text, KeyTable table, const TempFile* mapped, CoreBudget* cores,
                                  std::string_view* copy = nullptr) {
  auto r = std::make_unique<Read>();
  FileId id;
  if (mapped) {
    FileText file_text;
    std::string error;
    const std::string path = mapped->path.string();
    if (copy) set_page_size(PageSize::huge);  // what this machine would choose (huge_pages.hpp) aside
    REQUIRE((copy ? read_file_to_parse(path, file_text, error) : read_file_bounded(path, file_text, error)));
    REQUIRE(file_text.is_mapped());
    REQUIRE(file_text.has_parse_copy() == bool(copy));
    if (copy) *copy = file_text.parse_view();
    id = r->sources.add(mapped->path.string(), std::move(file_text));
  } else {
    id = r->sources.add("/nonexistent-greslint-test/gres.conf", std::string(text));
  }
  parse_as(*r, id, table, cores);
  return r;
}

/// `same_tails`: both read on one thread, so the same lines repeat a tail (a thread keeps
/// tails of its own, and parses the first lines that say one).
void require_same_mapped(const Read& a, const Read& b, bool same_tails) {
  REQUIRE(b.file.failed == a.file.failed);
  REQUIRE(b.file.directives.size() == a.file.directives.size());
  for (std::size_t i = 0; i < a.file.directives.size(); ++i) {
    const Directive& x = a.file.directives[i];
    const Directive& y = b.file.directives[i];
    CAPTURE(i, x.line);
    REQUIRE(y.line == x.line);
    REQUIRE(y.complete == x.complete);
    REQUIRE(y.span.begin == x.span.begin);
    REQUIRE(y.span.end == x.span.end);
    REQUIRE(same_pair(y.head(), x.head()));
    if (same_tails) REQUIRE((y.repeated_tail() != nullptr) == (x.repeated_tail() != nullptr));
    if (x.repeated_tail() && y.repeated_tail()) REQUIRE(y.gap_text() == x.gap_text());
    REQUIRE(y.rest().size() == x.rest().size());
    for (std::size_t k = 0; k < x.rest().size(); ++k) REQUIRE(same_pair(y.rest()[k], x.rest()[k]));
  }
  REQUIRE(b.out.diagnostics().size() == a.out.diagnostics().size());
  for (std::size_t i = 0; i < a.out.diagnostics().size(); ++i)
    REQUIRE(b.out.diagnostics()[i].message == a.out.diagnostics()[i].message);
}

bool inside(std::string_view view, std::string_view text) {
  return view.data() >= text.data() && view.data() < text.data() + text.size();
}

/// A per-GPU gres.conf of `nodes` nodes, with lines that repeat no tail, quoted and spaced
/// heads, comments and findings here and there.
std::string gres_file(int nodes) {
  std::string text = "AutoDetect=off\n";
  for (int i = 0; i < nodes; ++i) {
    const std::string node = "g" + std::to_string(100000 + i);
    for (int gpu = 0; gpu < 4; ++gpu) {
      const std::string head = i % 97 == 5 ? "NodeName=\"" + node + "\"" : i % 89 == 3 ? "nodename=" + node : "NodeName=" + node;
      const std::string gap = i % 83 == 7 ? " \t " : " ";
      text += head + gap + "Name=gpu Type=a100 File=/dev/nvidia" + std::to_string(gpu) + " Cores=" +
              std::to_string(gpu * 8) + "-" + std::to_string(gpu * 8 + 7) + "\n";
    }
    if (i % 1000 == 10) text += "# a comment between nodes\n";
    if (i % 1000 == 40) text += "# greslint: ignore=GRS310\n";
    if (i % 1000 == 20) text += "NodeName=" + node + " Name=gpu Type=a100 File=/dev/nvidia9 Bogus=1\n";
    if (i % 1000 == 30) text += "NodeName=" + node + " Name=gpu Count=abc\n";
  }
  return text;
}

long rss_file_kb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  long kb = 0;
  while (status >> key) {
    if (key == "RssFile:") {
      status >> kb;
      return kb;
    }
    status.ignore(1 << 12, '\n');
  }
  return -1;
}

}  // namespace

TEST_CASE("mapped files: read as the same text in memory, on one thread and on two", "[reader][mapped]") {
  const std::string text = gres_file(8000);
  REQUIRE(text.size() > config_detail::kMapFileBytes);
  const TempFile file(text);
  CoreBudget cores(2);
  const auto in_memory = read_mapped(text, KeyTable::gres_conf, nullptr, nullptr);
  const auto mapped = read_mapped(text, KeyTable::gres_conf, &file, nullptr);
  const auto split = read_mapped(text, KeyTable::gres_conf, &file, &cores);
  require_same_mapped(*in_memory, *mapped, true);
  require_same_mapped(*in_memory, *split, false);
  REQUIRE_FALSE(in_memory->out.diagnostics().empty());
}

TEST_CASE("mapped files: what the model reads of a repeating line is not the file's text", "[reader][mapped]") {
  // The model reads every line's head, the text between it and the tail, and (for some
  // lines) the tail's pairs: were they views into the file, its pages would be read back.
  const std::string text = gres_file(8000);
  const TempFile file(text);
  CoreBudget cores(2);
  for (CoreBudget* c : {static_cast<CoreBudget*>(nullptr), &cores}) {
    const auto r = read_mapped(text, KeyTable::gres_conf, &file, c);
    std::size_t repeating = 0;
    for (const Directive& d : r->file.directives) {
      if (!d.repeated_tail()) continue;
      ++repeating;
      CAPTURE(d.line);
      REQUIRE_FALSE(inside(d.head().key, text_of(*r)));
      REQUIRE_FALSE(inside(d.head().value, text_of(*r)));
      REQUIRE_FALSE(inside(d.gap_text(), text_of(*r)));
      for (const KeyValue& kv : d.rest()) REQUIRE_FALSE(inside(kv.value, text_of(*r)));
    }
    CHECK(repeating > 30000);
    // From memory, nothing is copied: a small file's text costs nothing to keep.
    const auto in_memory = read_mapped(text, KeyTable::gres_conf, nullptr, c);
    const Directive& last = in_memory->file.directives.back();
    REQUIRE(last.repeated_tail());
    CHECK(inside(last.head().value, text_of(*in_memory)));
  }
}

TEST_CASE("mapped files: the pages read are let go, and read back intact", "[reader][mapped]") {
  const std::string text = gres_file(60000);  // ~16 MB
  REQUIRE(text.size() > std::size_t(12) << 20);
  const TempFile file(text);
  const long before = rss_file_kb();
  REQUIRE(before > 0);
  const auto r = read_mapped(text, KeyTable::gres_conf, &file, nullptr);
  const long after = rss_file_kb();
  // Mapped with MAP_POPULATE, the whole file would be resident: 16 MB.
  CHECK(after - before < 4 * 1024);
  // The views into the file (a line parsed whole, a finding's span) still read its bytes.
  REQUIRE(text_of(*r) == text);
  const Directive& first = r->file.directives.at(1);
  CHECK(first.head().value == "g100000");
  CHECK(r->sources.text(first.span) == "NodeName=g100000 Name=gpu Type=a100 File=/dev/nvidia0 Cores=0-7");
}

TEST_CASE("release_read: whole pages from where it stopped, once a step is read", "[reader][mapped]") {
  const std::string text(std::size_t(4) << 20, 'x');
  const TempFile file(text);
  FileText mapped;
  std::string error;
  REQUIRE(read_file_bounded(file.path.string(), mapped, error));
  const std::string_view view = mapped.view();
  const auto page = std::uint32_t(::sysconf(_SC_PAGESIZE));
  std::uint32_t released = 0;
  config_detail::release_read(view, released, config_detail::kReleaseStep - 1);
  CHECK(released == 0);  // less than a step
  config_detail::release_read(view, released, config_detail::kReleaseStep + page / 2);
  CHECK(released == config_detail::kReleaseStep);  // the page it is in stays
  config_detail::release_read(view, released, config_detail::kReleaseStep + page + 1, 0);
  CHECK(released == config_detail::kReleaseStep + page);
  CHECK(view == text);
}

TEST_CASE("parse copies: read as the same text in memory, with nothing kept pointing into the copy", "[reader][mapped]") {
  const std::string text = gres_file(8000);
  const TempFile file(text);
  CoreBudget cores(2);
  const auto in_memory = read_mapped(text, KeyTable::gres_conf, nullptr, nullptr);
  for (CoreBudget* c : {static_cast<CoreBudget*>(nullptr), &cores}) {
    std::string_view copy;
    const auto r = read_mapped(text, KeyTable::gres_conf, &file, c, &copy);
    require_same_mapped(*in_memory, *r, c == nullptr);
    REQUIRE(copy.size() == text.size());
    REQUIRE_FALSE(r->sources.has_parse_copy(r->file.file));  // given back once parsed
    // Every view is into the mapping, or into a copy of the reader's own (a repeating
    // line's head, a tail): none into the parse copy, which the next file reuses.
    const std::string_view mapping = text_of(*r);
    std::size_t into_mapping = 0;
    auto check = [&](std::string_view view) {
      REQUIRE_FALSE(inside(view, copy));
      into_mapping += inside(view, mapping);
    };
    for (const Directive& d : r->file.directives) {
      CAPTURE(d.line);
      check(d.head().key);
      check(d.head().value);
      if (d.repeated_tail()) check(d.gap_text());
      for (const KeyValue& kv : d.rest()) {
        check(kv.key);
        check(kv.value);
      }
    }
    REQUIRE_FALSE(r->file.comments.empty());
    for (const Comment& comment : r->file.comments) {
      check(comment.text);
      CHECK(comment.text == " greslint: ignore=GRS310");
    }
    // The settings view the mapping; the records parsed whole (the first of each tail, those
    // with a finding) own a copy of their line (Reader::copy_line).
    CHECK(into_mapping > 0);
    std::size_t own_lines = 0;
    for (const Directive& d : r->file.directives) {
      if (d.kind != Directive::Kind::record || d.repeated_tail()) continue;
      CAPTURE(d.line);
      if (!d.owns_line()) continue;  // a quoted or cooked line's, or past the budget
      ++own_lines;
      REQUIRE_FALSE(inside(d.head().key, mapping));
      CHECK(d.text_after_head() == r->sources.text(Span{d.span.file, d.head_value_span().end, d.span.end}));
    }
    CHECK(own_lines > 8);
    const Directive& first = r->file.directives.at(1);
    CHECK(first.head().value == "g100000");
    CHECK(r->sources.text(first.span) == "NodeName=g100000 Name=gpu Type=a100 File=/dev/nvidia0 Cores=0-7");
  }
}

TEST_CASE("small pages: a large file is parsed from its mapping, as the same text in memory", "[reader][mapped]") {
  const std::string text = gres_file(8000);
  const TempFile file(text);
  const auto in_memory = read_mapped(text, KeyTable::gres_conf, nullptr, nullptr);
  set_page_size(PageSize::small);
  FileText file_text;
  std::string error;
  REQUIRE(read_file_to_parse(file.path.string(), file_text, error));
  set_page_size(PageSize::huge);
  REQUIRE(file_text.is_mapped());
  CHECK_FALSE(file_text.has_parse_copy());  // a copy would cost a fault per page, as the mapping does
  Read r;
  parse_as(r, r.sources.add(file.path.string(), std::move(file_text)), KeyTable::gres_conf, nullptr);
  require_same_mapped(*in_memory, r, true);
  REQUIRE(text_of(r) == text);
}

TEST_CASE("parse copies: the mapping's pages are not read", "[reader][mapped]") {
  const std::string text = gres_file(60000);  // ~16 MB
  const TempFile file(text);
  const long before = rss_file_kb();
  REQUIRE(before > 0);
  std::string_view copy;
  const auto r = read_mapped(text, KeyTable::gres_conf, &file, nullptr, &copy);
  // Only the pages of the lines parsed whole, and of the findings' lines, are read.
  CHECK(rss_file_kb() - before < 1024);
  REQUIRE(text_of(*r) == text);
}

TEST_CASE("parse copies: records that repeat nothing own a copy of their line, up to a budget", "[reader][mapped]") {
  // 30,000 lines that all differ (their own Cores=), 2 MB: the first 512 KiB and a quarter of
  // the file's size of them are copied, the rest view the mapping, as every such line did
  // before.
  std::string text;
  for (int i = 0; i < 30000; ++i)
    text += "NodeName=u" + std::to_string(100000 + i) + " Name=gpu File=/dev/nvidia0 Cores=" + std::to_string(i) + "\n";
  const TempFile file(text);
  std::string_view copy;
  const auto r = read_mapped(text, KeyTable::gres_conf, &file, nullptr, &copy);
  REQUIRE(r->file.directives.size() == 30000);
  const std::string_view mapping = text_of(*r);
  std::size_t owned_bytes = 0;
  bool past_budget = false;
  for (const Directive& d : r->file.directives) {
    CAPTURE(d.line);
    REQUIRE(d.repeated_tail() == nullptr);
    const std::string_view after = r->sources.text(Span{d.span.file, d.head_value_span().end, d.span.end});
    if (d.owns_line()) {
      REQUIRE_FALSE(past_budget);  // the first lines, in order
      owned_bytes += r->sources.text(d.span).size();
      CHECK(d.text_after_head() == after);
      REQUIRE_FALSE(inside(d.find("Cores")->value, mapping));
    } else {
      past_budget = true;
      REQUIRE(inside(d.find("Cores")->value, mapping));
    }
    REQUIRE(d.find("Cores")->value == after.substr(after.rfind('=') + 1));
  }
  CHECK(past_budget);
  const std::size_t budget = (std::size_t(512) << 10) + text.size() / 4;
  CHECK(owned_bytes <= budget);
  CHECK(owned_bytes > budget - 100);  // up to the first line that did not fit
}

TEST_CASE("parse copies: slurm.conf node lines parsed whole own a copy of their line", "[reader][mapped]") {
  // Racks of 50 nodes whose Feature= names the rack: the first two lines of each rack are
  // parsed whole (the second is when the tail is remembered), the others repeat it. The model
  // reads the lines parsed whole again, and from the mapping each read kept the pages around
  // it resident: a 100,000-node slurm.conf written so kept 15 MB of its file.
  std::string text;
  for (int rack = 0; rack < 400; ++rack)
    for (int n = 0; n < 50; ++n)
      text += "NodeName=r" + std::to_string(1000 + rack) + "n" + std::to_string(100 + n) +
              " CPUs=64 RealMemory=1000 Feature=rack" + std::to_string(rack) + ",ib State=UNKNOWN\n";
  const TempFile file(text);
  std::string_view copy;
  const auto r = read_mapped(text, KeyTable::slurm_conf, &file, nullptr, &copy);
  REQUIRE(r->file.directives.size() == 20000);
  const std::string_view mapping = text_of(*r);
  std::size_t whole = 0;
  for (const Directive& d : r->file.directives) {
    CAPTURE(d.line);
    const KeyValue* feature = d.find("Feature");
    REQUIRE(feature);
    CHECK(feature->value == r->sources.text(feature->value_span));
    if (d.repeated_tail()) continue;
    ++whole;
    REQUIRE(d.owns_line());
    CHECK_FALSE(inside(feature->value, mapping));
    CHECK_FALSE(inside(d.head_value(), mapping));
  }
  CHECK(whole == 800);
}

TEST_CASE("parse copies: node lines with a value of their own among their pairs own a copy, past 512 KiB",
          "[reader][mapped]") {
  // 40,000 node lines whose Weight= takes 4,000 values in turn: each text after the address is
  // parsed whole twice before it is remembered, 8,000 lines (1 MB) spread over the file. A
  // quarter of the file's size may be copied besides the first 512 KiB, so all of them own
  // their line, and the model's reads of them leave the mapping's pages alone.
  std::string text;
  for (int n = 0; n < 40000; ++n)
    text += "NodeName=node" + std::to_string(100000 + n) + " NodeAddr=10.0." + std::to_string(n / 250) + "." +
            std::to_string(n % 250) + " CPUs=64 RealMemory=1000 Weight=" + std::to_string(1 + n % 4000) +
            " Gres=gpu:8 State=UNKNOWN\n";
  const TempFile file(text);
  std::string_view copy;
  const auto r = read_mapped(text, KeyTable::slurm_conf, &file, nullptr, &copy);
  REQUIRE(r->file.directives.size() == 40000);
  const std::string_view mapping = text_of(*r);
  std::size_t whole = 0, whole_bytes = 0;
  for (const Directive& d : r->file.directives) {
    CAPTURE(d.line);
    const KeyValue* weight = d.find("Weight");
    REQUIRE(weight);
    CHECK(weight->value == r->sources.text(weight->value_span));
    if (d.repeated_tail()) continue;
    ++whole;
    whole_bytes += d.span.size();
    REQUIRE(d.owns_line());
    CHECK_FALSE(inside(weight->value, mapping));
  }
  CHECK(whole >= 8000);
  // The texts beside the address come round every 4,000 lines: most lines repeat one (when
  // the whole text after the name, address and all, was noted as seen too, 31,040 did not).
  CHECK(whole < 12000);
  CHECK(whole_bytes > std::size_t(512) << 10);
}

TEST_CASE("parse copies: a thread's buffer is reused by its next file, and freed when asked", "[reader][mapped]") {
  free_parse_copies();  // what an earlier test's file gave back
  constexpr std::size_t kHugePage = std::size_t(2) << 20;
  ParseCopy big = take_parse_copy(3 * kHugePage + 1);
  CHECK(big.capacity == 4 * kHugePage);  // whole huge pages
  const char* at = big.bytes.get();
  give_back_parse_copy(std::move(big));
  ParseCopy smaller = take_parse_copy(kHugePage);
#ifdef GRESLINT_COPY_EVERY_FILE
  CHECK(smaller.capacity == kHugePage);  // that build frees every copy
#else
  CHECK(smaller.bytes.get() == at);
  CHECK(smaller.capacity == 4 * kHugePage);
#endif
  give_back_parse_copy(std::move(smaller));
  free_parse_copies();
  const ParseCopy fresh = take_parse_copy(16);
  CHECK(fresh.capacity == kHugePage);
}
