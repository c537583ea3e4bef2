// SPDX-License-Identifier: Apache-2.0
// GitHub Actions workflow commands (::error file=...::msg), escaped as actions/toolkit does.
#include "emit/emit_detail.hpp"

namespace greslint::emit_detail {
namespace {

std::string_view command_name(Severity s) noexcept {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "notice";
  }
  return "warning";
}

// actions/toolkit packages/core/src/command.ts: escapeData.
std::string escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

// escapeProperty: escapeData plus the two characters that delimit properties.
std::string escape_property(std::string_view s) {
  std::string out;
  for (char c : escape_data(s)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

void emit_github(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                 std::ostream& out) {
  PathTable paths(sources, options);
  for (const Diagnostic& d : report.diagnostics) {
    // Everything taken from a linted file is sanitised first: no raw CR/LF can survive to start
    // a new workflow command, and no ESC can reach the log viewer's ANSI renderer.
    std::vector<std::string> properties;
    const Span span = clamp_span(sources, d.span);
    if (span.valid()) {
      const Position p = code_point_position(sources, span);
      properties.push_back("file=" + escape_property(sanitize_for_output(paths.get(span.file).text)));
      properties.push_back("line=" + std::to_string(p.line));
      properties.push_back("col=" + std::to_string(p.column));
      properties.push_back("endLine=" + std::to_string(p.end_line));
      // GitHub ignores a column range that spans lines.
      if (p.end_line == p.line) properties.push_back("endColumn=" + std::to_string(p.end_column));
    }
    properties.push_back("title=" + escape_property(sanitize_for_output(std::string(rule_id(d)) + " " +
                                                                         std::string(rule_name(d)))));
    out << "::" << command_name(d.severity) << ' ';
    for (std::size_t i = 0; i < properties.size(); ++i) out << (i ? "," : "") << properties[i];
    out << "::" << escape_data(full_message(d)) << '\n';
  }
}

}  // namespace greslint::emit_detail
