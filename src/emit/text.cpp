// SPDX-License-Identifier: Apache-2.0
// Text emitter: gcc/clang-style findings with a source excerpt and a caret under the span.
#include <algorithm>
#include <string>

#include "emit/emit_detail.hpp"

namespace greslint::emit_detail {
namespace {

constexpr unsigned kTabStop = 8;
constexpr std::size_t kMinGutter = 5;
/// Lines longer than this are excerpted around the span, with this much context before it.
constexpr std::size_t kMaxExcerptBytes = 1024;
constexpr std::size_t kExcerptContext = 256;

struct Style {
  bool on;
  const char* bold() const { return on ? "\033[1m" : ""; }
  const char* reset() const { return on ? "\033[0m" : ""; }
  const char* caret() const { return on ? "\033[1;32m" : ""; }
  const char* severity(Severity s) const {
    if (!on) return "";
    switch (s) {
      case Severity::error: return "\033[1;31m";
      case Severity::warning: return "\033[1;35m";
      case Severity::note: return "\033[1;36m";
    }
    return "";
  }
};

/// A line as printed, and the display column (0-based) where each of its bytes starts.
struct RenderedLine {
  std::string text;
  std::vector<unsigned> column_of;  ///< size = bytes + 1; last entry = width of the line
};

RenderedLine render_line(std::string_view line) {
  RenderedLine r;
  r.column_of.assign(line.size() + 1, 0);
  unsigned column = 0;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == '\t') {
      // Expanded to spaces: a raw tab would let the terminal, not us, decide where the caret lands.
      const unsigned next = (column / kTabStop + 1) * kTabStop;
      r.text.append(next - column, ' ');
      r.column_of[i] = column;
      column = next;
      ++i;
      continue;
    }
    SafeChar c = sanitize_char(line, i);
    for (std::size_t j = 0; j < c.length; ++j) r.column_of[i + j] = column;
    r.text += c.text;
    column += c.width;
    i += c.length;
  }
  r.column_of[line.size()] = column;
  // Trailing blanks would only print as invisible noise after the excerpt.
  while (!r.text.empty() && r.text.back() == ' ') r.text.pop_back();
  return r;
}

std::string gutter(std::size_t width, std::uint32_t line) {
  std::string number = line ? std::to_string(line) : std::string();
  if (number.size() < width) number.insert(0, width - number.size(), ' ');
  return number;
}

class TextEmitter {
 public:
  TextEmitter(const SourceManager& sources, const EmitOptions& options, std::ostream& out)
      : sources_(sources), paths_(sources, options), style_{options.color}, out_(out) {}

  void diagnostic(const Diagnostic& d) {
    const Span span = clamp_span(sources_, d.span);
    header(span, d.severity, sanitize_for_output(d.message));
    out_ << ' ' << '[' << sanitize_for_output(rule_id(d)) << ' ' << sanitize_for_output(rule_name(d))
         << ']' << style_.reset() << '\n';
    if (span.valid()) excerpt(span);
    const Position primary = byte_position(sources_, span);
    const bool folding = should_fold(d.related);
    bool folded = false;
    for (const Related& r : d.related) {
      if (folding && (r.same || r.echo)) {
        if (!folded) fold(d.related);
        folded = true;
        continue;
      }
      const Span rs = clamp_span(sources_, r.span);
      header(rs, Severity::note, sanitize_for_output(r.message));
      out_ << style_.reset() << '\n';
      if (!rs.valid()) continue;
      // A note on the line already shown would only repeat the excerpt.
      if (rs.file != span.file || byte_position(sources_, rs).line != primary.line) excerpt(rs);
    }
    const std::string consequence = consequence_text(d);
    if (!consequence.empty()) out_ << "  = " << consequence << '\n';
    if (!d.help.empty()) out_ << "  = help: " << sanitize_for_output(d.help) << '\n';
    if (d.fix && !d.fix->title.empty())
      out_ << "  = fix available: " << sanitize_for_output(d.fix->title) << '\n';
  }

  void summary(const LintReport& report) {
    if (report.headline && !report.headline->all_ok())
      out_ << style_.bold() << headline_text(*report.headline) << style_.reset() << '\n';
    const Counts c = count_severities(report.diagnostics);
    out_ << style_.bold();
    if (c.error + c.warning + c.note == 0) {
      out_ << "no findings";
    } else {
      out_ << plural(c.error, "error") << ", " << plural(c.warning, "warning") << ", "
           << plural(c.note, "note");
    }
    out_ << style_.reset() << " (Slurm " << report.slurm_version.str() << " profile";
    if (report.version_source.rfind("default", 0) == 0) {
      // Not a place it came "from": nothing pinned it.
      out_ << ", " << sanitize_for_output(report.version_source);
    } else if (!report.version_source.empty()) {
      out_ << " from " << sanitize_for_output(report.version_source);
    }
    out_ << ")\n";
  }

 private:
  static std::string plural(std::size_t n, const char* word) {
    return std::to_string(n) + ' ' + word + (n == 1 ? "" : "s");
  }

  /// The other places a finding stands for (one line per node in a per-node file) are
  /// folded into a line or two, without excerpts: three lines of excerpt each made a finding
  /// about a thousand nodes as long as the file's worst rack. JSON and SARIF list each.
  static bool should_fold(const std::vector<Related>& related) {
    return std::any_of(related.begin(), related.end(), [](const Related& r) { return r.same || r.echo; });
  }

  /// One line for the notes of `related` that `pick` selects, at the first of them:
  /// `file:line:col: note: MESSAGE: a.conf:12, 14, 20; b.conf:3 and K more`, lines of one
  /// file listed after its path.
  template <typename Pick, typename Message>
  void folded_notes(const std::vector<Related>& related, Pick pick, Message message) {
    std::size_t named = 0, counted = 0;
    Span first;
    std::string list;
    FileId file;
    std::uint32_t last_line = 0;
    for (const Related& r : related) {
      if (!pick(r)) continue;
      ++named;
      counted += r.more;
      const Span rs = clamp_span(sources_, r.span);
      if (!rs.valid()) continue;
      if (!first.valid()) first = rs;
      const std::uint32_t line = byte_position(sources_, rs).line;
      if (rs.file == file && line == last_line) continue;
      if (rs.file == file) {
        list += ", " + std::to_string(line);
      } else {
        if (!list.empty()) list += "; ";
        list += sanitize_for_output(paths_.get(rs.file).text) + ':' + std::to_string(line);
      }
      file = rs.file;
      last_line = line;
    }
    if (named == 0) return;
    // One place: its own note, without an excerpt; its header already says where.
    std::string text = message(named + counted);
    if (named + counted == 1) {
      auto only = std::find_if(related.begin(), related.end(), pick);
      text = sanitize_for_output(only->message);
    } else {
      if (!list.empty()) text += ": " + list;
      if (counted) text += " and " + std::to_string(counted) + " more";
    }
    header(first, Severity::note, text);
    out_ << style_.reset() << '\n';
  }

  void fold(const std::vector<Related>& related) {
    folded_notes(related, [](const Related& r) { return r.same; },
                 [](std::size_t n) { return "the same at " + std::to_string(n) + " more place" + (n == 1 ? "" : "s"); });
    const Related* first_echo = nullptr;
    for (const Related& r : related)
      if (r.echo && !r.same && !first_echo) first_echo = &r;
    if (!first_echo) return;
    const std::string first_message = sanitize_for_output(first_echo->message);
    folded_notes(related, [](const Related& r) { return r.echo && !r.same; }, [&](std::size_t n) {
      return n == 1 ? first_message : first_message + " (and " + std::to_string(n - 1) + " more such notes)";
    });
  }

  /// `file:line:col: severity: message` — leaves bold on for the caller's suffix.
  void header(Span span, Severity severity, const std::string& message) {
    out_ << style_.bold();
    if (span.valid()) {
      const Position p = byte_position(sources_, span);
      out_ << sanitize_for_output(paths_.get(span.file).text) << ':' << p.line << ':' << p.column << ": ";
    } else {
      out_ << "greslint: ";
    }
    out_ << style_.severity(severity) << severity_name(severity) << ':' << style_.reset()
         << style_.bold() << ' ' << message;
  }

  void excerpt(Span span) {
    const LineCol begin = sources_.line_col(span.file, span.begin);
    std::string_view line = sources_.line_text(span.file, begin.line);
    const std::size_t width = std::max(kMinGutter, std::to_string(begin.line).size());

    std::size_t first = std::min<std::size_t>(begin.column - 1, line.size());
    const LineCol end = sources_.line_col(span.file, span.end);
    // A span that runs past this line is underlined to the end of the line.
    std::size_t last = end.line == begin.line ? std::min<std::size_t>(end.column - 1, line.size()) : line.size();
    // A very long line is shown as a window around the span: rendering all of a 10 MB line
    // for each of its findings made the report quadratic in the line's length.
    const char* lead = "";
    const char* trail = "";
    if (line.size() > kMaxExcerptBytes) {
      std::size_t b = first > kExcerptContext ? first - kExcerptContext : 0;
      std::size_t e = std::min(line.size(), std::max(last, first + 1) + kExcerptContext);
      e = std::min(e, b + kMaxExcerptBytes);
      // Whole UTF-8 characters only.
      while (b > 0 && (static_cast<unsigned char>(line[b]) & 0xC0) == 0x80) --b;
      while (e < line.size() && (static_cast<unsigned char>(line[e]) & 0xC0) == 0x80) ++e;
      lead = b > 0 ? "..." : "";
      trail = e < line.size() ? "..." : "";
      line = line.substr(b, e - b);
      first -= b;
      last = std::clamp(last, b, e) - b;
    }
    const RenderedLine rendered = render_line(line);
    const unsigned shift = unsigned(std::char_traits<char>::length(lead));
    const unsigned from = rendered.column_of[first] + shift;
    const unsigned to = std::max(rendered.column_of[last] + shift, from + 1);

    out_ << gutter(width, begin.line) << " |";
    if (!rendered.text.empty() || *lead) out_ << ' ' << lead << rendered.text << trail;
    out_ << '\n';
    out_ << gutter(width, 0) << " | " << std::string(from, ' ') << style_.caret() << '^'
         << std::string(to - from - 1, '~') << style_.reset() << '\n';
  }

  const SourceManager& sources_;
  PathTable paths_;
  Style style_;
  std::ostream& out_;
};

}  // namespace

void emit_text(const LintReport& report, const SourceManager& sources, const EmitOptions& options,
               std::ostream& out) {
  TextEmitter emitter(sources, options, out);
  for (const Diagnostic& d : report.diagnostics) emitter.diagnostic(d);
  emitter.summary(report);
}

}  // namespace greslint::emit_detail
