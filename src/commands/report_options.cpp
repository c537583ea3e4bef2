// SPDX-License-Identifier: Apache-2.0
#include "commands/report_options.hpp"

#include <unistd.h>

#include <cstdlib>

namespace greslint::cli {

void add_format_option(CLI::App& cmd, ReportOptionText& text) {
  cmd.add_option("--format", text.format, "text|json|sarif|github|junit|gitlab")->capture_default_str();
}

void add_fail_level_option(CLI::App& cmd, ReportOptionText& text) {
  cmd.add_option("--fail-level", text.fail_level, "error|warning|note|never")->capture_default_str();
}

void add_color_option(CLI::App& cmd, ReportOptionText& text) {
  cmd.add_option("--color", text.color, "auto|always|never")->capture_default_str();
}

bool wants_color(const std::string& when) {
  return when == "always" || (when == "auto" && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR"));
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
