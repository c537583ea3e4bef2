// SPDX-License-Identifier: Apache-2.0
// Emitters: exact text layout, valid JSON/SARIF/XML, hostile values, stable fingerprints.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "greslint/emit.hpp"
#include "greslint/registry.hpp"

using namespace greslint;

namespace {

// ---------------------------------------------------------------------------------------------
// A strict RFC 8259 parser, so the tests check the emitters' JSON without trusting them.

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  bool has(std::string_view key) const {
    for (const auto& m : members)
      if (m.first == key) return true;
    return false;
  }
  const JsonValue& operator[](std::string_view key) const {
    for (const auto& m : members)
      if (m.first == key) return m.second;
    throw std::runtime_error("no member " + std::string(key));
  }
  const JsonValue& operator[](std::size_t i) const { return items.at(i); }
  bool is_null() const { return kind == Kind::null; }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : s_(text) {}

  JsonValue parse() {
    JsonValue v = value();
    skip_space();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    throw std::runtime_error("JSON error at byte " + std::to_string(i_) + ": " + why);
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool consume(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  JsonValue value() {
    skip_space();
    if (i_ >= s_.size()) fail("unexpected end");
    JsonValue v;
    const char c = s_[i_];
    if (c == '{') {
      v.kind = JsonValue::Kind::object;
      ++i_;
      skip_space();
      if (consume("}")) return v;
      do {
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected key");
        std::string key = string();
        skip_space();
        if (!consume(":")) fail("expected ':'");
        v.members.emplace_back(key, value());
        skip_space();
      } while (consume(","));
      if (!consume("}")) fail("expected '}'");
    } else if (c == '[') {
      v.kind = JsonValue::Kind::array;
      ++i_;
      skip_space();
      if (consume("]")) return v;
      do {
        v.items.push_back(value());
        skip_space();
      } while (consume(","));
      if (!consume("]")) fail("expected ']'");
    } else if (c == '"') {
      v.kind = JsonValue::Kind::string;
      v.string = string();
    } else if (consume("null")) {
    } else if (consume("true")) {
      v.kind = JsonValue::Kind::boolean;
      v.boolean = true;
    } else if (consume("false")) {
      v.kind = JsonValue::Kind::boolean;
    } else {
      const std::size_t start = i_;
      if (i_ < s_.size() && s_[i_] == '-') ++i_;
      if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) fail("bad value");
      if (s_[i_] == '0' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))
        fail("leading zero");
      while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
                                s_[i_] == 'e' || s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
        ++i_;
      v.kind = JsonValue::Kind::number;
      v.number = std::stod(std::string(s_.substr(start, i_ - start)));
    }
    return v;
  }
  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("short \\u");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f') v |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= unsigned(h - 'A' + 10);
      else fail("bad hex digit");
    }
    return v;
  }
  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }
  // Validates UTF-8 strictly: a JSON text must be well-formed Unicode.
  void utf8_char(std::string& out) {
    const auto b0 = static_cast<unsigned char>(s_[i_]);
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) need = 1;
    else if (b0 >= 0xE0 && b0 <= 0xEF) {
      need = 2;
      if (b0 == 0xE0) lo = 0xA0;
      if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      need = 3;
      if (b0 == 0xF0) lo = 0x90;
      if (b0 == 0xF4) hi = 0x8F;
    } else {
      fail("invalid UTF-8 lead byte");
    }
    for (std::size_t k = 1; k <= need; ++k) {
      if (i_ + k >= s_.size()) fail("truncated UTF-8");
      const auto b = static_cast<unsigned char>(s_[i_ + k]);
      if (b < lo || b > hi) fail("invalid UTF-8 continuation");
      lo = 0x80;
      hi = 0xBF;
    }
    out.append(s_.substr(i_, need + 1));
    i_ += need + 1;
  }
  std::string string() {
    ++i_;  // opening quote
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c < 0x20) fail("raw control character in string");
      if (c >= 0x80) {
        utf8_char(out);
        continue;
      }
      ++i_;
      if (c != '\\') {
        out += char(c);
        continue;
      }
      if (i_ >= s_.size()) fail("bad escape");
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!consume("\\u")) fail("lone high surrogate");
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("lone low surrogate");
          }
          put_utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

JsonValue parse_json(const std::string& text) { return JsonParser(text).parse(); }

// ---------------------------------------------------------------------------------------------
// Fixtures: the design document's GRS301 example, spread over two files.

const RuleInfo kCountRule{"GRS301", "count-lower-than-configured", Severity::error, Effect::drain,
                          Daemon::slurmctld, "gres.conf provides fewer GPUs than slurm.conf configures"};
const RuleInfo kFatalRule{"GRS990", "test-slurmd-fatal", Severity::error, Effect::fatal, Daemon::slurmd,
                          "a test rule whose finding makes slurmd exit"};
const RuleInfo kDegradedRule{"GRS991", "test-degraded", Severity::warning, Effect::degraded,
                             Daemon::slurmd, "a test rule whose finding loses GPUs"};
const RuleInfo kNoteRule{"GRS992", "test-advice", Severity::note, Effect::advice, Daemon::none,
                         "a test rule that only advises"};

constexpr const char* kBase = "/cluster/etc/slurm";

std::string slurm_conf_text() {
  std::string text = "ClusterName=demo\nSlurmctldHost=head\nGresTypes=gpu\n";
  for (int i = 4; i <= 11; ++i) text += "# line " + std::to_string(i) + "\n";
  text += "NodeName=gpu-node01 Sockets=2 Gres=gpu:a100:8\n";
  return text;
}

const char* kGresConf =
    "# GPU nodes\n"
    "Name=gpu Type=a100 File=/dev/nvidia0\n"
    "NodeName=gpu-node01 Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-15\n";

Span span_of(const SourceManager& sm, FileId f, std::string_view needle, std::size_t from = 0) {
  const auto pos = sm.text(f).find(needle, from);
  REQUIRE(pos != std::string_view::npos);
  return Span{f, std::uint32_t(pos), std::uint32_t(pos + needle.size())};
}

struct Fixture {
  SourceManager sm;
  FileId slurm;
  FileId gres;
  LintReport report;
  EmitOptions options;

  Fixture() {
    slurm = sm.add(std::string(kBase) + "/slurm.conf", slurm_conf_text());
    gres = sm.add(std::string(kBase) + "/gres.conf", kGresConf);
    report.inputs = {"slurm.conf", "gres.conf"};
    report.slurm_version = kSlurm2205;
    report.version_source = "--slurm-version";
    options.base_dir = kBase;
  }

  Diagnostic& add_count_finding() {
    Diagnostic d;
    d.rule = &kCountRule;
    d.severity = Severity::error;
    d.effect = Effect::drain;
    d.daemon = Daemon::slurmctld;
    d.span = span_of(sm, gres, "/dev/nvidia[0-3]");
    d.message = "gpu-node01 has 4 gpu:a100 in gres.conf but slurm.conf configures 8";
    d.nodes = "gpu-node01";
    d.slurm_message = "gres/gpu count reported lower than configured (4 < 8)";
    d.related.push_back({span_of(sm, slurm, "Gres=gpu:a100:8"), "configured here: Gres=gpu:a100:8"});
    d.help = "list 8 devices (File=/dev/nvidia[0-7]) or configure Gres=gpu:a100:4";
    report.diagnostics.push_back(d);
    return report.diagnostics.back();
  }

  /// One of each kind of finding the emitters must handle.
  void add_everything() {
    add_count_finding();
    Diagnostic& with_fix = add_count_finding();
    with_fix.fix = Fix{"configure Gres=gpu:a100:4",
                       {Edit{span_of(sm, slurm, "gpu:a100:8"), "gpu:a100:4"}}};

    Diagnostic fatal;
    fatal.rule = &kFatalRule;
    fatal.severity = Severity::error;
    fatal.effect = Effect::fatal;
    fatal.daemon = Daemon::slurmd;
    fatal.span = span_of(sm, gres, "Cores=0-15");
    fatal.message = "Cores=0-15 is out of range";
    fatal.nodes = "gpu-node01";
    fatal.slurm_message = "fatal: Invalid GRES core specification (0-15) on node gpu-node01";
    report.diagnostics.push_back(fatal);

    Diagnostic degraded;
    degraded.rule = &kDegradedRule;
    degraded.severity = Severity::warning;
    degraded.effect = Effect::degraded;
    degraded.daemon = Daemon::slurmd;
    degraded.span = span_of(sm, gres, "File=/dev/nvidia0");
    degraded.message = "record applies to no node";
    report.diagnostics.push_back(degraded);

    Diagnostic file_wide;
    file_wide.rule = &kNoteRule;
    file_wide.severity = Severity::note;
    file_wide.effect = Effect::advice;
    file_wide.message = "AutoDetect counts cannot be verified without hardware data";
    report.diagnostics.push_back(file_wide);
  }

  std::string emit(Format format) const {
    std::ostringstream out;
    emit_report(format, report, sm, options, out);
    return out.str();
  }
};

std::vector<std::string> output_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_c0_control(std::string_view s, bool allow_newline) {
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && !(allow_newline && b == '\n')) || b == 0x7F) return true;
  }
  return false;
}

/// The real interpreter behind `python3` (a pyenv shim costs a second per start), or "".
const std::string& python() {
  static const std::string path = [] {
    std::string result;
    if (FILE* p = ::popen("python3 -c 'import sys; print(sys.executable)' 2>/dev/null", "r")) {
      char buf[4096];
      if (std::fgets(buf, sizeof buf, p)) result = buf;
      ::pclose(p);
    }
    while (!result.empty() && (result.back() == '\n' || result.back() == '\r')) result.pop_back();
    return result;
  }();
  return path;
}

std::string write_temp(const std::string& name, const std::string& content) {
  const std::string path = "/tmp/greslint_test_emit_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("parse_format knows every format", "[emit]") {
  CHECK(parse_format("text") == Format::text);
  CHECK(parse_format("json") == Format::json);
  CHECK(parse_format("SARIF") == Format::sarif);
  CHECK(parse_format("github") == Format::github);
  CHECK(parse_format("junit") == Format::junit);
  CHECK(parse_format("gitlab") == Format::gitlab);
  CHECK_FALSE(parse_format("xml").has_value());
  CHECK_FALSE(parse_format("").has_value());
}

TEST_CASE("sanitize_for_output neutralises terminal controls", "[emit]") {
  CHECK(sanitize_for_output("plain Name=gpu") == "plain Name=gpu");
  CHECK(sanitize_for_output("a\x1b[31mred") == "a\\x1b[31mred");
  CHECK(sanitize_for_output("a\nb\rc\td") == "a\\x0ab\\x0dc\\x09d");
  CHECK(sanitize_for_output(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(sanitize_for_output("del\x7f") == "del\\x7f");
  // 8-bit CSI as a valid UTF-8 C1 control, and as a bare invalid byte.
  CHECK(sanitize_for_output("\xc2\x9b" "2J") == "\\u009b2J");
  CHECK(sanitize_for_output("\x9b" "2J") == "\\x9b2J");
  // Bidi override (Trojan Source) and a truncated sequence.
  CHECK(sanitize_for_output("a\xe2\x80\xae" "b") == "a\\u202eb");
  CHECK(sanitize_for_output("x\xe2\x82") == "x\\xe2\\x82");
  // Ordinary non-ASCII text passes through.
  CHECK(sanitize_for_output("caf\xc3\xa9 \xe6\x97\xa5") == "caf\xc3\xa9 \xe6\x97\xa5");
}

TEST_CASE("text output matches the design document layout", "[emit]") {
  Fixture fx;
  fx.add_count_finding();
  const std::string expected =
      "gres.conf:3:45: error: gpu-node01 has 4 gpu:a100 in gres.conf but slurm.conf configures 8 "
      "[GRS301 count-lower-than-configured]\n"
      "    3 | NodeName=gpu-node01 Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-15\n"
      "      |                                             ^~~~~~~~~~~~~~~~\n"
      "slurm.conf:12:31: note: configured here: Gres=gpu:a100:8\n"
      "   12 | NodeName=gpu-node01 Sockets=2 Gres=gpu:a100:8\n"
      "      |                               ^~~~~~~~~~~~~~~\n"
      "  = slurmctld drains gpu-node01: \"gres/gpu count reported lower than configured (4 < 8)\"\n"
      "  = help: list 8 devices (File=/dev/nvidia[0-7]) or configure Gres=gpu:a100:4\n"
      "1 error, 0 warnings, 0 notes (Slurm 22.05 profile from --slurm-version)\n";
  CHECK(fx.emit(Format::text) == expected);
}

TEST_CASE("text output words each effect and handles file-wide findings", "[emit]") {
  Fixture fx;
  fx.add_everything();
  fx.report.version_source = "default";
  const std::string text = fx.emit(Format::text);
  CHECK_THAT(text, Catch::Contains(
                       "  = slurmd exits on gpu-node01: \"fatal: Invalid GRES core specification (0-15) on node "
                       "gpu-node01\"\n"));
  CHECK_THAT(text, Catch::Contains("gres.conf:2:20: warning: record applies to no node [GRS991 test-degraded]\n"));
  // No slurm_message: the consequence is stated without a quote.
  CHECK_THAT(text, Catch::Contains("  = Slurm keeps running but not as configured\n"));
  CHECK_THAT(text, Catch::Contains(
                       "greslint: note: AutoDetect counts cannot be verified without hardware data "
                       "[GRS992 test-advice]\n"));
  CHECK_THAT(text, Catch::Contains("  = fix available: configure Gres=gpu:a100:4\n"));
  CHECK_THAT(text, Catch::EndsWith("3 errors, 1 warning, 1 note (Slurm 22.05 profile, default)\n"));
}

TEST_CASE("text output reports no findings", "[emit]") {
  Fixture fx;
  fx.report.version_source = "scontrol --version";
  CHECK(fx.emit(Format::text) == "no findings (Slurm 22.05 profile from scontrol --version)\n");
}

TEST_CASE("text carets line up with tabs, UTF-8 and escaped controls", "[emit]") {
  SourceManager sm;
  // Byte columns: the tab is one byte, "é" two, ESC one; display: tab to column 8, "é" one
  // cell, ESC four cells ("\x1b").
  const FileId f = sm.add("/base/gres.conf", "Name=gpu\tType=caf\xc3\xa9\x1b Count=4\n");
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.rule = &kCountRule;
  d.severity = Severity::warning;
  d.span = span_of(sm, f, "Count=4");
  d.message = "count";
  report.diagnostics.push_back(d);
  EmitOptions options;
  options.base_dir = "/base";
  std::ostringstream out;
  emit_report(Format::text, report, sm, options, out);
  const auto lines = output_lines(out.str());
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "gres.conf:1:22: warning: count [GRS301 count-lower-than-configured]");
  CHECK(lines[1] == "    1 | Name=gpu        Type=caf\xc3\xa9\\x1b Count=4");
  CHECK(lines[2] == "      |                               ^~~~~~~");
  CHECK(out.str().find('\x1b') == std::string::npos);
  CHECK(out.str().find('\t') == std::string::npos);
}

TEST_CASE("a finding without a rule is reported as GRS000 in every format", "[emit]") {
  // docs/output-formats.md: the placeholder keeps each format valid; it is no rule.
  SourceManager sm;
  const FileId f = sm.add("gres.conf", "Name=gpu Count=4\n");
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.severity = Severity::warning;
  d.span = span_of(sm, f, "Count=4");
  d.message = "ruleless";
  report.diagnostics.push_back(d);
  for (const Format format : {Format::text, Format::concise, Format::json, Format::sarif, Format::github,
                              Format::junit, Format::gitlab}) {
    CAPTURE(int(format));
    std::ostringstream out;
    emit_report(format, report, sm, EmitOptions{}, out);
    CHECK(out.str().find("GRS000") != std::string::npos);
    CHECK(out.str().find("ruleless") != std::string::npos);
  }
}

TEST_CASE("text underlines a span that crosses lines to the end of its first line", "[emit]") {
  SourceManager sm;
  const FileId f = sm.add("gres.conf", "Name=gpu File=/dev/nvidia0 \\\n  Count=1\n");
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.rule = &kCountRule;
  d.span = Span{f, std::uint32_t(sm.text(f).find("File")), std::uint32_t(sm.text(f).find("Count") + 7)};
  d.message = "continued";
  report.diagnostics.push_back(d);
  std::ostringstream out;
  emit_report(Format::text, report, sm, EmitOptions{}, out);
  const auto lines = output_lines(out.str());
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "gres.conf:1:10: error: continued [GRS301 count-lower-than-configured]");
  CHECK(lines[1] == "    1 | Name=gpu File=/dev/nvidia0 \\");
  CHECK(lines[2] == "      |          ^~~~~~~~~~~~~~~~~~~");
}

TEST_CASE("text never lets a linted file drive the terminal", "[emit]") {
  SourceManager sm;
  const FileId f = sm.add("/b/slurm.conf", "NodeName=n1 Gres=gpu:\x1b]0;pwned\x07:2\n");
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.rule = &kCountRule;
  d.span = span_of(sm, f, "gpu:");
  d.message = "bad type '\x1b]0;pwned\x07'\nfake: line";
  d.nodes = "n\x1b[2J1";
  d.effect = Effect::drain;
  d.slurm_message = "reason \x1b[31m";
  d.help = "remove \r it";
  d.related.push_back({span_of(sm, f, "NodeName"), "here \x1b[0m"});
  report.diagnostics.push_back(d);
  for (bool color : {false, true}) {
    EmitOptions options;
    options.color = color;
    options.base_dir = "/b";
    std::ostringstream out;
    emit_report(Format::text, report, sm, options, out);
    std::string text = out.str();
    if (color) {
      // Our own SGR sequences are the only escapes allowed.
      for (const char* sgr : {"\033[0m", "\033[1m", "\033[1;31m", "\033[1;32m", "\033[1;36m"})
        for (auto p = text.find(sgr); p != std::string::npos; p = text.find(sgr)) text.erase(p, std::strlen(sgr));
    }
    CHECK_FALSE(has_c0_control(text, true));
    CHECK_THAT(text, Catch::Contains("bad type '\\x1b]0;pwned\\x07'\\x0afake: line"));
    CHECK_THAT(text, Catch::Contains("slurmctld drains n\\x1b[2J1: \"reason \\x1b[31m\""));
    CHECK_THAT(text, Catch::Contains("help: remove \\x0d it"));
  }
}

TEST_CASE("text colours only when asked", "[emit]") {
  Fixture fx;
  fx.add_count_finding();
  CHECK(fx.emit(Format::text).find('\x1b') == std::string::npos);
  fx.options.color = true;
  const std::string coloured = fx.emit(Format::text);
  CHECK_THAT(coloured, Catch::Contains("\033[1;31merror:"));
  CHECK_THAT(coloured, Catch::Contains("\033[1;36mnote:"));
  CHECK_THAT(coloured, Catch::Contains("\033[1;32m^~~~"));
}

TEST_CASE("json follows the documented schema", "[emit]") {
  Fixture fx;
  fx.add_everything();
  const std::string text = fx.emit(Format::json);
  JsonValue doc;
  REQUIRE_NOTHROW(doc = parse_json(text));
  CHECK(doc["schema"].number == 1);
  CHECK(doc["tool"]["name"].string == "greslint");
  CHECK(doc["tool"]["version"].string == GRESLINT_VERSION);
  CHECK(doc["slurm_version"].string == "22.05");
  CHECK(doc["version_source"].string == "--slurm-version");
  REQUIRE(doc["inputs"].items.size() == 2);
  CHECK(doc["inputs"][1].string == "gres.conf");

  const JsonValue& d = doc["diagnostics"][0];
  CHECK(d["rule"].string == "GRS301");
  CHECK(d["name"].string == "count-lower-than-configured");
  CHECK(d["severity"].string == "error");
  CHECK(d["file"].string == "gres.conf");
  CHECK(d["line"].number == 3);
  CHECK(d["column"].number == 45);
  CHECK(d["end_line"].number == 3);
  CHECK(d["end_column"].number == 61);
  CHECK(d["nodes"].string == "gpu-node01");
  CHECK(d["effect"].string == "drain");
  CHECK(d["daemon"].string == "slurmctld");
  CHECK(d["slurm_message"].string == "gres/gpu count reported lower than configured (4 < 8)");
  REQUIRE(d["related"].items.size() == 1);
  CHECK(d["related"][0]["file"].string == "slurm.conf");
  CHECK(d["related"][0]["line"].number == 12);
  CHECK(d["related"][0]["column"].number == 31);
  CHECK(d["related"][0]["message"].string == "configured here: Gres=gpu:a100:8");
  CHECK(d["fix"].is_null());

  const JsonValue& fixed = doc["diagnostics"][1]["fix"];
  CHECK(fixed["title"].string == "configure Gres=gpu:a100:4");
  CHECK(fixed["edits"][0]["file"].string == "slurm.conf");
  CHECK(fixed["edits"][0]["line"].number == 12);
  CHECK(fixed["edits"][0]["column"].number == 36);
  CHECK(fixed["edits"][0]["end_column"].number == 46);
  CHECK(fixed["edits"][0]["replacement"].string == "gpu:a100:4");

  const JsonValue& file_wide = doc["diagnostics"][4];
  CHECK(file_wide["file"].is_null());
  CHECK(file_wide["line"].is_null());
  CHECK(file_wide["nodes"].is_null());
  CHECK(file_wide["daemon"].is_null());
  CHECK(file_wide["slurm_message"].is_null());
  CHECK(file_wide["help"].is_null());
  CHECK(file_wide["related"].items.empty());

  CHECK(doc["summary"]["error"].number == 3);
  CHECK(doc["summary"]["warning"].number == 1);
  CHECK(doc["summary"]["note"].number == 1);
}

TEST_CASE("json validates against docs/greslint-report.schema.json", "[emit]") {
  if (python().empty()) {
    WARN("python3 not found: schema not checked");
    return;
  }
  Fixture fx;
  fx.add_everything();
  const std::string path = write_temp("schema.json", fx.emit(Format::json));
  // One interpreter start: importing jsonschema alone takes about a second.
  const std::string check =
      python() + " -c 'import json,sys\ntry:\n import jsonschema\nexcept ImportError:\n sys.exit(77)\n"
      "s=json.load(open(sys.argv[1]))\njsonschema.Draft202012Validator.check_schema(s)\n"
      "jsonschema.Draft202012Validator(s).validate(json.load(open(sys.argv[2])))' " GRESLINT_SOURCE_DIR
      "/docs/greslint-report.schema.json " + path;
  const int status = std::system(check.c_str());
  std::remove(path.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
    WARN("python3 has no jsonschema module: schema not checked");
    return;
  }
  CHECK(status == 0);
}

TEST_CASE("json stays valid UTF-8 JSON whatever the file holds", "[emit]") {
  Fixture fx;
  Diagnostic& d = fx.add_count_finding();
  static const char kHostile[] = "q\"b\\s/\x01\x1f\x7f nul\0 bad\xff\xc0\xaf \xed\xa0\x80 ok\xc3\xa9 \xe2\x80\xa8";
  d.message = std::string(kHostile, sizeof kHostile - 1);
  d.nodes = "n[1-2]\t";
  const std::string text = fx.emit(Format::json);
  JsonValue doc;
  REQUIRE_NOTHROW(doc = parse_json(text));
  const std::string& message = doc["diagnostics"][0]["message"].string;
  CHECK(message.substr(0, 14) == std::string("q\"b\\s/\x01\x1f\x7f nul\0", 14));
  CHECK_THAT(message, Catch::Contains(" bad\xef\xbf\xbd"));
  CHECK_THAT(message, Catch::Contains(" ok\xc3\xa9 \xe2\x80\xa8"));
  CHECK(doc["diagnostics"][0]["nodes"].string == "n[1-2]\t");
  CHECK_THAT(text, Catch::Contains("\\u0001\\u001f\\u007f nul\\u0000"));
  CHECK_THAT(text, Catch::Contains("\\u2028"));
  if (!python().empty()) {
    const std::string path = write_temp("report.json", text);
    CHECK(std::system((python() + " -m json.tool " + path + " >/dev/null").c_str()) == 0);
    std::remove(path.c_str());
  }
}

TEST_CASE("json of an empty report", "[emit]") {
  Fixture fx;
  fx.report.inputs.clear();
  JsonValue doc;
  REQUIRE_NOTHROW(doc = parse_json(fx.emit(Format::json)));
  CHECK(doc["diagnostics"].kind == JsonValue::Kind::array);
  CHECK(doc["diagnostics"].items.empty());
  CHECK(doc["inputs"].items.empty());
  CHECK(doc["summary"]["error"].number == 0);
}

TEST_CASE("sarif helpUri is the build's docs base plus the rule page, or absent", "[emit][sarif]") {
  Fixture fx;
  fx.add_count_finding();
  // The options default to the build's setting (-DGRESLINT_DOCS_URL=, empty unless given).
  CHECK(fx.options.docs_url == configured_docs_url());
  fx.options.docs_url.clear();
  CHECK(fx.emit(Format::sarif).find("helpUri") == std::string::npos);

  fx.options.docs_url = "https://docs.example.org/greslint/rules/";
  const JsonValue doc = parse_json(fx.emit(Format::sarif));
  const JsonValue& rules = doc["runs"][0]["tool"]["driver"]["rules"];
  REQUIRE_FALSE(rules.items.empty());
  for (const JsonValue& rule : rules.items) {
    const std::string page = "https://docs.example.org/greslint/rules/" + rule["id"].string + ".md";
    CHECK(rule["helpUri"].string == page);
    CHECK_THAT(rule["help"]["text"].string, Catch::EndsWith("Documentation: " + page));
  }
}

TEST_CASE("sarif carries registry rules, relative URIs and real columns", "[emit][sarif]") {
  Fixture fx;
  fx.add_everything();
  fx.options.docs_url.clear();
  // A non-ASCII character before the span: byte and code point columns differ by one.
  SourceManager& sm = fx.sm;
  const FileId utf = sm.add(std::string(kBase) + "/sub dir/caf\xc3\xa9.conf", "Name=caf\xc3\xa9 Count=4\n");
  Diagnostic d;
  d.rule = &kDegradedRule;
  d.severity = Severity::warning;
  d.span = span_of(sm, utf, "Count=4");
  d.message = "count";
  fx.report.diagnostics.push_back(d);

  const std::string text = fx.emit(Format::sarif);
  if (const char* out = std::getenv("GRESLINT_SARIF_OUT")) std::ofstream(out, std::ios::binary) << text;
  JsonValue doc;
  REQUIRE_NOTHROW(doc = parse_json(text));
  CHECK(doc["version"].string == "2.1.0");
  CHECK(doc["$schema"].string == "https://json.schemastore.org/sarif-2.1.0.json");
  REQUIRE(doc["runs"].items.size() == 1);
  const JsonValue& run = doc["runs"][0];
  CHECK(run["columnKind"].string == "unicodeCodePoints");
  const JsonValue& driver = run["tool"]["driver"];
  CHECK(driver["name"].string == "greslint");
  CHECK(driver["version"].string == GRESLINT_VERSION);
  CHECK_THAT(driver["informationUri"].string, Catch::StartsWith("https://"));

  // Every registry rule is listed, and every result's ruleIndex points at its rule.
  const JsonValue& rules = driver["rules"];
  CHECK(rules.items.size() >= all_rules().size());
  for (const JsonValue& rule : rules.items) {
    // No docs base set (the fixture clears it): no helpUri, and the help names `greslint explain`.
    CHECK_FALSE(rule.has("helpUri"));
    CHECK_THAT(rule["help"]["text"].string, Catch::EndsWith("`greslint explain " + rule["id"].string + "`"));
    CHECK_FALSE(rule["shortDescription"]["text"].string.empty());
    CHECK_FALSE(rule["fullDescription"]["text"].string.empty());
    CHECK_FALSE(rule["help"]["text"].string.empty());
    const std::string& level = rule["defaultConfiguration"]["level"].string;
    CHECK((level == "error" || level == "warning" || level == "note"));
  }
  const JsonValue& results = run["results"];
  REQUIRE(results.items.size() == 6);
  for (const JsonValue& r : results.items) {
    const auto index = std::size_t(r["ruleIndex"].number);
    REQUIRE(index < rules.items.size());
    CHECK(rules[index]["id"].string == r["ruleId"].string);
  }

  const JsonValue& first = results[0];
  CHECK(first["level"].string == "error");
  CHECK(first["message"]["text"].string ==
        "gpu-node01 has 4 gpu:a100 in gres.conf but slurm.conf configures 8. slurmctld drains gpu-node01: "
        "\"gres/gpu count reported lower than configured (4 < 8)\". Help: list 8 devices "
        "(File=/dev/nvidia[0-7]) or configure Gres=gpu:a100:4.");
  const JsonValue& loc = first["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"].string == "gres.conf");
  CHECK(loc["artifactLocation"]["uriBaseId"].string == "%SRCROOT%");
  CHECK(loc["region"]["startLine"].number == 3);
  CHECK(loc["region"]["startColumn"].number == 45);
  CHECK(loc["region"]["endLine"].number == 3);
  CHECK(loc["region"]["endColumn"].number == 61);
  CHECK(loc["region"]["snippet"]["text"].string == "/dev/nvidia[0-3]");
  const JsonValue& related = first["relatedLocations"][0];
  CHECK(related["id"].number == 1);
  CHECK(related["message"]["text"].string == "configured here: Gres=gpu:a100:8.");
  CHECK(related["physicalLocation"]["artifactLocation"]["uri"].string == "slurm.conf");
  CHECK(related["physicalLocation"]["region"]["startColumn"].number == 31);
  CHECK_FALSE(first["partialFingerprints"]["greslintFingerprint/v2"].string.empty());
  // Identical findings in one file still get distinct fingerprints.
  CHECK(first["partialFingerprints"]["greslintFingerprint/v2"].string !=
        results[1]["partialFingerprints"]["greslintFingerprint/v2"].string);

  const JsonValue& change = results[1]["fixes"][0]["artifactChanges"][0];
  CHECK(change["artifactLocation"]["uri"].string == "slurm.conf");
  CHECK(change["replacements"][0]["deletedRegion"]["startColumn"].number == 36);
  CHECK(change["replacements"][0]["insertedContent"]["text"].string == "gpu:a100:4");

  // Fatal slurmd finding names its nodes through the consequence; file-wide has no location.
  CHECK_THAT(results[2]["message"]["text"].string, Catch::Contains("slurmd exits on gpu-node01"));
  // File-wide: GitHub needs a location, so the first input at line 1 and no column.
  CHECK(results[4]["level"].string == "note");
  const JsonValue& file_wide = results[4]["locations"][0]["physicalLocation"];
  CHECK(file_wide["artifactLocation"]["uri"].string == "slurm.conf");
  CHECK(file_wide["region"]["startLine"].number == 1);
  CHECK_FALSE(file_wide["region"].has("startColumn"));

  const JsonValue& utf_loc = results[5]["locations"][0]["physicalLocation"];
  CHECK(utf_loc["artifactLocation"]["uri"].string == "sub%20dir/caf%C3%A9.conf");
  CHECK(utf_loc["region"]["startColumn"].number == 11);  // byte column 12
  CHECK(utf_loc["region"]["endColumn"].number == 18);
}

TEST_CASE("sarif names files outside base_dir by absolute URI", "[emit]") {
  SourceManager sm;
  const FileId f = sm.add("/etc/slurm/gres.conf", "Name=gpu\n");
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.rule = &kCountRule;
  d.span = span_of(sm, f, "gpu");
  d.message = "m";
  report.diagnostics.push_back(d);
  EmitOptions options;
  options.base_dir = "/repo";
  std::ostringstream out;
  emit_report(Format::sarif, report, sm, options, out);
  const JsonValue doc = parse_json(out.str());
  const JsonValue& artifact = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  CHECK(artifact["uri"].string == "file:///etc/slurm/gres.conf");
  CHECK_FALSE(artifact.has("uriBaseId"));
}

TEST_CASE("github annotations use GitHub's escaping", "[emit]") {
  Fixture fx;
  fx.add_count_finding();
  const std::string text = fx.emit(Format::github);
  CHECK(text ==
        "::error file=gres.conf,line=3,col=45,endLine=3,endColumn=61,title=GRS301 count-lower-than-configured::"
        "gpu-node01 has 4 gpu:a100 in gres.conf but slurm.conf configures 8%0Aslurmctld drains gpu-node01: "
        "\"gres/gpu count reported lower than configured (4 < 8)\"%0Ahelp: list 8 devices "
        "(File=/dev/nvidia[0-7]) or configure Gres=gpu:a100:4\n");
}

TEST_CASE("github annotations survive hostile config values", "[emit]") {
  SourceManager sm;
  const std::string hostile = "NodeName=n1 Name=gpu Type=::error::x File=/dev/%0A\x1b[31m\n";
  const FileId f = sm.add("/repo/odd,name:x.conf", hostile);
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.rule = &kDegradedRule;
  d.severity = Severity::warning;
  d.span = span_of(sm, f, "Type=::error::x");
  d.message = "unknown Type=::error::x\n::error file=x::injected\r\n::add-mask::secret %0A 100%";
  d.nodes = "n1\n::warning::y";
  d.effect = Effect::degraded;
  d.slurm_message = "gres/gpu: \x1b]8;;http://evil\x07link";
  report.diagnostics.push_back(d);
  Diagnostic note;
  note.rule = &kNoteRule;
  note.severity = Severity::note;
  note.message = "file-wide %";
  report.diagnostics.push_back(note);
  EmitOptions options;
  options.base_dir = "/repo";
  std::ostringstream out;
  emit_report(Format::github, report, sm, options, out);
  const std::string text = out.str();

  const auto lines = output_lines(text);
  REQUIRE(lines.size() == 2);  // no value could add a line, hence no command
  CHECK_THAT(lines[0], Catch::StartsWith("::warning file=odd%2Cname%3Ax.conf,line=1,col=22,endLine=1,endColumn=37,"
                                         "title=GRS991 test-degraded::unknown Type=::error::x\\x0a::error"));
  CHECK_THAT(lines[0], Catch::Contains("\\x0d\\x0a::add-mask::secret %250A 100%25"));
  CHECK_THAT(lines[0], Catch::Contains("%0ASlurm keeps running but not as configured on n1\\x0a::warning::y"));
  CHECK_THAT(lines[0], Catch::Contains("\\x1b]8;;http://evil\\x07link"));
  CHECK(lines[1] == "::notice title=GRS992 test-advice::file-wide %25");
  CHECK_FALSE(has_c0_control(text, true));
  CHECK(text.find('\r') == std::string::npos);
}

TEST_CASE("junit is well-formed XML with failures for errors and warnings", "[emit]") {
  Fixture fx;
  fx.add_everything();
  Diagnostic& hostile = fx.add_count_finding();
  hostile.message = "a <b> & \"c\" 'd' \x1b[1m\x01 \xff \xef\xbf\xbe ]]> end";
  fx.report.inputs.push_back("cgroup.conf");
  const std::string text = fx.emit(Format::junit);

  CHECK_THAT(text, Catch::StartsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"greslint\" "
                                     "tests=\"8\" failures=\"5\" errors=\"0\">\n"));
  CHECK_THAT(text, Catch::Contains("<testsuite name=\"slurm.conf\" tests=\"1\" failures=\"0\""));
  CHECK_THAT(text, Catch::Contains("<testsuite name=\"gres.conf\" tests=\"5\" failures=\"5\""));
  CHECK_THAT(text, Catch::Contains("<testsuite name=\"greslint\" tests=\"1\" failures=\"0\""));
  CHECK_THAT(text, Catch::Contains(
                       "<testcase name=\"GRS301 count-lower-than-configured at gres.conf:3:45\" "
                       "classname=\"gres.conf\" file=\"gres.conf\" line=\"3\">"));
  CHECK_THAT(text, Catch::Contains("a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; \\x1b[1m\\x01 \\xff "
                                   "\xef\xbf\xbd ]]&gt; end"));
  CHECK_FALSE(has_c0_control(text, true));
  if (!python().empty()) {
    const std::string path = write_temp("report.xml", text);
    CHECK(std::system((python() + " -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' " + path)
                          .c_str()) == 0);
    std::remove(path.c_str());
  } else {
    WARN("python3 not found: JUnit XML not parsed");
  }
}

TEST_CASE("gitlab code quality report with edit-stable fingerprints", "[emit]") {
  Fixture fx;
  fx.add_everything();
  const std::string text = fx.emit(Format::gitlab);
  JsonValue doc;
  REQUIRE_NOTHROW(doc = parse_json(text));
  REQUIRE(doc.items.size() == 5);
  const JsonValue& first = doc[0];
  CHECK(first["check_name"].string == "GRS301");
  CHECK(first["severity"].string == "critical");
  CHECK(first["location"]["path"].string == "gres.conf");
  CHECK(first["location"]["lines"]["begin"].number == 3);
  CHECK(first["description"].string ==
        "gpu-node01 has 4 gpu:a100 in gres.conf but slurm.conf configures 8 (slurmctld drains gpu-node01: "
        "\"gres/gpu count reported lower than configured (4 < 8)\")");
  CHECK(first["fingerprint"].string.size() == 16);
  CHECK(doc[2]["severity"].string == "blocker");
  CHECK(doc[3]["severity"].string == "major");
  CHECK(doc[4]["severity"].string == "info");
  CHECK(doc[4]["location"]["path"].string == "slurm.conf");  // file-wide: first input
  CHECK(doc[4]["location"]["lines"]["begin"].number == 1);

  std::vector<std::string> fingerprints;
  for (const JsonValue& issue : doc.items) fingerprints.push_back(issue["fingerprint"].string);
  std::sort(fingerprints.begin(), fingerprints.end());
  CHECK(std::adjacent_find(fingerprints.begin(), fingerprints.end()) == fingerprints.end());

  // The same findings after lines were inserted above them keep their fingerprints.
  Fixture moved;
  moved.gres = moved.sm.add(std::string(kBase) + "/gres.conf", std::string("# new\n# lines\n") + kGresConf);
  moved.add_everything();
  const JsonValue moved_doc = parse_json(moved.emit(Format::gitlab));
  CHECK(moved_doc[0]["location"]["lines"]["begin"].number == 5);
  for (std::size_t i = 0; i < doc.items.size(); ++i)
    CHECK(moved_doc[i]["fingerprint"].string == doc[i]["fingerprint"].string);

  // Rewording a message (a new greslint, another Slurm release) keeps the identity; the
  // same finding on other nodes is another issue.
  Fixture reworded;
  reworded.add_count_finding().message = "gpu-node01 has 3 gpu:a100 in gres.conf but slurm.conf configures 8";
  CHECK(parse_json(reworded.emit(Format::gitlab))[0]["fingerprint"].string == doc[0]["fingerprint"].string);
  Fixture elsewhere;
  elsewhere.add_count_finding().nodes = "gpu-node02";
  CHECK(parse_json(elsewhere.emit(Format::gitlab))[0]["fingerprint"].string != doc[0]["fingerprint"].string);
}

TEST_CASE("paths are shown relative to base_dir", "[emit]") {
  SourceManager sm;
  const FileId inside = sm.add("/repo/./conf/../slurm/gres.conf", "Name=gpu\n");
  const FileId outside = sm.add("/etc/slurm/slurm.conf", "GresTypes=gpu\n");
  LintReport report;
  report.slurm_version = kSlurm2411;
  for (FileId f : {inside, outside}) {
    Diagnostic d;
    d.rule = &kCountRule;
    d.span = Span{f, 0, 4};
    d.message = "m";
    report.diagnostics.push_back(d);
  }
  EmitOptions options;
  options.base_dir = "/repo/";
  std::ostringstream out;
  emit_report(Format::text, report, sm, options, out);
  CHECK_THAT(out.str(), Catch::StartsWith("slurm/gres.conf:1:1: error: m"));
  CHECK_THAT(out.str(), Catch::Contains("\n/etc/slurm/slurm.conf:1:1: error: m"));
}

TEST_CASE("absolute inputs are shown like the files findings name", "[emit]") {
  Fixture fx;
  fx.add_count_finding();
  fx.report.inputs = {std::string(kBase) + "/slurm.conf", std::string(kBase) + "/gres.conf", "/elsewhere/cgroup.conf"};
  const JsonValue doc = parse_json(fx.emit(Format::json));
  CHECK(doc["inputs"][0].string == "slurm.conf");
  CHECK(doc["inputs"][1].string == "gres.conf");
  CHECK(doc["inputs"][2].string == "/elsewhere/cgroup.conf");
  // The finding lands in the gres.conf suite, not in a second one named by absolute path.
  const std::string junit = fx.emit(Format::junit);
  CHECK_THAT(junit, Catch::Contains("<testsuite name=\"gres.conf\" tests=\"1\" failures=\"1\""));
  CHECK(junit.find(kBase) == std::string::npos);
}

TEST_CASE("emitters tolerate spans past the end of a file", "[emit]") {
  SourceManager sm;
  const FileId f = sm.add("gres.conf", "Name=gpu");
  LintReport report;
  report.slurm_version = kSlurm2411;
  Diagnostic d;
  d.rule = &kCountRule;
  d.span = Span{f, 100, 200};
  d.message = "stale";
  d.related.push_back({Span{f, 8, 3}, "inverted"});
  report.diagnostics.push_back(d);
  for (Format format : {Format::text, Format::json, Format::sarif, Format::github, Format::junit, Format::gitlab}) {
    std::ostringstream out;
    REQUIRE_NOTHROW(emit_report(format, report, sm, EmitOptions{}, out));
    CHECK_FALSE(out.str().empty());
  }
  std::ostringstream out;
  emit_report(Format::text, report, sm, EmitOptions{}, out);
  CHECK_THAT(out.str(), Catch::StartsWith("gres.conf:1:9: error: stale [GRS301 count-lower-than-configured]\n"
                                          "    1 | Name=gpu\n"
                                          "      |         ^\n"));
}

TEST_CASE("random bytes and spans never break any format", "[emit]") {
  std::mt19937 rng(20240501);  // fixed seed: a failure is reproducible
  auto random_text = [&](std::size_t max_len) {
    std::string t(rng() % max_len, '\0');
    static const char kAlphabet[] = " =:,%\n\t\x1b" "ab[]09";
    for (char& c : t) c = char(rng() % 4 == 0 ? rng() % 256 : kAlphabet[rng() % (sizeof kAlphabet - 1)]);
    return t;
  };
  for (int round = 0; round < 100; ++round) {
    SourceManager sm;
    const FileId f = sm.add("/r/x" + random_text(6) + ".conf", random_text(120));
    const auto size = std::uint32_t(sm.text(f).size());
    LintReport report;
    report.slurm_version = kSlurm2411;
    report.inputs = {"/r/x.conf", random_text(8)};
    for (int i = 0; i < 3; ++i) {
      Diagnostic d;
      d.rule = &kCountRule;
      d.severity = Severity(rng() % 3);
      d.effect = Effect(rng() % 5);
      d.daemon = Daemon(rng() % 3);
      const std::uint32_t a = size ? rng() % (size + 3) : 0, b = size ? rng() % (size + 3) : 0;
      d.span = rng() % 5 ? Span{f, std::min(a, b), std::max(a, b)} : Span{};
      d.message = random_text(40);
      d.nodes = random_text(10);
      d.slurm_message = random_text(20);
      d.help = random_text(20);
      d.related.push_back({Span{f, b, a}, random_text(10)});
      if (rng() % 2) d.fix = Fix{random_text(10), {Edit{Span{f, a, a}, random_text(5)}}};
      report.diagnostics.push_back(d);
    }
    EmitOptions options;
    options.base_dir = "/r";
    auto emit = [&](Format format) {
      std::ostringstream out;
      emit_report(format, report, sm, options, out);
      return out.str();
    };
    INFO("round " << round);
    CHECK_NOTHROW(parse_json(emit(Format::json)));
    CHECK_NOTHROW(parse_json(emit(Format::sarif)));
    CHECK_NOTHROW(parse_json(emit(Format::gitlab)));
    const std::string text = emit(Format::text);
    CHECK_FALSE(has_c0_control(text, true));
    const std::string github = emit(Format::github);
    CHECK_FALSE(has_c0_control(github, true));
    CHECK(output_lines(github).size() == report.diagnostics.size());
    CHECK_FALSE(has_c0_control(emit(Format::junit), true));
  }
}
