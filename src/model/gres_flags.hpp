// SPDX-License-Identifier: Apache-2.0
// gres.conf Flags= as slurmd's _parse_gres_config reads them (slurm-semantics.md §5.6).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/model_types.hpp"
#include "greslint/version.hpp"

namespace greslint::model {

/// The flags _parse_gres_config remembers from the previous record (its static prev_env):
/// a later record of the same name must repeat them, or give no Flags= and inherit them.
/// Names compare as written (Slurm compares gres_build_id hashes): Name=GPU is not gpu.
class PreviousFlags {
 public:
  enum class Check : std::uint8_t { ok, no_gpu_env_mixed, differs };
  Check take(const std::string& name, const KeyValue* flags, const VersionProfile& profile);

 private:
  std::string name_;
  std::uint32_t word_ = 0;
  bool remembered_ = false;
};

/// _validate_gres_conf loads a GRES's plugin at its first record of the node, unless that
/// record says Flags=CountOnly: such a GRES only counts, and its plugin's node_config_load
/// never runs (gpu: no AutoDetect, no device list; mps/shard: nothing laid onto the GPUs).
bool counts_only(const std::vector<GresRecord>& records, const std::string& name);

}  // namespace greslint::model
