// SPDX-License-Identifier: Apache-2.0
// Reading a file on a second thread: the ids, text and findings it hands over are those a
// read on the model's own thread would have made.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
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

TEST_CASE("a rebased SourceManager numbers its files after the files ahead of it", "[source]") {
  SourceManager main;
  const FileId slurm = main.add("slurm.conf", std::string("ClusterName=c\n"));
  SourceManager later;
  later.rebase(main.file_count(), main.text_bytes());
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
  SourceManager later;
  later.rebase(main.file_count(), main.text_bytes());
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

namespace {

/// A read of one file with a finding on it, as the model's gres.conf read is.
ConfigFile read_gres(SourceManager& s, Reporter& r, std::string text = "Name=gpu Count=2\n") {
  ConfigFile f;
  f.file = s.add("gres.conf", std::move(text));
  f.files.push_back(f.file);
  f.path = s.path(f.file);
  r.report(rules::GRS001, Span{f.file, 0, 4}, "found later").related(Span{f.file, 5, 8}, "note");
  return f;
}

}  // namespace

TEST_CASE("ReadAhead hands over a read made on another thread, numbered after the files placed before it",
          "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  std::thread::id reader;
  model::ReadAhead ahead([&reader](SourceManager& s, Reporter& r) {
    reader = std::this_thread::get_id();
    return read_gres(s, r);
  });
  // Read meanwhile, as slurm.conf, its Include and cgroup.conf are: the read ahead started first.
  sources.add("slurm.conf", std::string("GresTypes=gpu\nInclude nodes.conf\n"));
  sources.add("nodes.conf", std::string("NodeName=n1\n"));
  out.report(rules::GRS002, Span{FileId{0}, 0, 1}, "found first");
  ahead.place(sources, false);
  std::optional<ConfigFile> file = ahead.finish(sources, out);
  REQUIRE(file);
  CHECK(reader != std::this_thread::get_id());
  CHECK(file->file.index == 2);
  REQUIRE(file->files.size() == 1);
  CHECK(file->files[0].index == 2);
  CHECK(sources.file_count() == 3);
  CHECK(sources.text_bytes() == 33 + 12 + 17);
  CHECK(sources.text(Span{file->file, 0, 8}) == "Name=gpu");
  REQUIRE(out.diagnostics().size() == 2);
  CHECK(out.diagnostics()[0].message == "found first");
  CHECK(out.diagnostics()[1].message == "found later");
  CHECK(out.diagnostics()[1].span.file.index == 2);
  CHECK(out.diagnostics()[1].related.at(0).span.file.index == 2);
  CHECK(sources.add("job.sh", std::string("#!/bin/sh\n")).index == 3);
}

TEST_CASE("a read ahead's directives move to their final file ids", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  const VersionProfile profile(kSlurm2205);
  model::ReadAhead ahead([&profile](SourceManager& s, Reporter& r) {
    ReadOptions o;
    o.table = KeyTable::gres_conf;
    // A repeated tail and an escaped line: the head, the tail's pairs and a cooked line.
    return parse_config_text(s.add("gres.conf", std::string("NodeName=a Name=gpu File=/dev/nvidia0\n"
                                                             "NodeName=b Name=gpu File=/dev/nvidia0\n"
                                                             "NodeName=c Name=gpu \\\n File=/dev/nvidia1 # n\n")),
                             o, profile, s, r);
  });
  sources.add("slurm.conf", std::string("GresTypes=gpu\n"));
  ahead.place(sources, false);
  std::optional<ConfigFile> file = ahead.finish(sources, out);
  REQUIRE(file);
  REQUIRE(file->directives.size() == 3);
  for (const Directive& d : file->directives) {
    CHECK(d.span.file.index == 1);
    CHECK(d.head().key_span.file.index == 1);
    CHECK(d.head().value_span.file.index == 1);
    const KeyValue* f = d.find("File");
    REQUIRE(f);
    CHECK(f->value_span.file.index == 1);
    CHECK(sources.text(f->value_span).substr(0, 11) == "/dev/nvidia");
  }
  CHECK(sources.text(file->directives[1].head().value_span) == "b");
}

TEST_CASE("ReadAhead hands nothing over when a file was read between place and finish", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  model::ReadAhead ahead([](SourceManager& s, Reporter& r) { return read_gres(s, r); });
  ahead.place(sources, false);
  sources.add("cgroup.conf", std::string("ConstrainDevices=yes\n"));
  CHECK_FALSE(ahead.finish(sources, out));
  CHECK(sources.file_count() == 1);
  CHECK(out.diagnostics().empty());
}

TEST_CASE("ReadAhead hands nothing over when it was never placed", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  bool then_ran = false;
  {
    model::ReadAhead unwanted([](SourceManager& s, Reporter& r) { return read_gres(s, r); },
                              [&](ConfigFile&, std::uint16_t, const SourceManager&, Reporter&) { then_ran = true; });
    // Destroyed unplaced (slurm.conf set no GresTypes, or the run stopped): no wait forever.
  }
  model::ReadAhead ahead([](SourceManager& s, Reporter& r) { return read_gres(s, r); });
  CHECK_FALSE(ahead.finish(sources, out));
  CHECK(out.diagnostics().empty());
  CHECK_FALSE(then_ran);
}

TEST_CASE("an Include of %c read ahead is read again once ClusterName is known", "[read-ahead]") {
  auto cluster_include = [](SourceManager& s, Reporter& r) {
    ConfigFile f = read_gres(s, r);
    f.include_used_cluster_name = true;
    return f;
  };
  SourceManager sources;
  Reporter out;
  sources.add("slurm.conf", std::string("ClusterName=c\n"));
  model::ReadAhead named(cluster_include);
  named.place(sources, true);
  CHECK_FALSE(named.finish(sources, out));
  // Without a ClusterName, a read in turn would not know one either: the read holds.
  model::ReadAhead unnamed(cluster_include);
  unnamed.place(sources, false);
  CHECK(unnamed.finish(sources, out));
}

TEST_CASE("a read ahead past greslint's reading limits with the files before it is read again", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  const std::string big(1 << 20, 'x');
  std::size_t files = 0;
  while (within_read_limits(sources.file_count() + 2, sources.text_bytes() + big.size())) {
    sources.add("slurm-" + std::to_string(files++) + ".conf", big);
  }
  // One more file of its own takes the run past the limit a read in turn would have stopped at.
  model::ReadAhead ahead([](SourceManager& s, Reporter& r) { return read_gres(s, r, std::string(1 << 20, 'y')); });
  ahead.place(sources, false);
  CHECK_FALSE(ahead.finish(sources, out));
  CHECK(out.diagnostics().empty());
  // Within them, it holds.
  SourceManager few;
  few.add("slurm.conf", big);
  model::ReadAhead small([](SourceManager& s, Reporter& r) { return read_gres(s, r); });
  small.place(few, false);
  CHECK(small.finish(few, out));
}

TEST_CASE("ReadAhead runs what comes next on its thread with the final ids, after the read's findings",
          "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  sources.add("slurm.conf", std::string("GresTypes=gpu\n"));
  std::thread::id then_thread;
  FileId seen;
  FileId seen_directive;
  std::uint16_t shifted_by = 0;
  std::string seen_text;
  model::ReadAhead ahead(
      [](SourceManager& s, Reporter& r) {
        ConfigFile f = read_gres(s, r);
        Directive d;
        d.span = Span{f.file, 0, 8};
        f.directives.push_back(std::move(d));
        return f;
      },
      [&](ConfigFile& f, std::uint16_t directives_by, const SourceManager& s, Reporter& r) {
        then_thread = std::this_thread::get_id();
        seen = f.file;
        // The directives are left to it, one pass instead of two.
        shifted_by = directives_by;
        for (Directive& d : f.directives) d.shift_file(directives_by);
        seen_directive = f.directives.front().span.file;
        seen_text = std::string(s.text(Span{f.file, 0, 8}));
        r.report(rules::GRS216, Span{f.file, 0, 4}, "found next");
      });
  ahead.place(sources, false);
  REQUIRE(ahead.finish(sources, out));
  CHECK(then_thread != std::this_thread::get_id());
  CHECK(seen.index == 1);
  CHECK(shifted_by == 1);
  CHECK(seen_directive.index == 1);
  CHECK(seen_text == "Name=gpu");
  REQUIRE(out.diagnostics().size() == 2);
  CHECK(out.diagnostics()[0].message == "found later");
  CHECK(out.diagnostics()[1].message == "found next");
}

TEST_CASE("ReadAhead rethrows what the read threw, after handing over its findings", "[read-ahead]") {
  SourceManager sources;
  Reporter out;
  bool then_ran = false;
  model::ReadAhead ahead(
      [](SourceManager& s, Reporter& r) -> ConfigFile {
        const FileId f = s.add("gres.conf", std::string("Name=gpu\n"));
        r.report(rules::GRS008, Span{f, 0, 4}, "greslint stops here");
        throw std::runtime_error("stopped");
      },
      [&](ConfigFile&, std::uint16_t, const SourceManager&, Reporter&) { then_ran = true; });
  ahead.place(sources, false);
  CHECK_THROWS_WITH(ahead.finish(sources, out), "stopped");
  CHECK(sources.file_count() == 1);
  REQUIRE(out.diagnostics().size() == 1);
  CHECK(out.diagnostics()[0].message == "greslint stops here");
  CHECK(out.diagnostics()[0].span.file.index == 0);
  CHECK_FALSE(then_ran);
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

TEST_CASE("a gres.conf Include of %c reads the ClusterName slurm.conf sets", "[read-ahead]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "greslint-read-ahead-cluster";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "slurm.conf") << "SlurmctldHost=h\nInclude cluster.conf\nGresTypes=gpu\n"
                                       "NodeName=n[1-2] Gres=gpu:2 CPUs=8\nPartitionName=all Nodes=ALL\n";
  std::ofstream(dir / "cluster.conf") << "ClusterName=Alpha\n";
  std::ofstream(dir / "gres.conf") << "Include gres-%c.conf\n";
  std::ofstream(dir / "gres-alpha.conf") << "Name=gpu File=/dev/nvidia[0-1] Bogus=1\n";
  const LintInputs inputs{(dir / "slurm.conf").string(), (dir / "gres.conf").string(), (dir / "cgroup.conf").string(), {}};
  SourceManager sources;
  Reporter out;
  analyze(inputs, VersionProfile(kSlurm2205), sources, out);
  const Diagnostic* unknown = nullptr;
  for (const Diagnostic& d : out.diagnostics()) {
    CHECK(d.rule != &rules::GRS005);  // the Include found its file
    if (d.rule == &rules::GRS002) unknown = &d;
  }
  REQUIRE(unknown);
  CHECK(sources.path(unknown->span.file) == (dir / "gres-alpha.conf").string());
  CHECK(unknown->span.file.index == 3);  // slurm.conf, cluster.conf, gres.conf, then it
  CHECK(sources.text(unknown->span) == "Bogus");
  fs::remove_all(dir);
}
