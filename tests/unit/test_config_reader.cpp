// SPDX-License-Identifier: Apache-2.0
// The reader against Slurm's lexical rules: exact messages, exact positions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <map>
#include <random>
#include <vector>

#include "config/logical_line.hpp"
#include "greslint/config.hpp"

using namespace greslint;

namespace {

struct Parsed {
  SourceManager sources;
  Reporter out;
  ConfigFile file;
};

std::unique_ptr<Parsed> parse_config(std::string text, KeyTable table = KeyTable::slurm_conf,
                              SlurmVersion v = kSlurm2205) {
  auto p = std::make_unique<Parsed>();
  FileId id = p->sources.add("slurm.conf", std::move(text));
  ReadOptions o;
  o.table = table;
  o.slurm_conf_dir = ".";
  p->file = parse_config_text(id, o, VersionProfile(v), p->sources, p->out);
  return p;
}

LineCol at(const Parsed& p, const Diagnostic& d) { return p.sources.line_col(d.span.file, d.span.begin); }

}  // namespace

TEST_CASE("reader: Slurm's parse errors with their exact log line and position", "[reader]") {
  auto [text, rule, slurm, line, col] = GENERATE(table<std::string, std::string, std::string, int, int>({
      {"GresTypes=gpu MaxJobCount=100\n", "GRS001",
       "Parse error in file slurm.conf line 1: \" MaxJobCount=100\"", 1, 15},
      {"ClusterName=x\njusttext\n", "GRS001", "Parse error in file slurm.conf line 2: \"justtext\"", 2, 1},
      {"GresTypes=\n", "GRS001", "Parse error in file slurm.conf line 1: \"GresTypes=\"", 1, 1},
      {"  Include foo.conf\n", "GRS001", "Parse error in file slurm.conf line 1: \"  Include foo.conf\"", 1, 3},
      {"Bogus=1\n", "GRS002", "_parse_next_key: Parsing error at unrecognized key: Bogus", 1, 1},
      {"NodeName=n1 CPUs=4 Bogus=1\n", "GRS002", "Parsing error at unrecognized key: Bogus", 1, 20},
      {"NodeName=n1 CPUs=abc\n", "GRS003", "CPUs value \"abc\" is not a valid number", 1, 18},
      {"NodeName=n1 CPUs=-4\n", "GRS003", "CPUs value (-4) is less than zero", 1, 18},
      {"NodeName=n1 CPUs=70000\n", "GRS003", "CPUs value (70000) is greater than 65535", 1, 18},
      {"MaxJobCount=abc\n", "GRS003", "MaxJobCount value (abc) is not a valid number", 1, 13},
      {"NodeName=n1 CPUs=4 Gres=\n", "GRS001", "Parse error in file slurm.conf line 1: \" Gres=\"", 1, 20},
  }));
  CAPTURE(text);
  auto p = parse_config(text);
  REQUIRE(p->out.diagnostics().size() == 1);
  const Diagnostic& d = p->out.diagnostics().front();
  CHECK(d.rule->id == rule);
  CHECK(d.slurm_message == slurm);
  CHECK(at(*p, d).line == std::uint32_t(line));
  CHECK(at(*p, d).column == std::uint32_t(col));
  CHECK(p->file.failed);
}

TEST_CASE("reader: comments, escapes and continuations follow parse_config.c", "[reader]") {
  SECTION("\\# is a literal '#', and quotes do not protect '#'") {
    auto p = parse_config("ClusterName=a\\#b\nSlurmctldHost=\"x#y\"\n");
    REQUIRE(p->file.directives.size() == 2);
    CHECK(p->file.directives[0].head().value == "a#b");
    CHECK(p->out.diagnostics().empty());  // the comment cuts the quote: the value is \"x
    CHECK(p->file.directives[1].head().value == "\"x");
  }
  SECTION("a continuation joins with no space and keeps physical positions") {
    auto p = parse_config("Name=gpu\\\nFile=/dev/nvidia0\n", KeyTable::gres_conf);
    REQUIRE(p->file.directives.size() == 1);
    CHECK(p->file.directives[0].head().value == "gpuFile=/dev/nvidia0");
    const auto& diags = p->out.diagnostics();
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].rule->id == "GRS007");
    CHECK(at(*p, diags[0]).line == 2);
    CHECK(at(*p, diags[0]).column == 1);
  }
  SECTION("a token after a continuation reports its own physical line") {
    auto p = parse_config("NodeName=n1 \\\n   CPUs=abc\n");
    REQUIRE(p->out.diagnostics().size() == 1);
    CHECK(at(*p, p->out.diagnostics()[0]).line == 2);
    CHECK(at(*p, p->out.diagnostics()[0]).column == 9);
  }
  SECTION("a backslash inside a comment does not continue the line") {
    auto p = parse_config("ClusterName=x # note \\\nGresTypes=gpu\n");
    CHECK(p->file.directives.size() == 2);
    CHECK(p->out.diagnostics().empty());
  }
  SECTION("CRLF files parse") {
    auto p = parse_config("ClusterName=x\r\nGresTypes=gpu\r\n");
    CHECK(p->out.diagnostics().empty());
    CHECK(p->file.directives[1].head().value == "gpu");
  }
  SECTION("a continued line and a one-line record with the same text after the head") {
    // Records with equal text after their first pair share one parse (RepeatedTail), which
    // holds only for lines that are their file's own bytes. A continued or escaped line
    // neither lends its pairs nor takes another's: its keys and carets are its own.
    const std::string text =
        "NodeName=a CPUs=4 Gres=gpu:1\n"
        "NodeName=b CPUs=4 \\\nGres=gpu:1\n"
        "NodeName=c CPUs=4 Gres=gpu:1\n"
        "NodeName=d CPUs=4 \\\nGres=gpu:1\n";
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 4);
    CHECK(p->out.diagnostics().empty());
    for (const Directive& d : p->file.directives) {
      const KeyValue* gres = d.find("Gres");
      REQUIRE(gres != nullptr);
      CHECK(gres->key == "Gres");
      CHECK(gres->value == "gpu:1");
      CHECK(p->sources.text(gres->key_span) == "Gres");
      CHECK(p->sources.text(gres->value_span) == "gpu:1");
      CHECK(d.find("CPUs")->value == "4");
    }
    CHECK(p->sources.line_col(p->file.directives[1].find("Gres")->key_span.file,
                              p->file.directives[1].find("Gres")->key_span.begin)
              .line == 3);
  }
  SECTION("pairs view text that stays put while more files are read") {
    // Short files and short cooked lines live inside their std::string (small-string
    // buffer): the SourceManager must not move them as it grows, or the views dangle.
    auto p = parse_config("ClusterName=a\\#b\nGresTypes=gp\\\nu\nSlurmUser=x\n");
    for (int i = 0; i < 200; ++i) p->sources.add("other" + std::to_string(i), "x");
    SourceManager moved = std::move(p->sources);
    REQUIRE(p->file.directives.size() == 3);
    CHECK(p->file.directives[0].head().value == "a#b");
    CHECK(p->file.directives[1].head().value == "gpu");
    CHECK(p->file.directives[2].head().key == "SlurmUser");
    CHECK(p->file.directives[2].head().value == "x");
  }
}

TEST_CASE("reader: a head's text and spans, as written or split by escapes and continuations", "[reader]") {
  // What head() says, against the file's bytes its spans cover.
  auto check_head = [](const Parsed& p, const Directive& d, std::string_view key, std::string_view value,
                       std::string_view key_text, std::string_view value_text) {
    const KeyValue head = d.head();
    CHECK(head.key == key);
    CHECK(head.value == value);
    CHECK(d.head_value() == value);
    CHECK(p.sources.text(head.key_span) == key_text);
    CHECK(p.sources.text(head.value_span) == value_text);
    CHECK(d.head_value_span().begin == head.value_span.begin);
    CHECK(d.head_value_span().end == head.value_span.end);
  };
  SECTION("as written, quoted, after blanks") {
    auto p = parse_config("ClusterName=c1\n   NodeName=\"n1\" CPUs=4\n", KeyTable::slurm_conf);
    REQUIRE(p->file.directives.size() == 2);
    check_head(*p, p->file.directives[0], "ClusterName", "c1", "ClusterName", "c1");
    check_head(*p, p->file.directives[1], "NodeName", "n1", "NodeName", "n1");
    CHECK(p->file.directives[1].head().quoted);
  }
  SECTION("an escape in the value: the span covers the backslash") {
    auto p = parse_config("ClusterName=a\\#b\n");
    REQUIRE(p->file.directives.size() == 1);
    check_head(*p, p->file.directives[0], "ClusterName", "a#b", "ClusterName", "a\\#b");
  }
  SECTION("a continuation inside the key and inside the value") {
    auto p = parse_config("Node\\\nName=n\\\n1 CPUs=4\n");
    REQUIRE(p->file.directives.size() == 1);
    check_head(*p, p->file.directives[0], "NodeName", "n1", "Node\\\nName", "n\\\n1");
    CHECK(p->file.directives[0].find("CPUs")->value == "4");
  }
  SECTION("a value past 65,535 bytes") {
    auto p = parse_config("PartitionName=p" + std::string(70000, 'x') + " Nodes=n1\n");
    REQUIRE(p->file.directives.size() == 1);
    const std::string value = "p" + std::string(70000, 'x');
    check_head(*p, p->file.directives[0], "PartitionName", value, "PartitionName", value);
    CHECK(p->file.directives[0].find("Nodes")->value == "n1");
  }
}

TEST_CASE("reader: values, operators, duplicates", "[reader]") {
  SECTION("Key= followed by a space takes the next token") {
    auto p = parse_config("NodeName=n1 Gres= CPUs=8\n");
    REQUIRE(p->file.directives.size() == 1);
    CHECK(p->file.directives[0].find("Gres")->value == "CPUs=8");
    REQUIRE(p->out.diagnostics().size() == 1);
    CHECK(p->out.diagnostics()[0].rule->id == "GRS006");
  }
  SECTION("numbers are C literals") {
    auto p = parse_config("NodeName=n1 CoresPerSocket=010 Sockets=0x2\n");
    CHECK(p->out.diagnostics().empty());
  }
  SECTION("a repeated key keeps the last value and is reported") {
    auto p = parse_config("NodeName=n1 CPUs=4 CPUs=8\n");
    CHECK(p->file.directives[0].find("CPUs")->value == "8");
    REQUIRE(p->out.diagnostics().size() == 1);
    CHECK(p->out.diagnostics()[0].slurm_message == "CPUs 1 specified more than once, latest value used");
  }
  SECTION("keys are case-insensitive, values keep their case") {
    auto p = parse_config("nodename=N1 gres=gpu:A100:2\n");
    CHECK(p->out.diagnostics().empty());
    CHECK(p->file.directives[0].find("Gres")->value == "gpu:A100:2");
  }
  SECTION("a key of a newer release is unknown to 22.05, with a suggestion for typos") {
    auto p = parse_config("NodeName=n1 RestrictedCoresPerGPU=1\n");
    REQUIRE(p->out.diagnostics().size() == 1);
    CHECK(p->out.diagnostics()[0].rule->id == "GRS002");
    auto q = parse_config("NodeName=n1 Name=gpu Fille=/dev/nvidia0\n", KeyTable::gres_conf);
    REQUIRE(q->out.diagnostics().size() == 1);
    CHECK(q->out.diagnostics()[0].help == "did you mean File?");
  }
}

TEST_CASE("reader: Include resolution per release", "[reader]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "greslint-include-test";
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "slurm.conf") << "ClusterName=Lab\nInclude sub/a.conf\n";
  std::ofstream(dir / "sub" / "a.conf") << "include b.conf\n";
  std::ofstream(dir / "sub" / "b.conf") << "GresTypes=gpu\n";  // 22.05 opens sub/b.conf
  std::ofstream(dir / "cycle.conf") << "Include cycle.conf\n";
  std::ofstream(dir / "pct.conf") << "ClusterName=Lab\nInclude %c.conf\n";
  std::ofstream(dir / "lab.conf") << "GresTypes=gpu\n";
  auto read = [&](const char* name, SlurmVersion v, Reporter& out, SourceManager& sources) {
    ReadOptions o;
    o.slurm_conf_dir = dir.string();
    return read_config_file((dir / name).string(), o, VersionProfile(v), sources, out);
  };
  {
    SourceManager s; Reporter out;
    ConfigFile f = read("slurm.conf", kSlurm2205, out, s);
    CHECK(out.diagnostics().empty());
    CHECK(f.files.size() == 3);
  }
  {
    SourceManager s; Reporter out;
    read("slurm.conf", kSlurm2311, out, s);  // 23.02+: b.conf is looked up beside slurm.conf
    REQUIRE(out.diagnostics().size() == 1);
    CHECK(out.diagnostics()[0].rule->id == "GRS005");
    CHECK(out.diagnostics()[0].slurm_message.find("\"Include\" failed in file") == 0);
  }
  {
    SourceManager s; Reporter out;
    read("cycle.conf", kSlurm2205, out, s);
    REQUIRE(out.diagnostics().size() == 1);
    CHECK(out.diagnostics()[0].message.find("includes itself") != std::string::npos);
  }
  {
    SourceManager s; Reporter out;
    ConfigFile f = read("pct.conf", kSlurm2205, out, s);  // %c is ClusterName in lower case
    CHECK(out.diagnostics().empty());
    CHECK(f.files.size() == 2);
  }
  fs::remove_all(dir);
}

TEST_CASE("reader: an absolute Include is the cluster's own file or a checkout's site path", "[reader]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "greslint-checkout-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string site = "/nonexistent-greslint-site/slurm";
  std::ofstream(dir / "nodes.conf") << "GresTypes=gpu\n";
  // Linting the cluster's own folder: the Include names slurm.conf's folder, so a missing file
  // is Slurm's failure.
  std::ofstream(dir / "own.conf") << "Include " << (dir / "absent.conf").string() << "\nInclude "
                                   << (dir / "nodes.d" / "nodes.conf").string() << "\n";
  // Linting a checkout: the Include names another folder.
  std::ofstream(dir / "checkout.conf") << "Include " << site << "/nodes.conf\nInclude " << site
                                        << "/absent.conf\nInclude generated.conf\n";
  auto read = [&](const char* name, Reporter& out, SourceManager& sources) {
    ReadOptions o;
    o.slurm_conf_dir = dir.string();
    return read_config_file((dir / name).string(), o, VersionProfile(kSlurm2205), sources, out);
  };
  {
    SourceManager s; Reporter out;
    ConfigFile f = read("own.conf", out, s);
    // Both missing on the cluster, even the one in a folder below slurm.conf's: no copy of
    // nodes.conf is looked for beside slurm.conf.
    REQUIRE(out.diagnostics().size() == 2);
    CHECK(out.diagnostics()[0].rule->id == "GRS005");
    CHECK(out.diagnostics()[1].rule->id == "GRS005");
    CHECK(f.failed);
  }
  {
    SourceManager s; Reporter out;
    ConfigFile f = read("checkout.conf", out, s);
    REQUIRE(out.diagnostics().size() == 3);
    CHECK(out.diagnostics()[0].rule->id == "GRS011");
    CHECK(out.diagnostics()[0].severity == Severity::note);
    CHECK(out.diagnostics()[0].message.find("slurm.conf is not in " + site + ",") != std::string::npos);
    for (int k : {1, 2}) {  // the absolute and the relative file the checkout does not have
      CHECK(out.diagnostics()[std::size_t(k)].rule->id == "GRS011");
      CHECK(out.diagnostics()[std::size_t(k)].severity == Severity::warning);
    }
    CHECK_FALSE(f.failed);
    CHECK(f.files.size() == 2);  // checkout.conf and the checkout's nodes.conf
    REQUIRE(f.directives.size() == 1);
    CHECK(f.directives[0].head().key == "GresTypes");
  }
  {
    SourceManager s; Reporter out;
    ReadOptions o;
    o.slurm_conf_dir = dir.string();
    o.prefix_map = {{site, "/nonexistent-greslint-elsewhere"}};  // an explicit map wins: GRS005
    read_config_file((dir / "checkout.conf").string(), o, VersionProfile(kSlurm2205), s, out);
    REQUIRE(out.diagnostics().size() == 3);
    CHECK(out.diagnostics()[0].rule->id == "GRS005");
  }
  {
    // The same file as the cluster's own ($SLURM_CONF names it): every missing file is
    // missing for Slurm, and the checkout's copy of a site path is not looked for.
    const char* before = std::getenv("SLURM_CONF");
    const std::string saved = before ? before : "";
    ::setenv("SLURM_CONF", (dir / "checkout.conf").c_str(), 1);
    SourceManager s; Reporter out;
    read("checkout.conf", out, s);
    if (before) ::setenv("SLURM_CONF", saved.c_str(), 1); else ::unsetenv("SLURM_CONF");
    REQUIRE(out.diagnostics().size() == 3);
    for (const Diagnostic& d : out.diagnostics()) CHECK(d.rule->id == "GRS005");
  }
  fs::remove_all(dir);
}

TEST_CASE("reader: first_special finds the first newline, NUL, '#' or backslash at every offset", "[reader]") {
  // The search reads 16 bytes at a time and the last ones with an overlapping load: every
  // length up to 70 and every position of the special byte, plus plain text before it.
  for (const char special : {'\n', '\0', '#', '\\'})
    for (std::size_t n = 0; n <= 70; ++n) {
      const std::string plain(n, 'x');
      CHECK(config_detail::first_special(plain.data(), n) == n);
      for (std::size_t at = 0; at < n; ++at) {
        std::string text = plain;
        text[at] = special;
        if (at + 2 < n) text[at + 2] = '#';  // a later one does not count
        INFO("n " << n << " at " << at << " special " << int(special));
        CHECK(config_detail::first_special(text.data(), n) == at);
        // A prefix that ends before the special byte has none.
        CHECK(config_detail::first_special(text.data(), at) == at);
      }
    }
}

TEST_CASE("reader: match_key_value's byte classes are is_space and Slurm's key characters", "[reader]") {
  // Every byte after "Ke" and inside a value: a key character extends the key, a blank or an
  // operator may come between key and '=', a blank ends the value, anything else is value.
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    const bool key_char = is_alnum(ch) || ch == '_' || ch == '.';
    INFO("byte " << c);
    const auto in_key = config_detail::match_key_value(std::string("Ke") + ch + "=v", 0);
    const bool op_or_eq = ch == '*' || ch == '+' || ch == '-' || ch == '/' || ch == '=';  // "Ke+=v", "Ke==v"
    CHECK(bool(in_key) == (key_char || is_space(ch) || op_or_eq));
    if (in_key && key_char) CHECK(in_key->key_end == 3);
    const auto in_value = config_detail::match_key_value(std::string("Key=a") + ch + "b", 0);
    REQUIRE(in_value);
    CHECK(in_value->value_end == (is_space(ch) ? 5u : 7u));
  }
}

TEST_CASE("reader: match_key_value's byte classes at every place of a long key and value", "[reader]") {
  // Keys and values are scanned sixteen bytes at a time where sixteen are left: every byte at
  // each place of a first, second and last block, with more text after it or none.
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    const bool key_char = is_alnum(ch) || ch == '_' || ch == '.';
    const bool op_or_eq = ch == '*' || ch == '+' || ch == '-' || ch == '/' || ch == '=';
    for (std::size_t at = 0; at < 40; ++at) {
      INFO("byte " << c << " after " << at << " bytes");
      const std::string key = "K" + std::string(at, 'e');
      const auto in_key = config_detail::match_key_value(key + ch + "=v" + std::string(20, 'x'), 0);
      CHECK(bool(in_key) == (key_char || is_space(ch) || op_or_eq));
      if (in_key && key_char) CHECK(in_key->key_end == key.size() + 1);
      if (in_key && !key_char) CHECK(in_key->key_end == key.size());
      for (const std::size_t after : {std::size_t(0), std::size_t(1), std::size_t(20)}) {
        const std::string value = "Key=a" + std::string(at, 'v') + ch + std::string(after, 'b');
        const auto in_value = config_detail::match_key_value(value, 0);
        REQUIRE(in_value);
        CHECK(in_value->value_end == (is_space(ch) ? 5 + at : value.size()));
      }
    }
  }
}

TEST_CASE("sources: line and column of every byte, whatever the lines' lengths", "[reader]") {
  // Newlines are found 16 bytes at a time: lines of 0 to 40 bytes put them at every position
  // of a block, next to each other and at the very end or not.
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    std::string text;
    std::vector<LineCol> expected;
    std::uint32_t line = 1, column = 1;
    const int lines = 1 + int(rng() % 30);
    for (int l = 0; l < lines; ++l) {
      const std::size_t length = rng() % 41;
      for (std::size_t i = 0; i < length; ++i) {
        text.push_back(char('a' + rng() % 26));
        expected.push_back({line, column++});
      }
      if (l + 1 < lines || rng() % 2) {
        text.push_back('\n');
        expected.push_back({line++, column});
        column = 1;
      }
    }
    SourceManager sources;
    const FileId f = sources.add("t.conf", text);
    INFO("round " << round);
    CHECK(sources.line_count(f) == std::size_t(std::count(text.begin(), text.end(), '\n')) + 1);
    for (std::uint32_t at = 0; at < text.size(); ++at) {
      const LineCol got = sources.line_col(f, at);
      REQUIRE(got.line == expected[at].line);
      REQUIRE(got.column == expected[at].column);
    }
  }
}

TEST_CASE("DirectiveIndex: settings and each record key's lines, in file order, any case", "[reader]") {
  auto p = parse_config("ClusterName=c\n"
                 "NodeName=a CPUs=1\n"
                 "PartitionName=p1 Nodes=a\n"
                 "nodename=b CPUs=1\n"
                 "SlurmctldHost=h\n"
                 "NODENAME=c CPUs=1\n"
                 "PartitionName=p2 Nodes=b\n"
                 "SelectType=select/cons_tres\n");
  REQUIRE(p->file.directives.size() == 8);
  const DirectiveIndex index(p->file.directives);
  auto heads = [](const std::vector<const Directive*>& lines) {
    std::vector<std::string> out;
    for (const Directive* d : lines) out.emplace_back(d->head().value);
    return out;
  };
  CHECK(heads(index.settings()) == std::vector<std::string>{"c", "select/cons_tres"});
  CHECK(heads(index.records("NodeName")) == std::vector<std::string>{"a", "b", "c"});
  CHECK(heads(index.records("nodename")) == std::vector<std::string>{"a", "b", "c"});
  CHECK(heads(index.records("PartitionName")) == std::vector<std::string>{"p1", "p2"});
  CHECK(heads(index.records("SlurmctldHost")) == std::vector<std::string>{"h"});
  CHECK(index.records("NodeSet").empty());
  CHECK(index.records("ClusterName").empty());  // a setting, not a record
  // Each pointer is the directive itself, not a copy.
  CHECK(index.records("PartitionName").back() == &p->file.directives[6]);
}

TEST_CASE("reader: a record's tail is shared once a second line says it, and reads the same", "[reader]") {
  const std::string a = " CPUs=64 Gres=gpu:a100:8 State=UNKNOWN\n";
  const std::string b = " CPUs=32 Gres=gpu:h100:4\n";
  SECTION("two tails that alternate line by line are both shared from their third line") {
    std::string text;
    for (int i = 0; i < 8; ++i) text += "NodeName=n" + std::to_string(i) + (i % 2 ? b : a);
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
      CAPTURE(i);
      const Directive& d = p->file.directives[i];
      CHECK((d.repeated_tail() != nullptr) == (i >= 4));
      // Shared or parsed, a line gives the same pairs at its own offsets.
      REQUIRE(d.rest().size() == (i % 2 ? 2u : 3u));
      const KeyValue& cpus = d.rest()[0];
      CHECK(cpus.value == (i % 2 ? "32" : "64"));
      CHECK(p->sources.text(cpus.value_span) == cpus.value);
      CHECK(p->sources.line_col(cpus.key_span.file, cpus.key_span.begin).line == i + 1);
    }
  }
  SECTION("a tail placed past a quoted head, or after a long run of blanks, reads at its own offsets") {
    // A directive places its tail by its distance from the end of the head's value, in 16
    // bits: a closing quote can sit between them. Blanks after the head are the tail's own
    // text, however many.
    const std::string far(70000, ' ');
    std::string text;
    for (int i = 0; i < 4; ++i) text += "NodeName=\"q" + std::to_string(i) + "\"" + b;
    for (int i = 0; i < 4; ++i) text += "NodeName=f" + std::to_string(i) + far + "CPUs=32 Gres=gpu:h100:4\n";
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
      CAPTURE(i);
      const Directive& d = p->file.directives[i];
      CHECK((d.repeated_tail() != nullptr) == (i == 2 || i == 3 || i == 6 || i == 7));
      REQUIRE(d.rest().size() == 2u);
      for (const KeyValue& kv : d.rest()) {
        CHECK(p->sources.text(kv.value_span) == kv.value);
        CHECK(p->sources.text(kv.key_span) == kv.key);
      }
      CHECK(d.find("Gres")->value == "gpu:h100:4");
      CHECK(p->sources.line_col(d.rest()[0].key_span.file, d.rest()[0].key_span.begin).line == i + 1);
    }
  }
  SECTION("lines that each say something else keep no tail") {
    std::string text;
    for (int i = 0; i < 5000; ++i) text += "NodeName=n" + std::to_string(i) + " Weight=" + std::to_string(i) + a;
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 5000);
    CHECK(std::none_of(p->file.directives.begin(), p->file.directives.end(),
                       [](const Directive& d) { return d.repeated_tail() != nullptr; }));
    CHECK(p->file.directives[4999].find("Weight")->value == "4999");
  }
  SECTION("a node's own addresses, then a tail an earlier line said") {
    // An inventory gives every node its own NodeAddr= (and NodeHostname=): the text after
    // them is shared from its third line, and the line reads as if parsed whole.
    std::string text;
    for (int i = 0; i < 6; ++i) {
      const std::string n = std::to_string(i);
      text += "NodeName=n" + n + (i < 3 ? " NodeAddr=10.0.0." + n : " nodehostname=h" + n + " NodeAddr=10.0.0." + n) + a;
    }
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 6);
    CHECK(p->out.diagnostics().empty());
    for (std::size_t i = 0; i < 6; ++i) {
      CAPTURE(i);
      const Directive& d = p->file.directives[i];
      const std::size_t own = i < 3 ? 1 : 2;
      CHECK((d.repeated_tail() != nullptr) == (i >= 2));
      if (d.repeated_tail()) CHECK(d.pairs_before_tail() == own);
      // Copied without making the pairs, then found: the same pair.
      const std::optional<KeyValue> addr = d.value_of("NodeAddr");
      REQUIRE(addr);
      CHECK(addr->value == "10.0.0." + std::to_string(i));
      CHECK(d.value_of("CPUs")->value == "64");
      CHECK_FALSE(d.value_of("Weight"));
      CHECK(d.find("Weight") == nullptr);
      const KeyValue* found = d.find("NodeAddr");
      REQUIRE(found);
      CHECK(found->value_span.begin == addr->value_span.begin);
      // find() made the pairs before it answered: what it gave stays valid.
      const KeyValues& pairs = d.rest();
      REQUIRE(pairs.size() == own + 3);
      CHECK(found == &pairs[own - 1]);
      CHECK(pairs[own].key == "CPUs");
      CHECK(pairs[own + 2].value == "UNKNOWN");
      for (const KeyValue& kv : pairs) {
        CHECK(p->sources.text(kv.key_span) == kv.key);
        CHECK(p->sources.text(kv.value_span) == kv.value);
        CHECK(p->sources.line_col(kv.key_span.file, kv.key_span.begin).line == i + 1);
      }
    }
    CHECK(p->file.directives[4].repeated_tail() == p->file.directives[2].repeated_tail());
  }
  SECTION("a node's own addresses after a quoted name read as if parsed whole") {
    // The text between the head and the tail starts with the name's closing quote; the own
    // pairs there are made only when asked for, where the file has them.
    std::string text;
    for (int i = 0; i < 5; ++i) {
      const std::string n = std::to_string(i);
      text += "NodeName=\"n" + n + "\"  NodeAddr=10.0.0." + n + " BcastAddr=b" + n + a;
    }
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 5);
    CHECK(p->out.diagnostics().empty());
    for (std::size_t i = 0; i < 5; ++i) {
      CAPTURE(i);
      const Directive& d = p->file.directives[i];
      CHECK((d.repeated_tail() != nullptr) == (i >= 2));
      CHECK(d.head().value == "n" + std::to_string(i));
      if (d.repeated_tail()) CHECK(d.pairs_before_tail() == 2);
      CHECK(d.value_of("NodeAddr")->value == "10.0.0." + std::to_string(i));
      CHECK(d.value_of("BcastAddr")->value == "b" + std::to_string(i));
      CHECK_FALSE(d.value_of("NodeHostname"));
      CHECK(d.find("NodeHostname") == nullptr);
      const KeyValues& pairs = d.rest();
      REQUIRE(pairs.size() == 5);
      CHECK(pairs[0].key == "NodeAddr");
      CHECK(pairs[0].spec == find_key(KeyTable::node_name, "NodeAddr", kSlurm2205));
      CHECK(pairs[1].spec == find_key(KeyTable::node_name, "BcastAddr", kSlurm2205));
      CHECK(pairs[2].key == "CPUs");
      CHECK(d.find("BcastAddr") == &pairs[1]);
      for (const KeyValue& kv : pairs) {
        CHECK_FALSE(kv.quoted);
        CHECK(kv.op == 0);
        CHECK(p->sources.text(kv.key_span) == kv.key);
        CHECK(p->sources.text(kv.value_span) == kv.value);
      }
      CHECK(d.pairs_before_tail() == (d.repeated_tail() ? 2u : 5u));
    }
  }
  SECTION("a node's own addresses at the end of its line, after a tail an earlier line said") {
    // Some templates write the address last: the text between the name and it is shared from
    // the third line, and the line reads as if parsed whole, its own pairs after the tail's.
    std::string text;
    for (int i = 0; i < 6; ++i) {
      const std::string n = std::to_string(i);
      text += "NodeName=n" + n + " CPUs=64 Gres=gpu:a100:8 State=UNKNOWN" +
              (i < 3 ? " NodeAddr=10.0.0." + n : " nodehostname=h" + n + "  NodeAddr=10.0.0." + n) + "\n";
    }
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 6);
    CHECK(p->out.diagnostics().empty());
    for (std::size_t i = 0; i < 6; ++i) {
      CAPTURE(i);
      const Directive& d = p->file.directives[i];
      const std::size_t own = i < 3 ? 1 : 2;
      CHECK((d.repeated_tail() != nullptr) == (i >= 2));
      CHECK(d.pairs_before_tail() == (d.repeated_tail() ? 0 : own + 3));
      CHECK(d.pairs_after_tail() == (d.repeated_tail() ? own : 0));
      const std::optional<KeyValue> addr = d.value_of("NodeAddr");
      REQUIRE(addr);
      CHECK(addr->value == "10.0.0." + std::to_string(i));
      CHECK(d.value_of("Gres")->value == "gpu:a100:8");
      CHECK((d.value_of("NodeHostname").has_value()) == (i >= 3));
      CHECK_FALSE(d.value_of("Weight"));
      const KeyValue* found = d.find("NodeAddr");
      REQUIRE(found);
      CHECK(found->value_span.begin == addr->value_span.begin);
      const KeyValues& pairs = d.rest();
      REQUIRE(pairs.size() == own + 3);
      CHECK(found == &pairs.back());
      CHECK(pairs[0].key == "CPUs");
      CHECK(pairs[2].value == "UNKNOWN");
      if (i >= 3) CHECK(pairs[3].value == "h" + std::to_string(i));
      for (const KeyValue& kv : pairs) {
        CHECK(p->sources.text(kv.key_span) == kv.key);
        CHECK(p->sources.text(kv.value_span) == kv.value);
        CHECK(p->sources.line_col(kv.key_span.file, kv.key_span.begin).line == i + 1);
      }
      // Made, the pairs are what they were: the tail's are not added again.
      CHECK(d.rest().size() == own + 3);
      CHECK(d.pairs_after_tail() == (d.repeated_tail() ? own : 0));
    }
    // However many own pairs follow it, the text before them is one tail.
    for (std::size_t i = 3; i < 6; ++i) CHECK(p->file.directives[i].repeated_tail() == p->file.directives[2].repeated_tail());
  }
  SECTION("an own address at the end that the tail says too is a duplicate, as parsed whole") {
    std::string text;
    for (int i = 0; i < 3; ++i) text += "NodeName=n" + std::to_string(i) + " CPUs=64 NodeAddr=x Gres=gpu:2 NodeAddr=10.0.0." + std::to_string(i) + "\n";
    // An address in the middle is not the line's end: parsed whole, reported each time.
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 3);
    for (const Directive& d : p->file.directives) {
      CHECK(d.repeated_tail() == nullptr);
      CHECK(d.rest().size() == 3);
    }
    CHECK(p->file.directives[2].find("NodeAddr")->value == "10.0.0.2");
    CHECK(p->out.diagnostics().size() == 3);
  }
  SECTION("an own address the tail says again is a duplicate, as parsed whole") {
    std::string text;
    for (int i = 0; i < 3; ++i) text += "NodeName=n" + std::to_string(i) + " NodeAddr=10.0.0." + std::to_string(i) + a;
    // Lines m1-m3 say this tail, so it is shared (m3 repeats it); it names NodeAddr= itself.
    for (const char* m : {"m1", "m2", "m3"})
      text += std::string("NodeName=") + m + " CPUs=64 Gres=gpu:a100:8 State=UNKNOWN NodeAddr=x\n";
    text += "NodeName=n9 NodeAddr=10.0.0.9 CPUs=64 Gres=gpu:a100:8 State=UNKNOWN NodeAddr=x\n";
    auto p = parse_config(text);
    REQUIRE(p->file.directives.size() == 7);
    REQUIRE(p->file.directives[5].repeated_tail() != nullptr);
    const Directive& d = p->file.directives[6];
    CHECK(d.repeated_tail() == nullptr);
    CHECK(d.find("NodeAddr")->value == "x");
    CHECK(d.rest().size() == 4);
    REQUIRE(p->out.diagnostics().size() == 1);
    CHECK(p->sources.line_col(p->out.diagnostics()[0].span.file, p->out.diagnostics()[0].span.begin).line == 7);
  }
}

TEST_CASE("reader: find answers every key a record holds, in any case, and no other", "[reader]") {
  // Sockets and RealMemory share a key_bit, as do CoresPerSocket and BcastAddr: a shared bit
  // only sends find() to the pairs.
  const std::string tail = " Sockets=2 CoresPerSocket=8 RealMemory=1000 Gres=gpu:2 State=UNKNOWN\n";
  std::string text;
  for (int i = 0; i < 4; ++i) text += "NodeName=n" + std::to_string(i) + tail;  // the last two share their tail
  auto p = parse_config(text);
  REQUIRE(p->file.directives.size() == 4);
  const std::vector<std::pair<std::string, std::string>> held = {
      {"Sockets", "2"}, {"coresPERsocket", "8"}, {"REALMEMORY", "1000"}, {"gres", "gpu:2"}, {"State", "UNKNOWN"}};
  for (const Directive& d : p->file.directives) {
    for (const auto& [key, value] : held) {
      CAPTURE(key);
      REQUIRE(d.find(key));
      CHECK(d.find(key)->value == value);
    }
    for (const char* absent : {"BcastAddr", "NodeAddr", "Boards", "CPUs", "Weight", "Socket", "Socketss", ""})
      CHECK(d.find(absent) == nullptr);
  }
  CHECK(p->file.directives[3].repeated_tail() != nullptr);
}

TEST_CASE("reader: tails seen once are remembered while their table grows", "[reader]") {
  // Reader::seen_before's table starts with 32 sets and grows fourfold, up to 2,048, as
  // tails are seen once: 1,200 tails, said three times over in turn, pass every step. A tail
  // is kept once a second line says it, so every line of the third round takes it, as with
  // a table of full size from the first line.
  constexpr int kTails = 1200;
  std::string text;
  for (int round = 0; round < 3; ++round)
    for (int k = 0; k < kTails; ++k)
      text += "NodeName=n" + std::to_string(round) + " Name=gpu File=/dev/nvidia" + std::to_string(k) + "\n";
  auto p = parse_config(text, KeyTable::gres_conf);
  REQUIRE(p->file.directives.size() == std::size_t(3 * kTails));
  std::size_t shared = 0;
  for (int k = 0; k < kTails; ++k) {
    const Directive& third = p->file.directives[std::size_t(2 * kTails + k)];
    if (third.repeated_tail() != nullptr) ++shared;
    CHECK(third.find("File")->value == "/dev/nvidia" + std::to_string(k));
  }
  CHECK(shared >= std::size_t(kTails) * 5 / 6);  // a full-size table from the first line: 1,039
}

TEST_CASE("reader: the tail that followed last time is taken only when the line says it", "[reader]") {
  // Three tails in turn for four rounds: the reader learns which follows which
  // (Reader::followed_tail). Then the order changes, a new tail comes after a known one, and
  // a known tail follows itself: every line still reads the File= it says, and lines that say
  // the same take the same tail.
  std::vector<int> order;
  for (int round = 0; round < 4; ++round) order.insert(order.end(), {0, 1, 2});
  order.insert(order.end(), {0, 2, 1, 0, 7, 1, 1, 2, 0, 1});
  std::string text;
  for (std::size_t i = 0; i < order.size(); ++i)
    text += "NodeName=n" + std::to_string(i) + " Name=gpu File=/dev/nvidia" + std::to_string(order[i]) + "\n";
  auto p = parse_config(text, KeyTable::gres_conf);
  REQUIRE(p->file.directives.size() == order.size());
  std::map<int, const RepeatedTail*> tail_of;
  for (std::size_t i = 0; i < order.size(); ++i) {
    CAPTURE(i);
    const Directive& d = p->file.directives[i];
    CHECK(d.find("File")->value == "/dev/nvidia" + std::to_string(order[i]));
    if (i < 6 || order[i] == 7) continue;  // a tail is shared from a second line that says it
    REQUIRE(d.repeated_tail() != nullptr);
    const auto [known, first] = tail_of.emplace(order[i], d.repeated_tail());
    if (!first) CHECK(known->second == d.repeated_tail());
  }
  CHECK(tail_of.size() == 3);
}

TEST_CASE("reader: a tail among more than the recently found ones is still the one it says", "[reader]") {
  // 100 tails, said four times over in turn: more than Reader::find_tail's recent slots hold,
  // so the slots are replaced while the lines alternate. A tail is kept once a second line
  // says it; the lines of the last two rounds take it, each the tail whose text it says,
  // never another tail that shares its slot.
  std::string text;
  for (int round = 0; round < 4; ++round)
    for (int k = 0; k < 100; ++k)
      text += "NodeName=n" + std::to_string(round) + " Name=gpu File=/dev/nvidia" + std::to_string(k) + "\n";
  auto p = parse_config(text, KeyTable::gres_conf);
  REQUIRE(p->file.directives.size() == 400);
  for (int k = 0; k < 100; ++k) {
    CAPTURE(k);
    const Directive& third = p->file.directives[std::size_t(200 + k)];
    const Directive& fourth = p->file.directives[std::size_t(300 + k)];
    REQUIRE(third.repeated_tail() != nullptr);
    CHECK(fourth.repeated_tail() == third.repeated_tail());
    CHECK(fourth.find("File")->value == "/dev/nvidia" + std::to_string(k));
    if (k > 0) CHECK(third.repeated_tail() != p->file.directives[std::size_t(199 + k)].repeated_tail());
  }
}
