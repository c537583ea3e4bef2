// SPDX-License-Identifier: Apache-2.0
// `greslint lint`: analyze, apply suppressions, overrides and filters, emit.
#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <tuple>

#include "commands/lint_session.hpp"
#include "greslint/baseline.hpp"
#include "greslint/registry.hpp"
#include "util.hpp"

namespace greslint {

namespace {

/// Writes the report to -o FILE or `out` (nothing with -q when there is nothing to say);
/// false when FILE cannot be written.
bool write_report(const LintOptions& o, const LintReport& report, const Analysis& run, std::ostream& out,
                  std::ostream& err) {
  EmitOptions eo;
  eo.color = o.color && o.output.empty();
  // Paths relative to where greslint runs, like a compiler: in CI that is the repository
  // root, which is what SARIF and GitHub annotations need.
  char cwd[4096];
  eo.base_dir = ::getcwd(cwd, sizeof(cwd)) ? cwd : dirname_of(run.slurm_conf);
  if (!o.output.empty()) {
    std::ofstream file(o.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o.output);
      return false;
    }
    emit_report(o.format, report, run.sources, eo, file);
  } else if (!(o.quiet && report.diagnostics.empty())) {
    emit_report(o.format, report, run.sources, eo, out);
  }
  return true;
}

/// --min-severity: drops the findings below it (and their fingerprints).
void drop_below(Severity min, LintReport& report) {
  std::vector<Diagnostic> kept;
  std::vector<std::string> prints;
  for (std::size_t i = 0; i < report.diagnostics.size(); ++i) {
    if (report.diagnostics[i].severity < min) continue;
    kept.push_back(std::move(report.diagnostics[i]));
    if (i < report.fingerprints.size()) prints.push_back(std::move(report.fingerprints[i]));
  }
  report.diagnostics = std::move(kept);
  report.fingerprints = std::move(prints);
}

/// --statistics: counts per rule, as text or json, to -o FILE or `out`.
bool write_statistics(const LintOptions& o, const LintReport& report, std::ostream& out, std::ostream& err) {
  if (o.output.empty()) {
    if (!(o.quiet && report.diagnostics.empty())) emit_statistics(o.format, report, out);
    return true;
  }
  std::ofstream file(o.output);
  if (!file) {
    err << fmt::format("greslint: cannot write {}\n", o.output);
    return false;
  }
  emit_statistics(o.format, report, file);
  return true;
}

void note_dropped(const Analysis& run, std::ostream& err) {
  if (run.dropped.empty()) return;
  std::string dropped;
  for (const auto& [id, n] : run.dropped)
    dropped += fmt::format("{}{} more {}", dropped.empty() ? "" : ", ", n, id);
  err << fmt::format("greslint: note: at most {} findings of one rule are reported; not reported: {}\n",
                     Reporter::kMaxPerRule, dropped);
}

}  // namespace

namespace {
bool g_end_after_report = false;
}  // namespace

void end_process_after_report(bool yes) { g_end_after_report = yes; }

void finish_with(std::unique_ptr<Analysis> analysis) {
  if (!g_end_after_report) return;
  // Reachable from a global until exit, so leak checkers see memory in use, not lost.
  static auto* const kept = new std::vector<Analysis*>;
  kept->push_back(analysis.release());
}

int run_lint(const LintOptions& options, std::ostream& out, std::ostream& err) {
  LintOptions o = options;
  if (!load_config_file(o, err)) return 2;
  if (o.statistics && o.format != Format::text && o.format != Format::json) {
    if (o.format_given) {
      err << "greslint: --statistics writes text or json\n";
      return 2;
    }
    o.format = Format::text;  // a Format= of .greslint.conf is for the findings
  }
  auto run = analyze_configuration(o, err);
  if (!run) return 2;
  // The baseline written holds every finding, including those an older baseline accepts.
  if (!o.write_baseline.empty() && !write_baseline(o.write_baseline, *run, err)) return 2;
  if (!o.baseline.empty()) {
    auto known = read_baseline(o.baseline, err);
    if (!known) return 2;
    drop_baselined(*known, *run);
  }
  LintReport report;
  report.slurm_version = run->version.version;
  report.version_source = run->version.source;
  report.inputs = run->inputs;
  report.diagnostics = std::move(run->findings);
  report.fingerprints = std::move(run->fingerprints);
  if (o.min_severity) drop_below(*o.min_severity, report);
  if (o.format == Format::text) report.headline = run->headline;
  if (!(o.statistics ? write_statistics(o, report, out, err) : write_report(o, report, *run, out, err))) return 2;
  note_dropped(*run, err);
  const bool unreadable = run->input_unreadable;
  finish_with(std::move(run));
  if (unreadable) return 2;
  return exit_code_for(report.diagnostics, o.fail_level);
}

std::optional<FailLevel> parse_fail_level(std::string_view text) {
  if (iequals(text, "error")) return FailLevel::error;
  if (iequals(text, "warning")) return FailLevel::warning;
  if (iequals(text, "note")) return FailLevel::note;
  if (iequals(text, "never")) return FailLevel::never;
  return std::nullopt;
}

int exit_code_for(const std::vector<Diagnostic>& diagnostics, FailLevel level) {
  Severity threshold = Severity::error;
  switch (level) {
    case FailLevel::never: return 0;
    case FailLevel::error: threshold = Severity::error; break;
    case FailLevel::warning: threshold = Severity::warning; break;
    case FailLevel::note: threshold = Severity::note; break;
  }
  for (const Diagnostic& d : diagnostics)
    if (d.severity >= threshold) return 1;
  return 0;
}

}  // namespace greslint
