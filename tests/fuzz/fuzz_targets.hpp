// SPDX-License-Identifier: Apache-2.0
// The bodies of greslint's fuzz targets. They live apart from the libFuzzer entry point so
// that tests/regress/ can replay every saved crasher through exactly the same code in the
// normal (and sanitizer) build, without libFuzzer.
//
// Input formats (the first byte is always a selector; see docs/robustness.md):
//   reader   : [sel] text              sel&3 -> table (slurm.conf, gres.conf, cgroup.conf,
//                                       .greslint.conf), sel&4 -> ClusterName known,
//                                       sel>>3 -> Slurm release
//   hostlist : [sel] expression        sel -> Slurm release
//   gres     : [sel] value             sel -> Cores= bit count and Gres= name
//   pipeline : [sel] slurm.conf [\n%%\n gres.conf [\n%%\n cgroup.conf]]
//                                       (sel&0x3f) -> Slurm release; sel&0x40 -> also SARIF;
//                                       sel&0x80 -> also the `nodes` table (text and JSON)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace greslint::fuzz {

int reader(const std::uint8_t* data, std::size_t size);
int hostlist(const std::uint8_t* data, std::size_t size);
int gres_values(const std::uint8_t* data, std::size_t size);
int pipeline(const std::uint8_t* data, std::size_t size);
/// The limits reader (sacctmgr dump, show qos|assoc -P) and the inheritance walk.
int limits(const std::uint8_t* data, std::size_t size);

/// Target by name ("reader", "hostlist", "gres_values", "pipeline"), or nullptr.
using Target = int (*)(const std::uint8_t*, std::size_t);
Target find_target(std::string_view name);

/// The separator between the files of a pipeline input.
inline constexpr std::string_view kFileSeparator = "\n%%\n";

/// Splits a pipeline input (after its selector byte) into slurm.conf, gres.conf and
/// cgroup.conf texts; parts that are absent are returned as "missing" (present == false).
struct Part {
  std::string text;
  bool present = false;
};
std::vector<Part> split_pipeline_input(std::string_view rest);

}  // namespace greslint::fuzz
