// SPDX-License-Identifier: Apache-2.0
// Small file and text helpers shared by the hardware reader and node-check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace greslint::hw {

/// The whole file (at most 1 MiB), or nullopt when it cannot be opened.
std::optional<std::string> read_small_file(const std::string& path);
std::string trim(std::string_view s);
/// The kernel's CPU list format ("0-7,16-23"); nullopt when malformed.
std::optional<std::vector<std::uint32_t>> parse_cpulist(std::string_view text);
/// Directory entries, sorted, without "." and "..".
std::vector<std::string> list_dir(const std::string& path);
/// "cpu12" with prefix "cpu" -> 12; nullopt unless the rest is all digits.
std::optional<std::uint64_t> number_after(std::string_view name, std::string_view prefix);
/// An absolute path inside the sysroot.
std::string under(const std::string& sysroot, const std::string& absolute);

}  // namespace greslint::hw

namespace greslint {
inline std::string fmt_problem(const std::string& path, std::string_view what) {
  return path + ": " + std::string(what);
}
}  // namespace greslint
