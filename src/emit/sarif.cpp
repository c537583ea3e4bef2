// SPDX-License-Identifier: Apache-2.0
// SARIF 2.1.0 emitter for GitHub code scanning: registry rules, repo-relative URIs, real columns.
#include <algorithm>
#include <map>

#include "emit/emit_detail.hpp"
#include "greslint/registry.hpp"

namespace greslint::emit_detail {
namespace {

constexpr std::string_view kInformationUri = "https://github.com/greslint/greslint";
constexpr std::string_view kSrcRoot = "%SRCROOT%";

std::string_view sarif_level(Severity s) noexcept {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "warning";
}

/// Percent-encodes everything a URI path may not hold literally (RFC 3986 pchar plus '/').
std::string uri_encode_path(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == '!' || c == '$' ||
                       c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' || c == ',' ||
                       c == ';' || c == '=' || c == '@';
    // ':' stays encoded: in a relative reference it would read as a URI scheme.
    if (plain) {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

/// The first paragraph under "## What it does" in a rule page, unwrapped to one line.
std::string what_it_does(std::string_view doc) {
  const auto heading = doc.find("## What it does");
  if (heading == std::string_view::npos) return {};
  std::size_t pos = doc.find('\n', heading);
  std::string text;
  while (pos != std::string_view::npos && pos + 1 < doc.size()) {
    const std::size_t start = pos + 1;
    std::size_t end = doc.find('\n', start);
    std::string_view line = doc.substr(start, end == std::string_view::npos ? end : end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) {
      if (!text.empty()) break;
    } else if (line[0] == '#') {
      break;
    } else {
      if (!text.empty()) text += ' ';
      text.append(line);
    }
    pos = end;
  }
  return text;
}

/// Ends `s` as a sentence, which is how SARIF viewers expect messages to read.
std::string sentence(std::string s) {
  if (!s.empty() && s.back() != '.' && s.back() != '!' && s.back() != '?') s += '.';
  return s;
}

/// Whether consequence_text() already names the affected nodes.
bool consequence_names_nodes(const Diagnostic& d) {
  return d.effect == Effect::drain || d.effect == Effect::degraded ||
         (d.effect == Effect::fatal && d.daemon == Daemon::slurmd);
}

std::string result_text(const Diagnostic& d) {
  std::string text = sentence(sanitize_for_output(d.message));
  if (!d.nodes.empty() && !consequence_names_nodes(d))
    text += " Affected nodes: " + sentence(sanitize_for_output(d.nodes));
  const std::string consequence = consequence_text(d);
  if (!consequence.empty()) text += " " + sentence(consequence);
  if (!d.help.empty()) text += " Help: " + sentence(sanitize_for_output(d.help));
  return text;
}

class SarifEmitter {
 public:
  SarifEmitter(const SourceManager& sources, const EmitOptions& options, std::ostream& out)
      : sources_(sources), options_(options), paths_(sources, options), w_(out) {}

  void report(const LintReport& report) {
    inputs_ = display_inputs(report, options_);
    collect_rules(report);
    w_.begin_object();
    w_.key("$schema").string("https://json.schemastore.org/sarif-2.1.0.json");
    w_.key("version").string("2.1.0");
    w_.key("runs").begin_array();
    w_.begin_object();
    driver();
    w_.key("columnKind").string("unicodeCodePoints");
    w_.key("results").begin_array();
    const std::vector<std::string> fingerprints = report_fingerprints(report, sources_);
    for (std::size_t i = 0; i < report.diagnostics.size(); ++i) result(report.diagnostics[i], fingerprints[i]);
    w_.end_array();
    w_.key("properties").begin_object();
    w_.key("slurmVersion").string(report.slurm_version.str());
    w_.key("versionSource").string_or_null(report.version_source);
    w_.end_object();
    w_.end_object();
    w_.end_array();
    w_.end_object();
  }

 private:
  // Every rule of the registry, so code scanning can show rules that found nothing, plus any
  // rule a diagnostic points at that the registry does not list (ruleIndex must resolve).
  void collect_rules(const LintReport& report) {
    for (const RuleInfo* r : all_rules()) add_rule(r);
    for (const Diagnostic& d : report.diagnostics)
      if (d.rule) add_rule(d.rule);
  }

  void add_rule(const RuleInfo* r) {
    if (rule_index_.count(std::string(r->id))) return;
    rule_index_.emplace(std::string(r->id), rules_.size());
    rules_.push_back(r);
  }

  void driver() {
    w_.key("tool").begin_object();
    w_.key("driver").begin_object();
    w_.key("name").string("greslint");
    w_.key("version").string(GRESLINT_VERSION);
    w_.key("semanticVersion").string(GRESLINT_VERSION);
    w_.key("informationUri").string(kInformationUri);
    w_.key("rules").begin_array();
    for (const RuleInfo* r : rules_) rule(*r);
    w_.end_array();
    w_.end_object();
    w_.end_object();
  }

  void rule(const RuleInfo& r) {
    const std::string_view doc = rule_doc(r.id);
    std::string full = what_it_does(doc);
    if (full.empty()) full = std::string(r.summary);
    w_.begin_object();
    w_.key("id").string(r.id);
    w_.key("name").string(r.name);
    w_.key("shortDescription").begin_object().key("text").string(sentence(std::string(r.summary))).end_object();
    w_.key("fullDescription").begin_object().key("text").string(sentence(full)).end_object();
    // No page address is better than one that may not exist: the page is in help.markdown.
    const std::string& base = options_.docs_url;
    const std::string page = base.empty() ? std::string() : base + std::string(r.id) + ".md";
    if (!page.empty()) w_.key("helpUri").string(page);
    // GitHub code scanning rejects a rule without help.text.
    w_.key("help").begin_object();
    w_.key("text").string(sentence(std::string(r.summary)) + " Documentation: " +
                          (page.empty() ? "`greslint explain " + std::string(r.id) + "`" : page));
    if (!doc.empty()) w_.key("markdown").string(doc);
    w_.end_object();
    w_.key("defaultConfiguration").begin_object().key("level").string(sarif_level(r.severity)).end_object();
    w_.key("properties").begin_object();
    w_.key("tags").begin_array().string("slurm").string("gres");
    if (!effect_name(r.effect).empty()) w_.string(std::string("effect:") + std::string(effect_name(r.effect)));
    w_.end_array();
    w_.end_object();
    w_.end_object();
  }

  void artifact_location(FileId file) { artifact_location(paths_.get(file)); }

  void artifact_location(const DisplayPath& path) {
    w_.key("artifactLocation").begin_object();
    if (path.under_base) {
      w_.key("uri").string(uri_encode_path(path.text));
      w_.key("uriBaseId").string(kSrcRoot);
    } else if (!path.text.empty() && path.text[0] == '/') {
      // Outside the repository: an absolute file URI is the only honest way to name it.
      w_.key("uri").string("file://" + uri_encode_path(path.text));
    } else {
      w_.key("uri").string(uri_encode_path(path.text));
    }
    w_.end_object();
  }

  void region(Span span, bool with_snippet) {
    const Position p = code_point_position(sources_, span);
    w_.begin_object();
    w_.key("startLine").number(p.line);
    w_.key("startColumn").number(p.column);
    w_.key("endLine").number(p.end_line);
    w_.key("endColumn").number(p.end_column);
    if (with_snippet) w_.key("snippet").begin_object().key("text").string(sources_.text(span)).end_object();
    w_.end_object();
  }

  void physical_location(Span span) {
    w_.key("physicalLocation").begin_object();
    artifact_location(span.file);
    w_.key("region");
    region(span, true);
    w_.end_object();
  }

  void result(const Diagnostic& d, const std::string& fingerprint) {
    const Span span = clamp_span(sources_, d.span);
    w_.begin_object();
    w_.key("ruleId").string(rule_id(d));
    if (d.rule) w_.key("ruleIndex").number(rule_index_.at(std::string(d.rule->id)));
    w_.key("level").string(sarif_level(d.severity));
    w_.key("message").begin_object().key("text").string(result_text(d)).end_object();
    if (span.valid()) {
      w_.key("locations").begin_array().begin_object();
      physical_location(span);
      w_.end_object().end_array();
    } else if (!inputs_.empty()) {
      // Code scanning drops a result without a location; a file-wide finding belongs to the
      // first file read, at its first line (no column is claimed).
      const std::string& path = inputs_.front();
      const bool relative = path.empty() || path[0] != '/';
      w_.key("locations").begin_array().begin_object();
      w_.key("physicalLocation").begin_object();
      artifact_location(DisplayPath{path, relative});
      w_.key("region").begin_object().key("startLine").number(1).end_object();
      w_.end_object();
      w_.end_object().end_array();
    }
    related(d);
    w_.key("partialFingerprints").begin_object();
    w_.key("greslintFingerprint/v2").string(fingerprint);
    w_.end_object();
    if (d.fix) fixes(*d.fix);
    properties(d);
    w_.end_object();
  }

  void related(const Diagnostic& d) {
    bool any = false;
    std::uint64_t id = 0;
    for (const Related& r : d.related) {
      const Span rs = clamp_span(sources_, r.span);
      ++id;
      if (!rs.valid()) continue;
      if (!any) w_.key("relatedLocations").begin_array();
      any = true;
      w_.begin_object();
      w_.key("id").number(id);
      physical_location(rs);
      w_.key("message").begin_object().key("text").string(sentence(sanitize_for_output(r.message))).end_object();
      w_.end_object();
    }
    if (any) w_.end_array();
  }

  void fixes(const Fix& fix) {
    // One artifactChange per file, edits in their original order.
    std::vector<std::uint16_t> files;
    for (const Edit& e : fix.edits) {
      const Span s = clamp_span(sources_, e.span);
      if (s.valid() && std::find(files.begin(), files.end(), s.file.index) == files.end())
        files.push_back(s.file.index);
    }
    if (files.empty()) return;
    w_.key("fixes").begin_array().begin_object();
    w_.key("description").begin_object().key("text").string(sentence(sanitize_for_output(fix.title))).end_object();
    w_.key("artifactChanges").begin_array();
    for (std::uint16_t f : files) {
      w_.begin_object();
      artifact_location(FileId{f});
      w_.key("replacements").begin_array();
      for (const Edit& e : fix.edits) {
        const Span s = clamp_span(sources_, e.span);
        if (!s.valid() || s.file.index != f) continue;
        w_.begin_object();
        w_.key("deletedRegion");
        region(s, false);
        w_.key("insertedContent").begin_object().key("text").string(e.replacement).end_object();
        w_.end_object();
      }
      w_.end_array();
      w_.end_object();
    }
    w_.end_array();
    w_.end_object().end_array();
  }

  void properties(const Diagnostic& d) {
    w_.key("properties").begin_object();
    w_.key("ruleName").string(rule_name(d));
    if (!d.nodes.empty()) w_.key("nodes").string(d.nodes);
    if (!effect_name(d.effect).empty()) w_.key("effect").string(effect_name(d.effect));
    if (!daemon_name(d.daemon).empty()) w_.key("daemon").string(daemon_name(d.daemon));
    if (!d.slurm_message.empty()) w_.key("slurmMessage").string(d.slurm_message);
    w_.end_object();
  }

  const SourceManager& sources_;
  const EmitOptions& options_;
  PathTable paths_;
  JsonWriter w_;
  std::vector<const RuleInfo*> rules_;
  std::map<std::string, std::size_t> rule_index_;
  std::vector<std::string> inputs_;
};

}  // namespace

void emit_sarif(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
                std::ostream& out) {
  SarifEmitter(sources, options, out).report(report);
}

}  // namespace greslint::emit_detail

namespace greslint {

std::string_view configured_docs_url() noexcept { return GRESLINT_DOCS_URL; }

}  // namespace greslint
