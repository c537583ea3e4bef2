// SPDX-License-Identifier: Apache-2.0
#include "commands/report_options.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fmt/format.h>

#include "util.hpp"

namespace greslint::cli {

void add_format_option(CLI::App& cmd, ReportOptionText& text) {
  cmd.add_option("--format", text.format, "text|concise|json|sarif|github|junit|gitlab")->capture_default_str();
}

void add_fail_level_option(CLI::App& cmd, ReportOptionText& text) {
  cmd.add_option("--fail-level", text.fail_level, "error|warning|note|never")->capture_default_str();
}

void add_color_option(CLI::App& cmd, ReportOptionText& text) {
  cmd.add_option("--color", text.color, "auto|always|never")->capture_default_str();
}

void add_report_options(CLI::App& cmd, LintOptions& o, ReportOptionText& text) {
  add_format_option(cmd, text);
  cmd.add_option("-o,--output", o.output, "write the report to FILE");
  add_fail_level_option(cmd, text);
  cmd.add_option("--select", o.select, "only these rules (ids or names, comma separated)")->delimiter(',');
  cmd.add_option("--ignore", o.ignore, "skip these rules (ids or names, comma separated)")->delimiter(',');
  add_color_option(cmd, text);
  cmd.add_flag("-q,--quiet", o.quiet, "print nothing when there is nothing to report");
  cmd.add_option("--severity", o.severity, "override a rule's severity: ID=error|warning|note")->delimiter(',');
  cmd.add_option("--config", o.config, "read this .greslint.conf instead of searching upward");
  cmd.add_flag("--no-config", o.no_config, "ignore .greslint.conf files");
  cmd.add_option("--prefix-map", text.prefix_map,
                 "read Includes under OLD from NEW instead (OLD=NEW, repeatable): a checkout of /etc/slurm");
}

bool apply_report_options(const CLI::App& cmd, const ReportOptionText& text, LintOptions& o, std::ostream& err) {
  auto format = checked_format(text.format, err);
  if (!format) return false;
  auto level = checked_fail_level(text.fail_level, err);
  if (!level) return false;
  auto color = checked_color(text.color, err);
  if (!color) return false;
  o.format = *format;
  o.fail_level = *level;
  o.color = *color;
  o.format_given = cmd.count("--format") > 0;
  o.fail_level_given = cmd.count("--fail-level") > 0;
  char cwd[4096];
  const std::string here = ::getcwd(cwd, sizeof(cwd)) ? cwd : ".";
  for (const std::string& item : text.prefix_map) {
    auto entry = parse_prefix_map(item, here);
    if (!entry) {
      err << fmt::format("greslint: --prefix-map takes OLD=NEW, not '{}'\n", item);
      return false;
    }
    o.prefix_map.push_back(std::move(*entry));
  }
  return true;
}

std::optional<bool> checked_color(const std::string& when, std::ostream& err) {
  if (iequals(when, "always")) return true;
  if (iequals(when, "never")) return false;
  if (iequals(when, "auto")) return ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  err << "greslint: --color takes auto, always or never\n";
  return std::nullopt;
}

std::optional<Format> checked_format(const std::string& text, std::ostream& err) {
  auto format = parse_format(text);
  if (!format) err << "greslint: unknown format '" << text << "'\n";
  return format;
}

std::optional<FailLevel> checked_fail_level(const std::string& text, std::ostream& err) {
  auto level = parse_fail_level(text);
  if (!level) err << "greslint: --fail-level takes error, warning, note or never\n";
  return level;
}

}  // namespace greslint::cli
