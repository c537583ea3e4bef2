// SPDX-License-Identifier: Apache-2.0
// The options lint, nodes and node-check share: output format, fail level, colour.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "greslint/lint.hpp"

namespace greslint::cli {

/// --format, -o, --fail-level, --color, -q as typed, before they are checked.
struct ReportOptionText {
  std::string format = "text";
  std::string fail_level = "warning";
  std::string color = "auto";
  std::vector<std::string> prefix_map;  ///< OLD=NEW items
};

void add_format_option(CLI::App& cmd, ReportOptionText& text);
void add_fail_level_option(CLI::App& cmd, ReportOptionText& text);
void add_color_option(CLI::App& cmd, ReportOptionText& text);

/// The report options lint, nodes and node-check share, read into `o` and `text`:
/// --format, -o, --fail-level, --select, --ignore, --color, -q, --severity, --config,
/// --no-config, --prefix-map.
void add_report_options(CLI::App& cmd, LintOptions& o, ReportOptionText& text);
/// Checks the enumerated ones of them into `o` and notes which the command line gave (they
/// beat .greslint.conf); false after a message on `err`.
bool apply_report_options(const CLI::App& cmd, const ReportOptionText& text, LintOptions& o, std::ostream& err);

/// --color auto|always|never (any case): whether to colour, "auto" meaning on a terminal
/// unless NO_COLOR is set; nullopt after a message on `err` for any other word.
std::optional<bool> checked_color(const std::string& when, std::ostream& err);
/// The checked --format, or nullopt after a message on `err`.
std::optional<Format> checked_format(const std::string& text, std::ostream& err);
/// The checked --fail-level, or nullopt after a message on `err`.
std::optional<FailLevel> checked_fail_level(const std::string& text, std::ostream& err);

}  // namespace greslint::cli
