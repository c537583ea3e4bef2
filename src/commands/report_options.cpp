// SPDX-License-Identifier: Apache-2.0
#include "commands/report_options.hpp"

#include <unistd.h>

#include <cstdlib>

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
