// SPDX-License-Identifier: Apache-2.0
// JUnit XML emitter: a testsuite per input file, a testcase per finding, failures for errors/warnings.
#include <algorithm>

#include "emit/emit_detail.hpp"

namespace greslint::emit_detail {
namespace {

/// XML 1.0 text or attribute value. Controls are already sanitised by the caller except the
/// newlines we put in ourselves; what XML 1.0 still forbids (U+FFFE, U+FFFF, bad UTF-8)
/// becomes U+FFFD so every parser accepts the document.
std::string xml_escape(std::string_view s, bool attribute) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      switch (b) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += attribute ? "&quot;" : "\""; break;
        case '\'': out += attribute ? "&apos;" : "'"; break;
        // Attribute-value normalisation would turn a raw newline into a space.
        case '\n': out += attribute ? "&#10;" : "\n"; break;
        case '\t': out += attribute ? "&#9;" : "\t"; break;
        default:
          if (b < 0x20 || b == 0x7F) {
            out += "\xEF\xBF\xBD";
          } else {
            out += char(b);
          }
      }
      ++i;
      continue;
    }
    Utf8Char c = decode_utf8(s, i);
    if (!c.valid || c.code_point == 0xFFFE || c.code_point == 0xFFFF) {
      append_utf8(out, 0xFFFD);
    } else {
      out.append(s.substr(i, c.length));
    }
    i += c.length;
  }
  return out;
}

std::string attr(std::string_view s) { return xml_escape(s, true); }
std::string text(std::string_view s) { return xml_escape(s, false); }

struct Case {
  const Diagnostic* diagnostic;
  Position position;
};

struct Suite {
  std::string name;
  std::vector<Case> cases;
  std::size_t failures = 0;
};

}  // namespace

void emit_junit(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                std::ostream& out) {
  PathTable paths(sources, options);
  // Inputs first (in the order read) so clean files still show up as passing suites.
  std::vector<Suite> suites;
  auto suite_for = [&](const std::string& name) -> Suite& {
    auto it = std::find_if(suites.begin(), suites.end(), [&](const Suite& s) { return s.name == name; });
    if (it != suites.end()) return *it;
    suites.push_back(Suite{name, {}, 0});
    return suites.back();
  };
  for (const std::string& input : display_inputs(report, options)) suite_for(input);
  std::size_t failures = 0;
  for (const Diagnostic& d : report.diagnostics) {
    const Span span = clamp_span(sources, d.span);
    Suite& suite = suite_for(span.valid() ? paths.get(span.file).text : std::string("greslint"));
    suite.cases.push_back({&d, byte_position(sources, span)});
    if (d.severity != Severity::note) {
      ++suite.failures;
      ++failures;
    }
  }

  std::size_t tests = 0;
  for (const Suite& s : suites) tests += std::max<std::size_t>(s.cases.size(), 1);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"greslint\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"0\">\n";
  for (const Suite& s : suites) {
    const std::string name = attr(sanitize_for_output(s.name));
    out << "  <testsuite name=\"" << name << "\" tests=\"" << std::max<std::size_t>(s.cases.size(), 1)
        << "\" failures=\"" << s.failures << "\" errors=\"0\" skipped=\"0\">\n";
    if (s.cases.empty()) out << "    <testcase name=\"no findings\" classname=\"" << name << "\"/>\n";
    for (const Case& c : s.cases) {
      const Diagnostic& d = *c.diagnostic;
      const std::string id = sanitize_for_output(std::string(rule_id(d)) + " " + std::string(rule_name(d)));
      std::string where;
      if (c.position.line)
        where = sanitize_for_output(s.name) + ":" + std::to_string(c.position.line) + ":" +
                std::to_string(c.position.column);
      out << "    <testcase name=\"" << attr(id + (where.empty() ? "" : " at " + where)) << "\" classname=\""
          << name << "\"";
      if (c.position.line) out << " file=\"" << name << "\" line=\"" << c.position.line << "\"";
      out << ">\n";
      const std::string body = (where.empty() ? std::string("greslint") : where) + ": " +
                               std::string(severity_name(d.severity)) + ": " + full_message(d) + "\n";
      if (d.severity == Severity::note) {
        out << "      <system-out>" << text(body) << "</system-out>\n";
      } else {
        out << "      <failure message=\"" << attr(sanitize_for_output(d.message)) << "\" type=\""
            << severity_name(d.severity) << "\">" << text(body) << "</failure>\n";
      }
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace greslint::emit_detail
