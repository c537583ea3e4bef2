// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the emitters: UTF-8, JSON writing, paths, positions, fingerprints.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/diagnostic.hpp"
#include "greslint/emit.hpp"
#include "greslint/source.hpp"

namespace greslint::emit_detail {

// The output contract owns these spellings, so the emitters do not depend on anyone
// else's to_string().
std::string_view severity_name(Severity s) noexcept;
std::string_view effect_name(Effect e) noexcept;  ///< "" for Effect::none
std::string_view daemon_name(Daemon d) noexcept;  ///< "" for Daemon::none

struct Utf8Char {
  char32_t code_point;  ///< U+FFFD when !valid
  std::size_t length;   ///< bytes consumed, >= 1 (a maximal ill-formed subpart when !valid)
  bool valid;
};
/// Decodes one character at `i` (< s.size()); rejects overlongs, surrogates and > U+10FFFF.
Utf8Char decode_utf8(std::string_view s, std::size_t i) noexcept;
void append_utf8(std::string& out, char32_t cp);

/// One character of sanitised text: what to print and how many terminal cells it takes.
struct SafeChar {
  std::size_t length;  ///< input bytes consumed
  std::string text;    ///< printable replacement (or the character itself)
  unsigned width;      ///< terminal cells
};
/// Control characters, C1 controls, bidi overrides and invalid bytes become \xNN / \uNNNN.
SafeChar sanitize_char(std::string_view s, std::size_t i);

/// `s` as a JSON string literal: valid UTF-8 (bad bytes -> U+FFFD), every control escaped.
std::string json_quote(std::string_view s);

/// Streaming, pretty-printing JSON writer; the caller supplies a well-nested sequence.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& string(std::string_view v);
  /// null for an empty string: the schema says "absent" that way.
  JsonWriter& string_or_null(std::string_view v);
  JsonWriter& number(std::uint64_t v);
  JsonWriter& boolean(bool v);
  JsonWriter& null();

 private:
  struct Level {
    bool object;
    std::size_t count;
  };
  void before_value();
  void newline();
  std::ostream& out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
};

/// How a file is shown: relative to base_dir when it lies under it, else as given.
struct DisplayPath {
  std::string text;
  bool under_base;  ///< text is relative to base_dir (SARIF can use %SRCROOT%)
};
DisplayPath display_path(const std::string& path, const std::string& base_dir);

/// Caches display paths per file; every emitter asks for the same FileIds repeatedly.
class PathTable {
 public:
  PathTable(const SourceManager& sources, const EmitOptions& options)
      : sources_(sources), base_dir_(options.base_dir) {}
  const DisplayPath& get(FileId f);

 private:
  const SourceManager& sources_;
  std::string base_dir_;
  std::map<std::uint16_t, DisplayPath> cache_;
};

/// report.inputs as displayed: absolute paths under base_dir become relative, so they match
/// the file names the findings carry.
std::vector<std::string> display_inputs(const LintReport& report, const EmitOptions& options);

/// 1-based start and one-past-the-end position of a span; columns in bytes.
struct Position {
  std::uint32_t line = 0, column = 0, end_line = 0, end_column = 0;
};
/// `span` clamped to its file, so a stale offset can never read out of bounds.
Span clamp_span(const SourceManager& sources, Span span);
Position byte_position(const SourceManager& sources, Span span);
/// The same position with columns counted in Unicode code points (SARIF, GitHub).
Position code_point_position(const SourceManager& sources, Span span);

std::uint64_t fnv1a64(std::string_view data, std::uint64_t hash = 0xcbf29ce484222325ULL) noexcept;
std::string hex64(std::uint64_t v);

/// report.fingerprints, or, when the caller left them out, computed relative to the
/// directory of the first file read (slurm.conf).
std::vector<std::string> report_fingerprints(const LintReport& report, const SourceManager& sources);

/// What Slurm does, as one sanitised sentence without the leading "= "; "" if nothing.
/// e.g. `slurmctld drains gpu01: "gres/gpu count reported lower than configured (4 < 8)"`.
std::string consequence_text(const Diagnostic& d);

/// Message, consequence and help joined by '\n', every part sanitised.
std::string full_message(const Diagnostic& d);

/// Counts by severity, for summaries.
struct Counts {
  std::size_t error = 0, warning = 0, note = 0;
};
Counts count_severities(const std::vector<Diagnostic>& diagnostics);

std::string_view rule_id(const Diagnostic& d) noexcept;
std::string_view rule_name(const Diagnostic& d) noexcept;

// The individual formats.
void emit_text(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
               std::ostream& out);
void emit_concise(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                  std::ostream& out);
/// "cluster: 4 of 64 nodes drain (gpu[01-04]); 32 of 512 configured GPUs lost", one line.
std::string headline_text(const ClusterHeadline& h);
void emit_json(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
               std::ostream& out);
void emit_sarif(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                std::ostream& out);
void emit_github(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                 std::ostream& out);
void emit_junit(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                std::ostream& out);
void emit_gitlab(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                 std::ostream& out);

}  // namespace greslint::emit_detail
