// SPDX-License-Identifier: Apache-2.0
// Suppression comments, ShellCheck/hadolint style, read from the linted files themselves.
#include "suppress.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "greslint/registry.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint {
namespace {

struct Suppression {
  Span span;          ///< the id inside the comment
  const RuleInfo* rule = nullptr;
  bool whole_file = false;
  FileId file;
  std::uint32_t begin = 0, end = 0;  ///< byte range of the record it covers
  bool used = false;
};

/// The byte range of the logical line that a suppression comment on `line` covers: its own
/// line when code precedes the comment, else the next non-blank, non-comment line (with its
/// continuation lines).
std::pair<std::uint32_t, std::uint32_t> target_range(const SourceManager& sources, FileId file, std::uint32_t line,
                                                     std::uint32_t comment_offset) {
  std::string_view text = sources.text(file);
  auto line_start = [&](std::uint32_t l) {
    std::string_view t = sources.line_text(file, l);
    return std::uint32_t(t.data() - text.data());
  };
  std::string_view own = sources.line_text(file, line);
  std::string_view before = own.substr(0, comment_offset - line_start(line));
  std::uint32_t l = line;
  if (std::all_of(before.begin(), before.end(), [](char c) { return is_space(c); })) {
    for (l = line + 1;; ++l) {
      std::string_view t = sources.line_text(file, l);
      if (t.data() == nullptr || (t.empty() && line_start(l) >= text.size())) return {0, 0};
      auto first = std::find_if_not(t.begin(), t.end(), [](char c) { return is_space(c); });
      if (first != t.end() && *first != '#') break;
    }
  }
  std::uint32_t begin = line_start(l);
  std::uint32_t last = l;
  while (true) {
    std::string_view t = sources.line_text(file, last);
    std::size_t n = t.size();
    while (n > 0 && is_space(t[n - 1])) --n;
    std::size_t bs = 0;
    while (bs < n && t[n - 1 - bs] == '\\') ++bs;
    if (bs % 2 == 0) break;
    ++last;
  }
  std::string_view t = sources.line_text(file, last);
  return {begin, std::uint32_t(t.data() - text.data() + t.size())};
}

bool covers(const Suppression& s, Span span) {
  return span.valid() && span.file == s.file && (s.whole_file || (span.begin >= s.begin && span.begin < s.end));
}

/// A suppression silences a finding on the record the finding points at, or on a record of
/// the other file that the finding names as related: a count in gres.conf is as much about
/// the slurm.conf NodeName line it contradicts, and an admin writes the comment where the
/// nodes are defined. The related places in the finding's own file (other lines that say
/// the same) do not count: those are the same finding seen elsewhere, not the other half.
bool covers(const Suppression& s, const Diagnostic& d) {
  if (covers(s, d.span)) return true;
  if (s.whole_file) return false;  // disable-file is about the findings of that file
  return std::any_of(d.related.begin(), d.related.end(),
                     [&](const Related& r) { return r.span.file != d.span.file && covers(s, r.span); });
}

}  // namespace

void apply_suppressions(const std::vector<Comment>& comments, const SourceManager& sources,
                        std::vector<Diagnostic>& diagnostics, Reporter& out, CheckedRules checked) {
  std::vector<Suppression> all;
  for (const Comment& c : comments) {
    std::string_view body = c.text;
    std::size_t at = body.find("greslint:");
    if (at == std::string_view::npos) continue;
    std::size_t i = at + 9;
    while (i < body.size() && is_space(body[i])) ++i;
    bool whole_file = false;
    if (body.substr(i, 13) == "disable-file=") whole_file = true, i += 13;
    else if (body.substr(i, 8) == "disable=") i += 8;
    else continue;
    // Ids run to the next blank; the comment's own text starts at c.span.begin + 1.
    std::size_t end = i;
    while (end < body.size() && !is_space(body[end])) ++end;
    std::size_t start = i;
    for (std::size_t k = i; k <= end; ++k) {
      if (k < end && body[k] != ',') continue;
      std::string_view id = body.substr(start, k - start);
      Span id_span{c.span.file, std::uint32_t(c.span.begin + 1 + start), std::uint32_t(c.span.begin + 1 + k)};
      start = k + 1;
      if (id.empty()) continue;
      const RuleInfo* rule = find_rule(id);
      if (!rule) {
        out.report(rules::GRS009, id_span, fmt::format("{} is not a greslint rule, so this suppression does nothing", id))
            .help("see `greslint rules` for the ids");
        continue;
      }
      Suppression s;
      s.span = id_span;
      s.rule = rule;
      s.whole_file = whole_file;
      s.file = c.span.file;
      if (!whole_file) std::tie(s.begin, s.end) = target_range(sources, c.span.file, c.line, c.span.begin);
      all.push_back(s);
    }
  }
  if (all.empty()) return;
  diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
                      bool hit = false;
                      for (Suppression& s : all)
                        if (s.rule == d.rule && covers(s, d)) s.used = hit = true;
                      return hit;
                    }),
                    diagnostics.end());
  for (const Suppression& s : all)
    if (!s.used && (!checked || checked(*s.rule)))
      out.report(rules::GRS010, s.span,
                 fmt::format("this suppression of {} matches no finding", s.rule->id))
          .help("remove it; the problem it silenced is gone");
}

}  // namespace greslint
