// SPDX-License-Identifier: Apache-2.0
// gres.conf's records as the model gathers them: Slurm's list order, and one content id per
// thing said.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/core_budget.hpp"
#include "model/gres_records.hpp"

using namespace greslint;

namespace {

struct Gathered {
  SourceManager sources;
  Reporter out;
  ConfigFile file;
  model::GresRecords records;
};

std::unique_ptr<Gathered> gather(std::string text) {
  auto g = std::make_unique<Gathered>();
  const FileId id = g->sources.add("gres.conf", std::move(text));
  ReadOptions o;
  o.table = KeyTable::gres_conf;
  o.slurm_conf_dir = ".";
  const VersionProfile profile(kSlurm2205);
  g->file = parse_config_text(id, o, profile, g->sources, g->out);
  g->records = model::gather_gres_records(g->file, profile, g->sources, g->out);
  return g;
}

std::vector<std::uint32_t> record_lines(const model::GresRecords& r) {
  std::vector<std::uint32_t> out;
  for (const GresLine& l : r.lines) out.push_back(l.d->line);
  return out;
}

}  // namespace

TEST_CASE("gres records: Name= lines first, then NodeName= lines, each in file order", "[gres_records]") {
  auto g = gather(
      "NodeName=n1 Name=gpu File=/dev/nvidia0\n"
      "Name=gpu Type=a100 File=/dev/nvidia1\n"
      "NodeName=n2 Name=gpu File=/dev/nvidia0\n"
      "AutoDetect=off\n"
      "Name=mps Count=100\n"
      "NodeName=n3 Name=gpu File=/dev/nvidia0\n");
  const model::GresRecords& r = g->records;
  CHECK(record_lines(r) == std::vector<std::uint32_t>{2, 5, 1, 3, 6});
  std::vector<std::uint32_t> order;
  for (const GresLine& l : r.lines) order.push_back(l.file_order);
  CHECK(order == std::vector<std::uint32_t>{1, 3, 0, 2, 4});  // the AutoDetect= setting is no record
  REQUIRE(r.global_lines.size() == 2);
  CHECK(r.global_lines[0] == &r.lines[0]);
  CHECK(r.global_lines[1] == &r.lines[1]);
  CHECK(r.autodetect == "off");
  CHECK(r.lines[2].node_scoped);
  CHECK_FALSE(r.lines[0].node_scoped);
}

TEST_CASE("gres records: content ids count up in Slurm's list order", "[gres_records]") {
  // The same text after NodeName= says something different with a different number of Name=
  // lines before it (Slurm applies those first); lines saying the same share an id.
  auto g = gather(
      "NodeName=n1 Name=gpu File=/dev/nvidia0\n"   // line 1: no Name= line before it
      "NodeName=n2 Name=gpu File=/dev/nvidia0\n"   // line 2: the same as line 1
      "Name=gpu Type=a100 File=/dev/nvidia1\n"      // line 3: a global line
      "NodeName=n3 Name=gpu File=/dev/nvidia0\n"   // line 4: one Name= line before it
      "Name=gpu Type=a100 File=/dev/nvidia1\n"      // line 5: the same text as line 3
      "NodeName=n4 Name=gpu File=/dev/nvidia0\n");  // line 6: two Name= lines before it
  const model::GresRecords& r = g->records;
  REQUIRE(record_lines(r) == std::vector<std::uint32_t>{3, 5, 1, 2, 4, 6});
  // Found in file order, line 1 would take id 0; in Slurm's order the global lines come first.
  CHECK(r.contents == GresLineIds{0, 0, 1, 1, 2, 3});
}

TEST_CASE("gres records: a file without Name= lines keeps its ids in file order", "[gres_records]") {
  auto g = gather(
      "NodeName=n1 Name=gpu File=/dev/nvidia0 Cores=0-7\n"
      "NodeName=n1 Name=gpu File=/dev/nvidia1 Cores=8-15\n"
      "NodeName=n2 Name=gpu File=/dev/nvidia0 Cores=0-7\n"
      "NodeName=n2 Name=gpu File=/dev/nvidia1 Cores=8-15\n"
      "NodeName=n3 Name=gpu File=/dev/nvidia2 Cores=16-23\n");
  const model::GresRecords& r = g->records;
  CHECK(record_lines(r) == std::vector<std::uint32_t>{1, 2, 3, 4, 5});
  CHECK(r.contents == GresLineIds{0, 1, 0, 1, 2});
  CHECK(r.global_lines.empty());
}

TEST_CASE("gres records: lines read from their own copies get the ids of what the file says", "[gres_records]") {
  // A line that repeats a tail is read from the tail's copy (ContentIds::text_after_head), but
  // for one whose head's value ends in a closing quote, which the two lines that made the tail
  // lacked: read from the file. Twelve tails, four rounds: more than the ids of recent lines
  // remember, so the last round is looked up by text, and finds what the third made.
  std::string text;
  for (int round = 0; round < 4; ++round)
    for (int k = 0; k < 12; ++k) {
      const std::string node = "n" + std::to_string(round);
      text += "NodeName=" + (round < 2 ? node : "\"" + node + "\"") + " Name=gpu File=/dev/nvidia" + std::to_string(k) + "\n";
    }
  text += "NodeName=n9 Name=gpu File=/dev/nvidia0\n";  // the first text again
  auto g = gather(text);
  const model::GresRecords& r = g->records;
  REQUIRE(r.lines.size() == 49);
  REQUIRE(g->file.directives[24].repeated_tail() != nullptr);
  REQUIRE(g->file.directives[24].gap_text() == "\"");
  GresLineIds want;
  for (int round = 0; round < 4; ++round)
    for (std::uint32_t k = 0; k < 12; ++k) want.push_back(round < 2 ? k : 12 + k);
  want.push_back(0);
  CHECK(r.contents == want);
}

TEST_CASE("gres records: two halves gathered at once give what one pass gives", "[gres_records]") {
  // Past 4,096 directives the records are gathered in two halves when a core is free
  // (gather_gres_records). Every kind of line falls in both halves: runs of lines naming one
  // host (one of them split by the halves' boundary), Name= lines, which change the ids of
  // the NodeName= lines after them, hostlists, an invalid one (a finding), AutoDetect=.
  std::string text;
  for (int i = 0; i < 700; ++i) {
    for (int gpu = 0; gpu < 8; ++gpu)
      text += "NodeName=n" + std::to_string(i) + " Name=gpu File=/dev/nvidia" + std::to_string(gpu) + "\n";
    if (i % 97 == 0) text += "Name=mps Count=" + std::to_string(100 + i) + "\n";
    if (i % 53 == 0) text += "NodeName=n[" + std::to_string(i) + "-" + std::to_string(i + 3) + "] Name=shard Count=4\n";
    if (i % 211 == 0) text += "NodeName=n[" + std::to_string(i + 9) + "-" + std::to_string(i) + "] Name=gpu\n";
    if (i == 500) text += "AutoDetect=nvml\n";
  }
  // Six lines more put the middle of the directives inside node n350's run.
  for (int gpu = 0; gpu < 6; ++gpu) text += "NodeName=last Name=gpu File=/dev/nvidia" + std::to_string(gpu) + "\n";
  auto gather_with = [&](CoreBudget* cores) {
    auto g = std::make_unique<Gathered>();
    const FileId id = g->sources.add("gres.conf", text);
    ReadOptions o;
    o.table = KeyTable::gres_conf;
    o.slurm_conf_dir = ".";
    const VersionProfile profile(kSlurm2205);
    g->file = parse_config_text(id, o, profile, g->sources, g->out);
    g->records = model::gather_gres_records(g->file, profile, g->sources, g->out, cores);
    return g;
  };
  CoreBudget two(2);
  const auto one_pass = gather_with(nullptr);
  const auto halves = gather_with(&two);
  REQUIRE(two.taken() == 1);  // it was split
  const DirectiveList& directives = halves->file.directives;
  const std::size_t middle = directives.size() / 2;
  REQUIRE(directives[middle - 1].head_value() == directives[middle].head_value());  // inside a run
  const model::GresRecords& a = one_pass->records;
  const model::GresRecords& b = halves->records;
  REQUIRE(a.lines.size() > 4096);
  REQUIRE(a.lines.size() == b.lines.size());
  std::size_t same_host = 0;
  for (std::size_t i = 0; i < a.lines.size(); ++i) {
    const GresLine& x = a.lines[i];
    const GresLine& y = b.lines[i];
    INFO("record " << i << ", line " << x.d->line);
    CHECK(x.d->line == y.d->line);
    CHECK(x.file_order == y.file_order);
    CHECK(x.node_scoped == y.node_scoped);
    CHECK(x.nodes_valid == y.nodes_valid);
    CHECK(x.same_host_as_previous == y.same_host_as_previous);
    CHECK(bool(x.hostlist) == bool(y.hostlist));
    CHECK(nodes_of(x, a.hostlists).size() == nodes_of(y, b.hostlists).size());
    same_host += x.same_host_as_previous;
  }
  CHECK(same_host == 700 * 7 + 5);  // every line of a node's run but its first
  CHECK(a.contents == b.contents);
  REQUIRE(a.global_lines.size() == b.global_lines.size());
  CHECK(a.global_lines.size() == 8);
  CHECK(a.autodetect == "nvml");
  CHECK(b.autodetect == "nvml");
  const auto& fa = one_pass->out.diagnostics();
  const auto& fb = halves->out.diagnostics();
  REQUIRE(fa.size() == fb.size());
  CHECK(fa.size() == 4);  // the invalid hostlists, one per line
  for (std::size_t i = 0; i < fa.size(); ++i) {
    CHECK(fa[i].message == fb[i].message);
    CHECK(fa[i].span.begin == fb[i].span.begin);
  }
}
