// SPDX-License-Identifier: Apache-2.0
// GRS132 invalid-priority-weight-tres: priority/multifactor cannot parse PriorityWeightTRES:
// slurmctld exits (docs/rules/GRS132.md).
#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <tuple>

#include "rules.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS132{"GRS132", "invalid-priority-weight-tres", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "priority/multifactor cannot parse PriorityWeightTRES: slurmctld exits"};

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

/// Why slurm_protocol_api.c:_tres_weight_item refuses one "type[/name]=value" item (the
/// error it logs), or nothing when it takes it. `undecided` is set for a TRES that only
/// slurmdbd can say it knows.
std::optional<std::string> item_error(std::string_view item, const Settings& settings, bool with_slurmdbd,
                                      bool& undecided) {
  auto [type, value] = split_token(item, '=');
  std::string_view name;
  const bool has_name = type.find('/') != std::string_view::npos;
  if (has_name) std::tie(type, name) = split_token(type, '/');
  if (value.empty()) return fmt::format("\"{}\" is an invalid TRES weight entry", item);
  const std::string tres = has_name ? fmt::format("{}/{}", type, name) : std::string(type);
  if (!tres_is_known(tres, settings, with_slurmdbd)) {
    if (with_slurmdbd) {
      undecided = true;  // the database may hold it
    } else {
      return fmt::format("TRES weight '{}{}{}' is not a configured TRES type.", type, has_name ? ":" : "", name);
    }
  }
  const std::string text(value);
  char* unit = nullptr;
  errno = 0;
  (void)std::strtod(text.c_str(), &unit);
  if (errno) return fmt::format("Unable to convert _tres_weight_item value to double in {}", text);
  if (unit && *unit && std::string_view("KMGTPkmgtp").find(*unit) == std::string_view::npos)
    return fmt::format("Invalid unit type '{}'. Possible options are 'KMGTP'", *unit);
  return std::nullopt;
}

bool runs_multifactor(const SlurmConfView& v) {
  const KeyValue* type = v.settings.find("PriorityType");
  if (type) return type->value == "priority/multifactor";
  return v.profile.version() >= kSlurm2311;  // read_config.h DEFAULT_PRIORITY_TYPE
}

}  // namespace

// priority/multifactor's init (_internal_setup) parses PriorityWeightTRES with fail=true:
// the first item it cannot take ends slurmctld. 22.05 loads the plugin after
// read_slurm_conf, 23.02+ before it (Analyzer::run places the stage). priority/basic never
// reads the weights; the default plugin is basic up to 23.02 and multifactor from 23.11.
Outcome check_grs132_priority_weight_tres(const SlurmConfView& v, Findings& out) {
  const KeyValue* weights = v.settings.find("PriorityWeightTRES");
  if (!weights || weights->value.empty() || !runs_multifactor(v)) return Outcome::proceed();
  const KeyValue* storage = v.settings.find("AccountingStorageType");
  const bool with_slurmdbd = storage && icontains(storage->value, "slurmdbd");
  for (std::string_view item : split_commas_view(weights->value)) {
    if (item.empty()) continue;  // strtok_r skips empty items
    bool undecided = false;
    const auto error = item_error(item, v.settings, with_slurmdbd, undecided);
    if (!error) continue;
    std::string slurm = fmt::format("failed to parse tres weights str '{}'", weights->value);
    const KeyValue* plugin = v.settings.find("PriorityType");
    const std::string which =
        plugin ? std::string("priority/multifactor")
               : fmt::format("priority/multifactor (Slurm {}'s default PriorityType)", v.profile.version().str());
    auto b = out.report(GRS132, weights->value_span,
                        fmt::format("{} cannot take PriorityWeightTRES item '{}': {}", which, item, *error));
    b.slurm(slurm).help(
        "weigh only TRES the cluster tracks (cpu, mem, node, billing, fs/disk, vmem, pages, energy, and with "
        "slurmdbd those in AccountingStorageTRES), each as TYPE[/NAME]=NUMBER with an optional K/M/G/T/P unit");
    if (plugin) b.related(plugin->value_span, "priority plugin chosen here");
    return Outcome::slurmctld_fatal(std::move(slurm));
  }
  return Outcome::proceed();
}

}  // namespace greslint::rules
