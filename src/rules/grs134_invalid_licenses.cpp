// SPDX-License-Identifier: Apache-2.0
// GRS134 invalid-licenses: slurmctld cannot read the cluster's Licenses= and exits
// (docs/rules/GRS134.md).
#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS134{"GRS134", "invalid-licenses", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "slurmctld cannot read Licenses=: slurmctld exits"};

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

/// A count as licenses.c reads it: strtol, then cut to 32 bits. `rest` is what strtol left
/// (all of `text` when it read no digits, as strtol does).
std::int32_t read_count(std::string_view text, std::string_view& rest) {
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(copy.c_str(), &end, 10);  // saturates, as Slurm's does
  rest = text.substr(static_cast<std::size_t>(end - copy.c_str()));
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<unsigned long>(value)));
}

/// Why licenses.c:_build_license_list refuses `value` up to 24.05: items split on ',' and
/// ';', each NAME[:COUNT] (':' or '=' from 23.11), no blank before the separator, the count
/// a whole non-negative 32-bit number to the end of the item.
std::optional<std::string> strtok_parser_error(std::string_view value, bool equals_separates) {
  std::size_t pos = 0;
  while (pos < value.size()) {
    const std::size_t start = value.find_first_not_of(",;", pos);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(value.find_first_of(",;", start), value.size());
    const std::string_view item = value.substr(start, end - start);
    pos = end;
    for (std::size_t i = 0; i < item.size(); ++i) {
      if (is_space(item[i])) return fmt::format("item '{}' has a blank in its name", item);
      if (item[i] == ':' || (equals_separates && item[i] == '=')) {
        std::string_view rest;
        const std::int32_t count = read_count(item.substr(i + 1), rest);
        if (!rest.empty())
          return fmt::format("the count of '{}' is not a whole number{}", item,
                             item.find('|') != std::string_view::npos ? " ('|' between licenses needs Slurm 25.05)" : "");
        if (count < 0) return fmt::format("the count of '{}' is negative (or beyond 2147483647)", item);
        break;
      }
    }
  }
  return std::nullopt;
}

/// The same for 25.05+, which reads the string in place and also takes NAME|NAME (any one of
/// them), but not '|' together with ',', ';' or '('.
std::optional<std::string> in_place_parser_error(std::string_view value) {
  std::string_view delimiters = ",;";
  if (value.find('|') != std::string_view::npos) {
    if (value.find_first_of(",;(") != std::string_view::npos)
      return std::string("it mixes '|' (any one of) with ',' or ';' (all of)");
    delimiters = "|";
  }
  std::size_t pos = 0;
  while (pos < value.size()) {
    if (delimiters.find(value[pos]) != std::string_view::npos) {
      ++pos;
      continue;
    }
    const std::size_t start = pos;
    for (; pos < value.size(); ++pos) {
      const char c = value[pos];
      if (is_space(c)) return fmt::format("item '{}' has a blank in its name", value.substr(start, pos - start + 1));
      if (c == ':' || c == '=') {
        std::string_view rest;
        const std::int32_t count = read_count(value.substr(pos + 1), rest);
        const std::size_t item_end = std::min(value.find_first_of(delimiters, pos), value.size());
        const std::string_view item = value.substr(start, item_end - start);
        if (!rest.empty() && delimiters.find(rest.front()) == std::string_view::npos)
          return fmt::format("the count of '{}' is not a whole number", item);
        if (count < 0) return fmt::format("the count of '{}' is negative (or beyond 2147483647)", item);
        pos = value.size() - rest.size();
        break;
      }
      if (delimiters.find(c) != std::string_view::npos) break;
    }
  }
  return std::nullopt;
}

}  // namespace

// licenses.c:license_init: the first item slurmctld cannot read ends it. Up to 24.05 that
// happens before the select plugin loads, from 25.05 after gres_init (Analyzer::run places
// the stage).
Outcome check_grs134_invalid_licenses(const SlurmConfView& v, Findings& out) {
  const KeyValue* licenses = v.settings.find("Licenses");
  if (!licenses || licenses->value.empty()) return Outcome::proceed();
  const auto error = v.profile.version() >= kSlurm2505
                         ? in_place_parser_error(licenses->value)
                         : strtok_parser_error(licenses->value, v.profile.version() >= kSlurm2311);
  if (!error) return Outcome::proceed();
  std::string slurm = fmt::format("Invalid configured licenses: {}", licenses->value);
  out.report(GRS134, licenses->value_span,
             fmt::format("slurmctld {} cannot read Licenses={}: {}", v.profile.version().str(), licenses->value,
                         *error))
      .slurm(slurm)
      .help(v.profile.version() >= kSlurm2311
                ? "write NAME[:COUNT] items separated by commas (COUNT a whole number), e.g. Licenses=matlab:8,ansys:2"
                : "write NAME[:COUNT] items separated by commas (COUNT a whole number, ':' not '='), e.g. "
                  "Licenses=matlab:8,ansys:2");
  return Outcome::slurmctld_fatal(std::move(slurm));
}

}  // namespace greslint::rules
