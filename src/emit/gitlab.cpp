// SPDX-License-Identifier: Apache-2.0
// GitLab Code Quality emitter: a JSON array of issues with edit-stable fingerprints.
#include "emit/emit_detail.hpp"

namespace greslint::emit_detail {
namespace {

// GitLab's scale is info < minor < major < critical < blocker; a daemon that will not
// start blocks everything, a drained node is critical, lost GPUs are major.
std::string_view gitlab_severity(const Diagnostic& d) noexcept {
  switch (d.severity) {
    case Severity::error: return d.effect == Effect::fatal ? "blocker" : "critical";
    case Severity::warning: return "major";
    case Severity::note: return d.effect == Effect::advice ? "info" : "minor";
  }
  return "major";
}

}  // namespace

void emit_gitlab(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                 std::ostream& out) {
  PathTable paths(sources, options);
  const std::vector<std::string> fingerprints = report_fingerprints(report, sources);
  const std::vector<std::string> inputs = display_inputs(report, options);
  JsonWriter w(out);
  w.begin_array();
  for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
    const Diagnostic& d = report.diagnostics[i];
    const Span span = clamp_span(sources, d.span);
    // GitLab requires a path; a file-less finding is attached to the first file read.
    const std::string path = span.valid() ? paths.get(span.file).text
                                          : (inputs.empty() ? std::string() : inputs.front());
    const Position p = byte_position(sources, span);
    std::string description = sanitize_for_output(d.message);
    const std::string consequence = consequence_text(d);
    if (!consequence.empty()) description += " (" + consequence + ")";
    w.begin_object();
    w.key("type").string("issue");
    w.key("description").string(description);
    w.key("check_name").string(rule_id(d));
    w.key("fingerprint").string(fingerprints[i]);
    w.key("severity").string(gitlab_severity(d));
    w.key("engine_name").string("greslint");
    w.key("location").begin_object();
    w.key("path").string(path);
    w.key("lines").begin_object().key("begin").number(p.line ? p.line : 1).end_object();
    w.end_object();
    w.end_object();
  }
  w.end_array();
}

}  // namespace greslint::emit_detail
