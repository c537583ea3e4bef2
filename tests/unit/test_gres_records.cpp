// SPDX-License-Identifier: Apache-2.0
// gres.conf's records as the model gathers them: Slurm's list order, and one content id per
// thing said.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "greslint/config.hpp"
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
  CHECK(r.contents == std::vector<std::uint32_t>{0, 0, 1, 1, 2, 3});
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
  CHECK(r.contents == std::vector<std::uint32_t>{0, 1, 0, 1, 2});
  CHECK(r.global_lines.empty());
}
