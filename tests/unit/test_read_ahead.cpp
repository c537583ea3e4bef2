// SPDX-License-Identifier: Apache-2.0
// Reading a file on a second thread: the ids, text and findings it hands over are those a
// read on the model's own thread would have made.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <thread>

#include "greslint/config.hpp"
#include "greslint/model.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"
#include "greslint/version.hpp"
#include "model/read_ahead.hpp"
#include "rules/rules.hpp"

using namespace greslint;

TEST_CASE("a continued SourceManager numbers its files after the one it continues", "[source]") {
  SourceManager main;
  const FileId slurm = main.add("slurm.conf", std::string("ClusterName=c\n"));
  SourceManager later = main.continuation();
  CHECK(later.file_count() == 1);
  CHECK(later.text_bytes() == 14);
  // Short texts live inside their std::string: adopting must not move them.
  const FileId gres = later.add("gres.conf", std::string("Name=gpu\n"));
  const FileId inc = later.add("gres-a.conf", std::string(1000, 'x'));
  const std::string_view kept = later.keep("cooked");
  const std::string_view short_text = later.text(gres);
  CHECK(gres.index == 1);
  CHECK(inc.index == 2);

  REQUIRE(main.adopt(std::move(later)));
  CHECK(main.file_count() == 3);
  CHECK(main.text_bytes() == 14 + 9 + 1000);
  CHECK(main.path(gres) == "gres.conf");
  CHECK(main.text(gres).data() == short_text.data());
  CHECK(main.text(Span{gres, 0, 4}) == "Name");
  CHECK(main.line_col(inc, 10).column == 11);
  CHECK(kept == "cooked");
  CHECK(main.text(slurm) == "ClusterName=c\n");
  CHECK(main.add("cgroup.conf", std::string()).index == 3);
}

TEST_CASE("adopt refuses files whose ids a file added in the meantime took", "[source]") {
  SourceManager main;
  main.add("slurm.conf", std::string("A=1\n"));
  SourceManager later = main.continuation();
  later.add("gres.conf", std::string("Name=gpu\n"));
  main.add("cgroup.conf", std::string("B=2\n"));  // id 1, which later gave gres.conf
  CHECK_FALSE(main.adopt(std::move(later)));
  CHECK(main.file_count() == 2);
  CHECK(main.path(FileId{1}) == "cgroup.conf");
}

TEST_CASE("absorb keeps and drops what reporting in one reporter would", "[report]") {
  const Span at{FileId{0}, 0, 1};
  const std::size_t limit = Reporter::kMaxPerRule;
  Reporter one, main, later;
  for (std::size_t i = 0; i < limit - 10; ++i) {
    one.report(rules::GRS004, at, "before " + std::to_string(i));
    main.report(rules::GRS004, at, "before " + std::to_string(i));
  }
  for (std::size_t i = 0; i < 30; ++i) {
    one.report(rules::GRS004, at, "after " + std::to_string(i));
    later.report(rules::GRS004, at, "after " + std::to_string(i));
  }
  one.report(rules::GRS001, at, "parse");
  later.report(rules::GRS001, at, "parse");
  main.absorb(std::move(later));

  REQUIRE(main.diagnostics().size() == one.diagnostics().size());
  for (std::size_t i = 0; i < one.diagnostics().size(); ++i)
    CHECK(main.diagnostics()[i].message == one.diagnostics()[i].message);
  CHECK(main.dropped() == one.dropped());
  CHECK(main.dropped().at("GRS004") == 20);
  CHECK(main.saturated(rules::GRS004));
}

TEST_CASE("ReadAhead hands over a read made on another thread", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  sources.add("slurm.conf", std::string("GresTypes=gpu\n"));
  out.report(rules::GRS002, Span{FileId{0}, 0, 1}, "found first");
  std::thread::id reader;
  model::ReadAhead ahead(sources, [&reader](SourceManager& s, Reporter& r) {
    reader = std::this_thread::get_id();
    ConfigFile f;
    f.file = s.add("gres.conf", std::string("Name=gpu Count=2\n"));
    f.path = s.path(f.file);
    r.report(rules::GRS001, Span{f.file, 0, 4}, "found later");
    return f;
  });
  std::optional<ConfigFile> file = ahead.finish(sources, out);
  REQUIRE(file);
  CHECK(reader != std::this_thread::get_id());
  CHECK(file->file.index == 1);
  CHECK(sources.text(Span{file->file, 0, 8}) == "Name=gpu");
  REQUIRE(out.diagnostics().size() == 2);
  CHECK(out.diagnostics()[0].message == "found first");
  CHECK(out.diagnostics()[1].message == "found later");
  CHECK(out.diagnostics()[1].span.file.index == 1);
}

TEST_CASE("ReadAhead hands nothing over when a file was read in the meantime", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  model::ReadAhead ahead(sources, [](SourceManager& s, Reporter& r) {
    ConfigFile f;
    f.file = s.add("gres.conf", std::string("Name=gpu\n"));
    r.report(rules::GRS001, Span{f.file, 0, 4}, "would name the wrong file");
    return f;
  });
  sources.add("cgroup.conf", std::string("ConstrainDevices=yes\n"));
  CHECK_FALSE(ahead.finish(sources, out));
  CHECK(sources.file_count() == 1);
  CHECK(out.diagnostics().empty());
}

TEST_CASE("ReadAhead rethrows what the read threw, after handing over its findings", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  model::ReadAhead ahead(sources, [](SourceManager& s, Reporter& r) -> ConfigFile {
    const FileId f = s.add("gres.conf", std::string("Name=gpu\n"));
    r.report(rules::GRS008, Span{f, 0, 4}, "greslint stops here");
    throw std::runtime_error("stopped");
  });
  CHECK_THROWS_WITH(ahead.finish(sources, out), "stopped");
  CHECK(sources.file_count() == 1);
  REQUIRE(out.diagnostics().size() == 1);
  CHECK(out.diagnostics()[0].message == "greslint stops here");
}

TEST_CASE("a gres.conf read ahead reports its findings at its own lines", "[read-ahead]") {
  ConfigTexts texts;
  texts.slurm_conf =
      "ClusterName=t\nSlurmctldHost=h\nGresTypes=gpu\nNodeName=n[1-2] Gres=gpu:2 CPUs=8\n"
      "PartitionName=all Nodes=ALL\n";
  texts.gres_conf = "Name=gpu File=/dev/nvidia[0-1]\nNodeName=n1 Name=gpu Bogus=1\n";
  texts.cgroup_conf = "ConstrainDevices=yes\n";
  SourceManager sources;
  Reporter out;
  analyze_text(texts, VersionProfile(kSlurm2205), sources, out);
  const Diagnostic* unknown = nullptr;
  for (const Diagnostic& d : out.diagnostics())
    if (d.rule == &rules::GRS002) unknown = &d;
  REQUIRE(unknown);
  CHECK(sources.path(unknown->span.file) == "/etc/slurm/gres.conf");
  CHECK(unknown->span.file.index == 2);  // after slurm.conf and cgroup.conf, as when read in turn
  CHECK(sources.text(unknown->span) == "Bogus");
  CHECK(sources.line_col(unknown->span.file, unknown->span.begin).line == 2);
}

TEST_CASE("count_newlines counts every newline, in whole blocks and the tail", "[source]") {
  CHECK(count_newlines("") == 0);
  CHECK(count_newlines("no newline") == 0);
  std::string text;
  std::size_t expected = 0;
  for (int i = 0; i < 1000; ++i) {
    text += std::string(std::size_t(i % 37), 'x');
    text += '\n';
    ++expected;
    if (i % 5 == 0) text += "\n\n";
    if (i % 5 == 0) expected += 2;
  }
  CHECK(count_newlines(text) == expected);
  CHECK(count_newlines(std::string_view(text).substr(1)) == expected - (text[0] == '\n' ? 1 : 0));
  CHECK(count_newlines(std::string(31, '\n')) == 31);
}

TEST_CASE("count_newlines sums lanes past 255 blocks of newlines", "[source]") {
  // 255 blocks fill a byte lane; a text of only newlines checks the lanes are summed in time.
  CHECK(count_newlines(std::string(16 * 255, '\n')) == 16 * 255);
  CHECK(count_newlines(std::string(16 * 256 + 7, '\n')) == 16 * 256 + 7);
  CHECK(count_newlines(std::string(100000, '\n')) == 100000);
}
