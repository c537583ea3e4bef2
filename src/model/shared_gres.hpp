// SPDX-License-Identifier: Apache-2.0
// What the mps and shard plugins do to a node's merged GRES records when slurmd loads
// them (gres_c_s.c, gres_c_s_init_share_devices): the sharing GPUs are listed one device
// per record, and the shared GRES is laid onto them file by file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/model_types.hpp"

namespace greslint::model {

/// Only these exact spellings are shared GRES: slurmd decides it with a case-sensitive
/// compare (_is_shared_name), so a Name=Shard record is an ordinary one.
inline bool is_shared_name(std::string_view name) { return name == "mps" || name == "shard"; }

struct ShareOutcome {
  /// The fatal slurmd logs, if the plugin cannot merge the records.
  std::string fatal;
  /// Set for "failed to merge SHARED and SHARING configuration": shared records, no GPU
  /// record with a device file to put them on.
  bool no_sharing = false;
  /// Shared records left over after every GPU took its own: one per device file, in order.
  struct Discarded {
    GresRecord from;  ///< the gres.conf record the file came from
    std::string file;
    bool file_is_a_gpu;  ///< a GPU has this file, but an earlier shared record took it
  };
  std::vector<Discarded> discarded;
};

/// The plugin of `shared_name` (mps or shard) on `gpu` (the merged gpu records) and `shared`
/// (the merged records of that name), both rewritten in place.
/// Before 23.02.7 a MultipleFiles= (MIG) GPU is split into one record per file too
/// (`split_multiple_files`).
ShareOutcome share_devices(std::vector<GresRecord>& gpu, std::vector<GresRecord>& shared,
                           std::string_view shared_name, bool split_multiple_files);

/// What _build_shared_dev_info counts: every record spelt exactly mps or shard.
std::uint64_t shared_total(const std::vector<GresRecord>& records);

}  // namespace greslint::model
