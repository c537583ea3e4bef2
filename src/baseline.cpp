// SPDX-License-Identifier: Apache-2.0
#include "greslint/baseline.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "greslint/config.hpp"
#include "greslint/fingerprint.hpp"
#include "util.hpp"

namespace greslint {
namespace {

bool is_fingerprint(std::string_view token) {
  if (token.size() != 16) return false;
  for (char c : token)
    if (!is_digit(c) && !(c >= 'a' && c <= 'f')) return false;
  return true;
}

/// One line of free text: the baseline stays one finding per line whatever a message holds.
std::string one_line(std::string_view text) {
  std::string out = sanitize_for_output(text);
  for (char& c : out)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return out;
}

}  // namespace

bool write_baseline(const std::string& path, const Analysis& run, std::ostream& err) {
  std::ostringstream text;
  text << "# greslint baseline: `greslint lint --baseline " << one_line(path)
       << "` does not report these findings.\n"
         "# Lines match by their first field, the finding's fingerprint (rule, file, record, nodes;\n"
         "# not line numbers). Regenerate with --write-baseline; delete a line to report it again.\n"
         "# fingerprint     rule    file:line  nodes  message\n";
  const std::string config_dir = dirname_of(run.slurm_conf);
  for (std::size_t i = 0; i < run.findings.size(); ++i) {
    const Diagnostic& d = run.findings[i];
    std::string where = "-";
    if (d.span.valid()) {
      const LineCol lc = run.sources.line_col(d.span.file, d.span.begin);
      where = fmt::format("{}:{}", one_line(fingerprint_path(run.sources.path(d.span.file), config_dir)), lc.line);
    }
    text << fmt::format("{}  {}  {}  {}  {}\n", run.fingerprints[i], d.rule->id, where,
                        d.nodes.empty() ? "-" : one_line(d.nodes), one_line(d.message));
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!(file << text.str()) || !file.flush()) {
    err << fmt::format("greslint: cannot write baseline {}\n", path);
    return false;
  }
  return true;
}

std::optional<std::set<std::string>> read_baseline(const std::string& path, std::ostream& err) {
  std::string text, error;
  if (!read_file_bounded(path, text, error)) {
    err << fmt::format("greslint: baseline {}: {}\n", path, error);
    return std::nullopt;
  }
  std::set<std::string> known;
  std::size_t line_no = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++line_no;
    std::size_t b = 0;
    while (b < line.size() && is_space(line[b])) ++b;
    if (b == line.size() || line[b] == '#') continue;
    std::size_t e = b;
    while (e < line.size() && !is_space(line[e])) ++e;
    if (!is_fingerprint(line.substr(b, e - b))) {
      err << fmt::format("{}:{}:{}: error: a baseline line starts with a 16-digit fingerprint\n", path, line_no, b + 1);
      return std::nullopt;
    }
    known.emplace(line.substr(b, e - b));
  }
  return known;
}

std::size_t drop_baselined(const std::set<std::string>& known, Analysis& run) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < run.findings.size(); ++i) {
    if (known.count(run.fingerprints[i])) continue;
    if (kept != i) {
      run.findings[kept] = std::move(run.findings[i]);
      run.fingerprints[kept] = std::move(run.fingerprints[i]);
    }
    ++kept;
  }
  const std::size_t dropped = run.findings.size() - kept;
  run.findings.resize(kept);
  run.fingerprints.resize(kept);
  return dropped;
}

}  // namespace greslint
