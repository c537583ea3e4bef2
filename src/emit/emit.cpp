// SPDX-License-Identifier: Apache-2.0
// Format dispatch and the helpers every emitter shares (UTF-8, JSON, paths, fingerprints).
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "emit/emit_detail.hpp"
#include "greslint/fingerprint.hpp"
#include "util.hpp"

namespace greslint {

using namespace emit_detail;

std::optional<Format> parse_format(std::string_view name) {
  std::string lower(name);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  if (lower == "text") return Format::text;
  if (lower == "concise") return Format::concise;
  if (lower == "json") return Format::json;
  if (lower == "sarif") return Format::sarif;
  if (lower == "github") return Format::github;
  if (lower == "junit") return Format::junit;
  if (lower == "gitlab") return Format::gitlab;
  return std::nullopt;
}

void emit_report(Format format, const LintReport& report, const SourceManager& sources,
                 const EmitOptions& options, std::ostream& out) {
  switch (format) {
    case Format::text: return emit_text(report, sources, options, out);
    case Format::concise: return emit_concise(report, sources, options, out);
    case Format::json: return emit_json(report, sources, options, out);
    case Format::sarif: return emit_sarif(report, sources, options, out);
    case Format::github: return emit_github(report, sources, options, out);
    case Format::junit: return emit_junit(report, sources, options, out);
    case Format::gitlab: return emit_gitlab(report, sources, options, out);
  }
}

std::string sanitize_for_output(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    SafeChar c = sanitize_char(text, i);
    out += c.text;
    i += c.length;
  }
  return out;
}

namespace emit_detail {

// The names live with the types (diagnostic.cpp); the emitters print "none" as absent.
std::string_view severity_name(Severity s) noexcept { return to_string(s); }
std::string_view effect_name(Effect e) noexcept { return e == Effect::none ? std::string_view() : to_string(e); }
std::string_view daemon_name(Daemon d) noexcept { return d == Daemon::none ? std::string_view() : to_string(d); }

Utf8Char decode_utf8(std::string_view s, std::size_t i) noexcept {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return {b0, 1, true};
  std::size_t need = 0;
  char32_t cp = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // > U+10FFFF
  } else {
    return {0xFFFD, 1, false};
  }
  for (std::size_t j = 1; j <= need; ++j) {
    if (i + j >= s.size()) return {0xFFFD, j, false};
    const auto b = static_cast<unsigned char>(s[i + j]);
    if (b < lo || b > hi) return {0xFFFD, j, false};
    lo = 0x80;
    hi = 0xBF;
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, need + 1, true};
}

void append_utf8(std::string& out, char32_t cp) {
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

namespace {

// Bidirectional formatting characters reorder what a reader sees ("Trojan Source").
bool is_bidi_control(char32_t cp) noexcept {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// East Asian wide and emoji ranges take two terminal cells; carets must account for them.
bool is_wide(char32_t cp) noexcept {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
         (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
         (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

std::string hex_escape(const char* prefix, unsigned value, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s%0*x", prefix, digits, value);
  return buf;
}

}  // namespace

SafeChar sanitize_char(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b >= 0x20 && b < 0x7F) return {1, std::string(1, char(b)), 1};
  if (b < 0x80) return {1, hex_escape("\\x", b, 2), 4};  // C0 and DEL
  Utf8Char c = decode_utf8(s, i);
  if (!c.valid) {
    // Each raw byte shown on its own, so the user can see exactly what the file holds.
    std::string text;
    for (std::size_t j = 0; j < c.length; ++j)
      text += hex_escape("\\x", static_cast<unsigned char>(s[i + j]), 2);
    return {c.length, text, unsigned(4 * c.length)};
  }
  if ((c.code_point >= 0x80 && c.code_point <= 0x9F) || is_bidi_control(c.code_point))
    return {c.length, hex_escape("\\u", unsigned(c.code_point), 4), 6};
  return {c.length, std::string(s.substr(i, c.length)), is_wide(c.code_point) ? 2u : 1u};
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (b == '"') {
        out += "\\\"";
      } else if (b == '\\') {
        out += "\\\\";
      } else if (b < 0x20 || b == 0x7F) {
        out += hex_escape("\\u", b, 4);
      } else {
        out += char(b);
      }
      ++i;
      continue;
    }
    Utf8Char c = decode_utf8(s, i);
    if (!c.valid) {
      append_utf8(out, 0xFFFD);
    } else if (c.code_point == 0x2028 || c.code_point == 0x2029) {
      // Valid JSON, but not valid JavaScript inside a string; escaping costs nothing.
      out += hex_escape("\\u", unsigned(c.code_point), 4);
    } else {
      out.append(s.substr(i, c.length));
    }
    i += c.length;
  }
  out += '"';
  return out;
}

void JsonWriter::newline() {
  out_ << '\n';
  for (std::size_t i = 0; i < stack_.size(); ++i) out_ << "  ";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!stack_.empty()) {
    if (stack_.back().count++ > 0) out_ << ',';
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ << '{';
  stack_.push_back({true, 0});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  const bool had_members = stack_.back().count > 0;
  stack_.pop_back();
  if (had_members) newline();
  out_ << '}';
  if (stack_.empty()) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ << '[';
  stack_.push_back({false, 0});
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  const bool had_members = stack_.back().count > 0;
  stack_.pop_back();
  if (had_members) newline();
  out_ << ']';
  if (stack_.empty()) out_ << '\n';
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  if (stack_.back().count++ > 0) out_ << ',';
  newline();
  out_ << json_quote(k) << ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view v) {
  before_value();
  out_ << json_quote(v);
  return *this;
}

JsonWriter& JsonWriter::string_or_null(std::string_view v) {
  return v.empty() ? null() : string(v);
}

JsonWriter& JsonWriter::number(std::uint64_t v) {
  before_value();
  out_ << v;
  return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
  before_value();
  out_ << (v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ << "null";
  return *this;
}

DisplayPath display_path(const std::string& path, const std::string& base_dir) {
  namespace fs = std::filesystem;
  if (base_dir.empty() || path.empty()) return {path, fs::path(path).is_relative()};
  std::error_code ec;
  fs::path p(path), base(base_dir);
  // absolute() only consults the current directory; nothing here touches the file system.
  if (p.is_relative()) p = fs::absolute(p, ec);
  if (ec) return {path, false};
  if (base.is_relative()) base = fs::absolute(base, ec);
  if (ec) return {path, false};
  std::string base_text = base.lexically_normal().generic_string();
  while (base_text.size() > 1 && base_text.back() == '/') base_text.pop_back();
  const fs::path rel = p.lexically_normal().lexically_relative(base_text);
  std::string rel_text = rel.generic_string();
  if (rel_text.empty() || rel_text == "." || rel_text.rfind("..", 0) == 0) return {path, false};
  return {rel_text, true};
}

std::vector<std::string> display_inputs(const LintReport& report, const EmitOptions& options) {
  std::vector<std::string> inputs;
  inputs.reserve(report.inputs.size());
  for (const std::string& input : report.inputs) {
    // A relative input is taken as already displayed; re-resolving it against the current
    // directory could name a different file.
    inputs.push_back(!input.empty() && input[0] == '/' ? display_path(input, options.base_dir).text : input);
  }
  return inputs;
}

const DisplayPath& PathTable::get(FileId f) {
  auto it = cache_.find(f.index);
  if (it == cache_.end()) it = cache_.emplace(f.index, display_path(sources_.path(f), base_dir_)).first;
  return it->second;
}

Span clamp_span(const SourceManager& sources, Span span) {
  if (!span.valid() || span.file.index >= sources.file_count()) return Span{};
  const auto size = static_cast<std::uint32_t>(sources.text(span.file).size());
  span.begin = std::min(span.begin, size);
  span.end = std::min(std::max(span.end, span.begin), size);
  return span;
}

Position byte_position(const SourceManager& sources, Span span) {
  span = clamp_span(sources, span);
  if (!span.valid()) return {};
  const LineCol b = sources.line_col(span.file, span.begin);
  const LineCol e = sources.line_col(span.file, span.end);
  return {b.line, b.column, e.line, e.column};
}

namespace {

std::uint32_t code_point_column(const SourceManager& sources, FileId file, std::uint32_t offset) {
  const LineCol lc = sources.line_col(file, offset);
  const std::string_view text = sources.text(file);
  const std::uint32_t line_start = offset - (lc.column - 1);
  std::uint32_t column = 1;
  for (std::size_t i = line_start; i < offset;) {
    i += decode_utf8(text, i).length;
    ++column;
  }
  return column;
}

}  // namespace

Position code_point_position(const SourceManager& sources, Span span) {
  span = clamp_span(sources, span);
  if (!span.valid()) return {};
  Position p = byte_position(sources, span);
  p.column = code_point_column(sources, span.file, span.begin);
  p.end_column = code_point_column(sources, span.file, span.end);
  return p;
}

std::uint64_t fnv1a64(std::string_view data, std::uint64_t hash) noexcept {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::vector<std::string> report_fingerprints(const LintReport& report, const SourceManager& sources) {
  if (report.fingerprints.size() == report.diagnostics.size()) return report.fingerprints;
  const std::string config_dir = sources.file_count() ? dirname_of(sources.path(FileId{0})) : std::string();
  return fingerprint_findings(report.diagnostics, sources, config_dir);
}

std::string consequence_text(const Diagnostic& d) {
  const std::string nodes = sanitize_for_output(d.nodes);
  const std::string quoted =
      d.slurm_message.empty() ? std::string() : ": \"" + sanitize_for_output(d.slurm_message) + "\"";
  const std::string_view daemon = daemon_name(d.daemon);
  switch (d.effect) {
    case Effect::fatal: {
      std::string s = std::string(daemon.empty() ? "Slurm" : daemon) + " exits";
      // slurmctld is one process; slurmd runs per node, so say which ones.
      if (d.daemon == Daemon::slurmd && !nodes.empty()) s += " on " + nodes;
      return s + quoted;
    }
    case Effect::drain: {
      std::string s = std::string(daemon.empty() ? "slurmctld" : daemon) + " drains " +
                      (nodes.empty() ? std::string("the node") : nodes);
      if (!d.reason) return s + quoted;
      // The reason scontrol shows, as `greslint nodes` does; the log line when it differs.
      s += d.reason->empty() ? std::string(" with no reason shown") : ": \"" + sanitize_for_output(*d.reason) + "\"";
      if (!d.reason_note.empty()) s += " (" + sanitize_for_output(d.reason_note) + ")";
      if (!d.slurm_message.empty() && d.slurm_message != *d.reason) s += ", after logging" + quoted.substr(1);
      return s;
    }
    case Effect::degraded:
      return "Slurm keeps running but not as configured" + (nodes.empty() ? "" : " on " + nodes) +
             quoted;
    case Effect::rejected:
      return (d.daemon == Daemon::none ? std::string("sbatch refuses the job") : "slurmctld rejects the job at submission") + quoted;
    case Effect::pends:
      return "slurmctld accepts the job, which then pends for ever" +
             (d.slurm_message.empty() ? std::string() : " with Reason=" + sanitize_for_output(d.slurm_message));
    case Effect::advice:
    case Effect::none:
      if (d.slurm_message.empty()) return {};
      return std::string(daemon.empty() ? "Slurm" : daemon) + " logs" + quoted;
  }
  return {};
}

std::string full_message(const Diagnostic& d) {
  std::string s = sanitize_for_output(d.message);
  const std::string consequence = consequence_text(d);
  if (!consequence.empty()) s += "\n" + consequence;
  if (!d.help.empty()) s += "\nhelp: " + sanitize_for_output(d.help);
  return s;
}

Counts count_severities(const std::vector<Diagnostic>& diagnostics) {
  Counts c;
  for (const Diagnostic& d : diagnostics) {
    switch (d.severity) {
      case Severity::error: ++c.error; break;
      case Severity::warning: ++c.warning; break;
      case Severity::note: ++c.note; break;
    }
  }
  return c;
}

std::string_view rule_id(const Diagnostic& d) noexcept { return d.rule ? d.rule->id : "GRS000"; }
std::string_view rule_name(const Diagnostic& d) noexcept { return d.rule ? d.rule->name : "unknown"; }

}  // namespace emit_detail
}  // namespace greslint
