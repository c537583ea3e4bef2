// SPDX-License-Identifier: Apache-2.0
// Release list and the version-dependent answers that need more than a comparison.
#include "greslint/version.hpp"

#include <cctype>
#include <fmt/format.h>

namespace greslint {

std::string SlurmVersion::str() const { return fmt::format("{}.{:02}", major, minor); }

const std::vector<SlurmVersion>& known_versions() {
  static const std::vector<SlurmVersion> versions{kSlurm2205, kSlurm2302, kSlurm2311, kSlurm2405,
                                                  kSlurm2411, kSlurm2505, kSlurm2511, kSlurm2605};
  return versions;
}

std::optional<SlurmVersion> parse_slurm_version(std::string_view text) {
  // Debian's packages name themselves slurm-wlm in --version output.
  const bool debian = text.rfind("slurm-wlm", 0) == 0;
  std::size_t i = 0;
  while (i < text.size() && !std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  auto read_number = [&](unsigned& out) {
    std::size_t start = i;
    out = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && i - start < 4)
      out = out * 10 + unsigned(text[i++] - '0');
    return i > start;
  };
  unsigned major = 0, minor = 0;
  if (!read_number(major) || i >= text.size() || text[i] != '.') return std::nullopt;
  ++i;
  if (!read_number(minor)) return std::nullopt;
  unsigned micro = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    read_number(micro);
  }
  const bool debian_suffix = text.substr(i) == "-debian";
  for (SlurmVersion v : known_versions())
    if (v.major == major && v.minor == minor) {
      v.multiple_slurmd = debian || debian_suffix;
      return v;
    }
  return std::nullopt;
}

bool VersionProfile::has_flag(std::string_view lower_word) const noexcept {
  if (lower_word == "explicit") return version_ >= kSlurm2302;
  if (lower_word == "env_uuid") return version_ >= kSlurm2605;
  return true;
}

std::vector<std::string_view> VersionProfile::autodetect_values() const {
  std::vector<std::string_view> values;
  if (version_ >= kSlurm2605) values.push_back("full");
  values.insert(values.end(), {"nvml", "rsmi", "oneapi"});
  if (version_ >= kSlurm2311) values.push_back("nrt");
  if (version_ >= kSlurm2411) values.push_back("nvidia");
  values.push_back("off");
  return values;
}

}  // namespace greslint
