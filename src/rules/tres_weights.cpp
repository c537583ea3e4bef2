// SPDX-License-Identifier: Apache-2.0
// slurm_protocol_api.c:slurm_get_tres_weight_array and _tres_weight_item, as greslint reads
// them (tres_weights.hpp).
#include "rules/tres_weights.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "util.hpp"

namespace greslint::rules {

namespace {

/// The TRES slurmctld always has (controller.c:_init_tres gives them fixed ids).
constexpr std::string_view kDefaultTres[] = {"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages"};

bool tres_is_known(std::string_view tres, const Settings& settings, bool with_slurmdbd) {
  for (std::string_view t : kDefaultTres)
    if (iequals(t, tres)) return true;
  // Without slurmdbd a TRES beyond the defaults stops slurmctld earlier (GRS404).
  if (!with_slurmdbd) return false;
  const KeyValue* tracked = settings.find("AccountingStorageTRES");
  if (!tracked) return false;
  for (std::string_view t : split_commas_view(tracked->value))
    if (iequals(t, tres)) return true;
  return false;
}

/// Splits like strtok_r: leading delimiters skipped, the token ends at the next one and the
/// rest follows it (empty when there is none).
std::pair<std::string_view, std::string_view> split_token(std::string_view s, char delimiter) {
  const std::size_t start = s.find_first_not_of(delimiter);
  if (start == std::string_view::npos) return {{}, {}};
  s.remove_prefix(start);
  const std::size_t end = s.find(delimiter);
  if (end == std::string_view::npos) return {s, {}};
  return {s.substr(0, end), s.substr(end + 1)};
}

/// Why _tres_weight_item refuses one "type[/name]=value" item (the error it logs), or nothing
/// when it takes it. A TRES that only slurmdbd can say it knows is taken.
std::optional<std::string> item_error(std::string_view item, const Settings& settings, bool with_slurmdbd) {
  auto [type, value] = split_token(item, '=');
  std::string_view name;
  const bool has_name = type.find('/') != std::string_view::npos;
  if (has_name) std::tie(type, name) = split_token(type, '/');
  if (value.empty()) return fmt::format("\"{}\" is an invalid TRES weight entry", item);
  const std::string tres = has_name ? fmt::format("{}/{}", type, name) : std::string(type);
  if (!tres_is_known(tres, settings, with_slurmdbd) && !with_slurmdbd)
    return fmt::format("TRES weight '{}{}{}' is not a configured TRES type.", type, has_name ? ":" : "", name);
  const std::string text(value);
  char* unit = nullptr;
  errno = 0;
  (void)std::strtod(text.c_str(), &unit);
  if (errno) return fmt::format("Unable to convert _tres_weight_item value to double in {}", text);
  if (unit && *unit && std::string_view("KMGTPkmgtp").find(*unit) == std::string_view::npos)
    return fmt::format("Invalid unit type '{}'. Possible options are 'KMGTP'", *unit);
  return std::nullopt;
}

}  // namespace

std::optional<TresWeightsError> tres_weights_error(std::string_view value, const Settings& settings) {
  const KeyValue* storage = settings.find("AccountingStorageType");
  const bool with_slurmdbd = storage && icontains(storage->value, "slurmdbd");
  for (std::string_view item : split_commas_view(value)) {
    if (item.empty()) continue;  // strtok_r skips empty items
    if (auto error = item_error(item, settings, with_slurmdbd)) return TresWeightsError{std::string(item), *error};
  }
  return std::nullopt;
}

std::string tres_weights_fatal(std::string_view value) {
  return fmt::format("failed to parse tres weights str '{}'", value);
}

}  // namespace greslint::rules
