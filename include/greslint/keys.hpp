// SPDX-License-Identifier: Apache-2.0
// The keys Slurm's parser tables accept, per file, per record type and per release.
#pragma once

#include <cstdint>
#include <string_view>

#include "greslint/version.hpp"

namespace greslint {

/// Slurm's s_p value types (parse_config.h), which decide how a value is converted.
enum class ValueType : std::uint8_t {
  string,     ///< S_P_STRING / S_P_PLAIN_STRING
  long_,      ///< S_P_LONG
  uint16,     ///< S_P_UINT16
  uint32,     ///< S_P_UINT32
  uint64,     ///< S_P_UINT64
  pointer,    ///< S_P_POINTER (custom handler; "%s 2 specified more than once")
  array,      ///< S_P_ARRAY (repeatable; each occurrence adds an entry)
  line,       ///< S_P_LINE (record key: rest of the line is a sub-table)
  expline,    ///< S_P_EXPLINE (record key with hostlist expansion)
  boolean,    ///< S_P_BOOLEAN
  float_,     ///< S_P_FLOAT
  double_,    ///< S_P_DOUBLE
  long_double,///< S_P_LONG_DOUBLE
  ignore,     ///< S_P_IGNORE (accepted, value not stored)
};

/// Which parser table a key is looked up in.
enum class KeyTable : std::uint8_t {
  slurm_conf,      ///< top level of slurm.conf
  node_name,       ///< inside a slurm.conf NodeName= record
  partition_name,  ///< inside PartitionName=
  node_set,        ///< inside NodeSet=
  down_nodes,      ///< inside DownNodes=
  slurmctld_host,  ///< inside SlurmctldHost=
  frontend_name,   ///< inside FrontendName= (22.05 only)
  power_action,    ///< inside PowerAction= (newer releases)
  gres_conf,       ///< top level of gres.conf
  gres_record,     ///< inside gres.conf Name= / NodeName= records
  cgroup_conf,     ///< top level of cgroup.conf
};

/// One key of one table. `until` is the first release that no longer accepts it
/// ({0,0} = still accepted). `defunct` keys are accepted with a "defunct" message.
struct KeySpec {
  std::string_view name;  ///< canonical spelling, as in Slurm's table
  ValueType type;
  SlurmVersion since;
  SlurmVersion until;
  bool defunct;
};

/// Case-insensitive lookup of `key` in `table` as release `v` has it; nullptr if unknown.
const KeySpec* find_key(KeyTable table, std::string_view key, SlurmVersion v) noexcept;

/// For "did you mean" help: the accepted key of `table` closest to `key`, or empty.
std::string_view closest_key(KeyTable table, std::string_view key, SlurmVersion v) noexcept;

}  // namespace greslint
