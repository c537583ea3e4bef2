// SPDX-License-Identifier: Apache-2.0
// A large file's later lines read on a second thread (LaterLines): the same directives,
// comments, findings and verdict as a read on one thread, whatever the lines hold.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "config/reader.hpp"
#include "greslint/config.hpp"
#include "greslint/line_allocator.hpp"
#include "read_compare.hpp"

using namespace greslint;
using test::Read;
using test::same_pair;
using test::same_span;

namespace {

/// Reads `text` as slurm.conf (or gres.conf) with `cores` (null: on one thread), splitting
/// when `from_bytes` are left (the default: as a run does). Unless `stop_on_arrival`, every
/// core that took lines reads them all (ReadOptions::stop_later_lines_on_arrival), so that
/// what each did can be counted whatever the scheduler does.
std::unique_ptr<Read> read_split(const std::string& text, CoreBudget* cores, KeyTable table = KeyTable::slurm_conf,
                           std::size_t from_bytes = ReadOptions{}.later_lines_from_bytes,
                           const std::string& dir = "/nonexistent-greslint-test", bool stop_on_arrival = false) {
  auto r = std::make_unique<Read>();
  const FileId id = r->sources.add(dir + "/nodes.conf", std::string(text));
  ReadOptions o;
  o.table = table;
  o.slurm_conf_dir = dir;
  o.cores = cores;
  o.later_lines_from_bytes = from_bytes;
  o.stop_later_lines_on_arrival = stop_on_arrival;
  r->file = parse_config_text(id, o, VersionProfile(kSlurm2405), r->sources, r->out);
  return r;
}

/// Everything a read hands on, compared field by field.
void require_same_split(const Read& one, const Read& split) {
  REQUIRE(split.file.failed == one.file.failed);
  REQUIRE(split.file.truncated == one.file.truncated);
  REQUIRE(split.file.directives.size() == one.file.directives.size());
  for (std::size_t i = 0; i < one.file.directives.size(); ++i) {
    const Directive& a = one.file.directives[i];
    const Directive& b = split.file.directives[i];
    CAPTURE(i, a.line);
    REQUIRE(b.line == a.line);
    REQUIRE(b.kind == a.kind);
    REQUIRE(b.complete == a.complete);
    REQUIRE(same_span(b.span, a.span));
    REQUIRE(same_pair(b.head(), a.head()));
    REQUIRE(b.rest().size() == a.rest().size());
    for (std::size_t k = 0; k < a.rest().size(); ++k) REQUIRE(same_pair(b.rest()[k], a.rest()[k]));
  }
  REQUIRE(split.file.comments.size() == one.file.comments.size());
  for (std::size_t i = 0; i < one.file.comments.size(); ++i) {
    REQUIRE(split.file.comments[i].line == one.file.comments[i].line);
    REQUIRE(same_span(split.file.comments[i].span, one.file.comments[i].span));
  }
  const auto& a = one.out.diagnostics();
  const auto& b = split.out.diagnostics();
  REQUIRE(b.size() == a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i, a[i].message);
    REQUIRE(b[i].rule == a[i].rule);
    REQUIRE(same_span(b[i].span, a[i].span));
    REQUIRE(b[i].message == a[i].message);
    REQUIRE(b[i].slurm_message == a[i].slurm_message);
    REQUIRE(b[i].related.size() == a[i].related.size());
  }
  REQUIRE(split.out.dropped() == one.out.dropped());
}

/// A node file of `nodes` lines (~100 bytes each: 10,000 lines are past the size at which a
/// free core takes the later half), with `extra(i)` after line i.
template <typename Extra>
std::string node_file(int nodes, Extra extra) {
  std::string text = "# nodes, one per line\n";
  for (int i = 0; i < nodes; ++i) {
    text += "NodeName=n" + std::to_string(100000 + i) +
            " Sockets=2 CoresPerSocket=32 ThreadsPerCore=2 RealMemory=1000000 Gres=gpu:a100:8\n";
    text += extra(i);
  }
  return text;
}

}  // namespace

TEST_CASE("later lines: a file of records reads the same on two threads", "[reader][later_lines]") {
  const std::string text = node_file(20000, [](int) { return std::string(); });
  REQUIRE(text.size() >= ReadOptions{}.later_lines_from_bytes);
  CoreBudget cores(2);
  const auto one = read_split(text, nullptr);
  const auto split = read_split(text, &cores);
  REQUIRE(one->file.directives.size() == 20000);
  require_same_split(*one, *split);
  // The line numbers of the later half are counted from the file's start.
  CHECK(split->file.directives.back().line == 20001);
  CHECK(split->file.directives.back().head().value == "n119999");
}

TEST_CASE("later lines: a file whose every line is unique keeps the later half's pairs in blocks", "[reader][later_lines]") {
  // One NodeName line per node, each with its own NodeAddr=: no line repeats another's tail,
  // so every line holds its own pairs, on the thread that read it (line_memory::Blocks).
  const std::size_t before = line_memory::blocks_alive();
  const std::string text = node_file(20000, [](int) { return std::string(); });
  std::string with_addresses;
  int n = 0;
  for (std::size_t at = 0, next; (next = text.find('\n', at)) != std::string::npos; at = next + 1) {
    std::string line = text.substr(at, next - at);
    if (line.rfind("NodeName=", 0) == 0)
      line.insert(line.find(' '), " NodeAddr=10.1." + std::to_string(n / 256) + "." + std::to_string(n % 256)), ++n;
    with_addresses += line + "\n";
  }
  CoreBudget cores(2);
  auto split = read_split(with_addresses, &cores);
  const auto one = read_split(with_addresses, nullptr);
  require_same_split(*one, *split);
  CHECK(split->file.directives.back().find("NodeAddr")->value == "10.1.78.31");
  CHECK(line_memory::blocks_alive() > before);
  split.reset();
  CHECK(line_memory::blocks_alive() == before);
}

TEST_CASE("later lines: what needs the reader's state is read in turn, in order", "[reader][later_lines]") {
  // Past the middle: settings (a repeat of one set before the middle, and ClusterName), an
  // Include of a file that is missing, continuation and escape lines, suppression comments,
  // a line of spaces, and the findings of records (unknown key, bad value, repeated key,
  // trailing text). Each must come out where a read on one thread puts it.
  const std::string text = "MaxJobCount=100\n" + node_file(20000, [](int i) -> std::string {
    switch (i) {
      case 12000: return "MaxJobCount=200\n";
      case 12500: return "ClusterName=later\n";
      case 13000: return "Include missing-later.conf\n";
      case 13500: return "NodeName=c1 Sockets=2 \\\n  CoresPerSocket=8\n";
      case 14000: return "NodeName=e\\1 Sockets=2\n";
      case 14500: return "# greslint: disable=GRS102\n";
      case 15000: return "   \n";
      case 15500: return "NodeName=u1 Bogus=1\n";
      case 16000: return "NodeName=v1 CPUs=abc\n";
      case 16500: return "NodeName=d1 CPUs=4 CPUs=8\n";
      case 17000: return "NodeName=t1 CPUs=4 trailing\n";
      case 17500: return "NotAKey=1\n";
      default: return "";
    }
  });
  CoreBudget cores(2);
  const auto one = read_split(text, nullptr);
  const auto split = read_split(text, &cores);
  require_same_split(*one, *split);
  CHECK(one->file.failed);
  const auto& d = one->out.diagnostics();
  REQUIRE(d.size() >= 7);
  // In file order: the findings of later lines follow those before them.
  for (std::size_t i = 1; i < d.size(); ++i) CHECK(d[i - 1].span.begin <= d[i].span.begin);
}

TEST_CASE("later lines: a per-rule limit counts across the two halves", "[reader][later_lines]") {
  // 1,500 unknown keys in records, most past the middle: the first 1,000 kept, the rest
  // counted as dropped, as on one thread.
  const std::string text = node_file(20000, [](int i) {
    return i % 10 == 0 && i >= 5000 ? "NodeName=x" + std::to_string(i) + " Bogus=1\n" : std::string();
  });
  CoreBudget cores(2);
  const auto one = read_split(text, nullptr);
  const auto split = read_split(text, &cores);
  require_same_split(*one, *split);
  REQUIRE(one->out.dropped().count("GRS002") == 1);
  CHECK(one->out.dropped().at("GRS002") == 500);
}

TEST_CASE("later lines: gres.conf records on two threads", "[reader][later_lines]") {
  std::string text = "AutoDetect=off\n";
  for (int i = 0; i < 20000; ++i) {
    const std::string node = "NodeName=g" + std::to_string(100000 + i);
    text += node + " Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-31\n";
    text += node + " Name=gpu Type=a100 File=/dev/nvidia[4-7] Cores=32-63\n";
  }
  CoreBudget cores(2);
  const auto one = read_split(text, nullptr, KeyTable::gres_conf);
  const auto split = read_split(text, &cores, KeyTable::gres_conf);
  require_same_split(*one, *split);
  CHECK(one->file.directives.size() == 40001);
}

TEST_CASE("later lines: only a free core reads them", "[reader][later_lines]") {
  const std::string text = node_file(20000, [](int) { return std::string(); });
  CoreBudget none(1);  // the reader's own core and no other
  const auto one = read_split(text, &none);
  CHECK(none.taken() == 0);
  CoreBudget two(2);
  const auto split = read_split(text, &two);
  require_same_split(*one, *split);
  if (config_detail::kSplitEveryFile) return;  // that build splits without asking the budget
  // A core read the later lines and one numbered them, and a core that freed up before the
  // reader arrived may have read half of what was left before them.
  CHECK(two.taken() >= 2);
  CHECK(two.try_take());  // given back once its lines were read and numbered
  // A small file is read on one thread, free core or not.
  CoreBudget spare(2);
  read_split(node_file(100, [](int) { return std::string(); }), &spare);
  CHECK(spare.taken() == 0);
}

TEST_CASE("later lines: a core that frees up reads half of the lines still left before the later ones",
          "[reader][later_lines]") {
  // Three cores: the first free one takes the later half of the file at the reader's first
  // line, the second half of what lies before that 1,024 lines on. The reader takes each in
  // turn, stopping any still reading when it arrives where its lines begin.
  const std::string text = node_file(30000, [](int i) { return i % 7000 == 0 ? "# comment\n" : ""; });
  CoreBudget three(3);
  const auto one = read_split(text, nullptr);
  const auto split = read_split(text, &three);
  require_same_split(*one, *split);
  CHECK(split->file.directives.back().line == 30000 + 1 + 5);
  // As a run reads: a core still reading where the reader arrives stops there.
  CoreBudget again(3);
  require_same_split(*one, *read_split(text, &again, KeyTable::slurm_conf, ReadOptions{}.later_lines_from_bytes,
                                       "/nonexistent-greslint-test", true));
  if (config_detail::kSplitEveryFile) return;
  CHECK(three.taken() >= 3);  // two splits, and a numbering at least
  CHECK(three.try_take());
  CHECK(three.try_take());
}

TEST_CASE("later lines: included files split one after another read as in one piece", "[reader][later_lines]") {
  // Each included file's later directives are numbered on another core while the reader
  // returns to slurm.conf and reads the next Include: the lines between (a setting, a
  // finding, a node line) and the next file must land after them, numbered as before.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "greslint-later-includes";
  fs::create_directories(dir);
  for (const char* name : {"a.conf", "b.conf", "c.conf"})
    std::ofstream(dir / name) << node_file(6000, [](int i) { return i == 4000 ? "# comment 4000\n" : ""; });
  REQUIRE(fs::file_size(dir / "a.conf") >= ReadOptions{}.later_lines_from_bytes);
  const std::string text =
      "ClusterName=c\nInclude a.conf\nMaxJobCount=5\nInclude b.conf\nNodeName=x1 CPUs=x\n"
      "Include c.conf\nInclude missing.conf\nNodeName=x2 CPUs=4\n";
  CoreBudget two(2);
  const auto one = read_split(text, nullptr, KeyTable::slurm_conf, ReadOptions{}.later_lines_from_bytes, dir.string());
  const auto split = read_split(text, &two, KeyTable::slurm_conf, ReadOptions{}.later_lines_from_bytes, dir.string());
  REQUIRE(one->file.directives.size() == 3 * 6000 + 4);
  require_same_split(*one, *split);
  CHECK(split->file.directives.back().head().value == "x2");
  // The first file's later half, and its numbering. A later file splits only if the core is
  // free when it starts: the numbering before may still hold it on a loaded machine.
  if (!config_detail::kSplitEveryFile) CHECK(two.taken() >= 2);
  fs::remove_all(dir);
}

TEST_CASE("later lines: random files split anywhere read as in one piece", "[reader][later_lines]") {
  // Lines of every kind the split treats differently, in random order; with no size
  // threshold the reader splits the rest in two at its first line and every 1,024 lines.
  static const char* const kLines[] = {
      "NodeName=n{} CPUs=4 Gres=gpu:2\n",
      "NodeName=n{} CPUs=4 Gres=gpu:2\n",
      "NodeName=n{} CPUs=4 Gres=gpu:2\n",
      "NodeName=m{} Sockets=2 CoresPerSocket=4 CPUs=8 CPUs=16\n",
      "NodeName=b{} Bogus=1\n",
      "NodeName=v{} CPUs=x{}\n",
      "NodeName=t{} CPUs=4 tail{}\n",
      "NodeName=k{} CPUs=4 \\\n  RealMemory=10\n",
      "NodeName=e\\{} CPUs=4\n",
      "NodeName=q{} Feature=\"a b\"\n",
      "PartitionName=p{} Nodes=n[1-2]\n",
      "MaxJobCount={}\n",
      "ClusterName=c{}\n",
      "Include missing{}.conf\n",
      "Include inc.conf\n",
      "MaxJobCount={} # greslint: disable=GRS004\n",
      "# greslint: disable=GRS004 {}\n",
      "# plain comment {}\n",
      "\n",
      "   \n",
      "junk{}\n",
      "NodeName=z{} CPUs=1 # greslint: disable=GRS003\n",
  };
  // An Include that exists: the reader adds its file to the SourceManager while the other
  // thread reads (ThreadSanitizer sees any use of the manager there).
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "greslint-later-lines";
  fs::create_directories(dir);
  std::ofstream(dir / "inc.conf") << "NodeName=inc1 CPUs=2\nMaxJobCount=7\n";
  std::mt19937 random(20261203);
  unsigned long splits = 0;
  for (int file = 0; file < 60; ++file) {
    const int lines = 2 + int(random() % 2500);
    std::string text;
    for (int i = 0; i < lines; ++i) {
      std::string line = kLines[random() % (sizeof kLines / sizeof *kLines)];
      for (std::size_t at; (at = line.find("{}")) != std::string::npos;) line.replace(at, 2, std::to_string(i));
      text += line;
    }
    CAPTURE(file, lines);
    CoreBudget cores(8);
    const auto one = read_split(text, nullptr, KeyTable::slurm_conf, 0, dir.string());
    // Half the files with the cores stopped where the reader arrives, as a run reads.
    const auto split = read_split(text, &cores, KeyTable::slurm_conf, 0, dir.string(), file % 2 == 1);
    splits += cores.taken();
    require_same_split(*one, *split);
  }
  // A file of a few lines may have no place to split (the line before each is continued).
  CHECK((splits >= 60 || config_detail::kSplitEveryFile));
  fs::remove_all(dir);
}
