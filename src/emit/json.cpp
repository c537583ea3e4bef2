// SPDX-License-Identifier: Apache-2.0
// JSON emitter: the stable, versioned report scripts read (docs/greslint-report.schema.json).
#include "emit/emit_detail.hpp"

namespace greslint::emit_detail {
namespace {

constexpr std::uint64_t kSchemaVersion = 1;

class JsonEmitter {
 public:
  JsonEmitter(const SourceManager& sources, const EmitOptions& options, std::ostream& out)
      : sources_(sources), options_(options), paths_(sources, options), w_(out) {}

  void report(const LintReport& report) {
    w_.begin_object();
    w_.key("schema").number(kSchemaVersion);
    w_.key("tool").begin_object();
    w_.key("name").string("greslint");
    w_.key("version").string(GRESLINT_VERSION);
    w_.end_object();
    w_.key("slurm_version").string(report.slurm_version.str());
    w_.key("version_source").string_or_null(report.version_source);
    w_.key("inputs").begin_array();
    for (const std::string& input : display_inputs(report, options_)) w_.string(input);
    w_.end_array();
    w_.key("diagnostics").begin_array();
    const std::vector<std::string> fingerprints = report_fingerprints(report, sources_);
    for (std::size_t i = 0; i < report.diagnostics.size(); ++i) diagnostic(report.diagnostics[i], fingerprints[i]);
    w_.end_array();
    const Counts c = count_severities(report.diagnostics);
    w_.key("summary").begin_object();
    w_.key("error").number(c.error);
    w_.key("warning").number(c.warning);
    w_.key("note").number(c.note);
    w_.end_object();
    w_.end_object();
  }

 private:
  /// file, line, column, end_line, end_column: all null when the span has no file.
  void location(Span span) {
    span = clamp_span(sources_, span);
    if (!span.valid()) {
      for (const char* k : {"file", "line", "column", "end_line", "end_column"}) w_.key(k).null();
      return;
    }
    const Position p = byte_position(sources_, span);
    w_.key("file").string(paths_.get(span.file).text);
    w_.key("line").number(p.line);
    w_.key("column").number(p.column);
    w_.key("end_line").number(p.end_line);
    w_.key("end_column").number(p.end_column);
  }

  void diagnostic(const Diagnostic& d, const std::string& fingerprint) {
    w_.begin_object();
    w_.key("rule").string(rule_id(d));
    w_.key("fingerprint").string(fingerprint);
    w_.key("name").string(rule_name(d));
    w_.key("severity").string(severity_name(d.severity));
    w_.key("message").string(d.message);
    location(d.span);
    w_.key("nodes").string_or_null(d.nodes);
    w_.key("effect").string_or_null(effect_name(d.effect));
    w_.key("daemon").string_or_null(daemon_name(d.daemon));
    w_.key("slurm_message").string_or_null(d.slurm_message);
    w_.key("reason");
    if (d.reason)
      w_.string(*d.reason);
    else
      w_.null();
    w_.key("related").begin_array();
    for (const Related& r : d.related) {
      w_.begin_object();
      location(r.span);
      w_.key("message").string(r.message);
      w_.end_object();
    }
    w_.end_array();
    w_.key("help").string_or_null(d.help);
    w_.key("fix");
    if (!d.fix) {
      w_.null();
    } else {
      w_.begin_object();
      w_.key("title").string(d.fix->title);
      w_.key("edits").begin_array();
      for (const Edit& e : d.fix->edits) {
        w_.begin_object();
        location(e.span);
        w_.key("replacement").string(e.replacement);
        w_.end_object();
      }
      w_.end_array();
      w_.end_object();
    }
    w_.end_object();
  }

  const SourceManager& sources_;
  const EmitOptions& options_;
  PathTable paths_;
  JsonWriter w_;
};

}  // namespace

void emit_json(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
               std::ostream& out) {
  JsonEmitter(sources, options, out).report(report);
}

}  // namespace greslint::emit_detail
