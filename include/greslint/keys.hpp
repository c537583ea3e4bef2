// SPDX-License-Identifier: Apache-2.0
// The keys Slurm's parser tables accept, per file, per record type and per release.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
  frontend_name,   ///< inside FrontendName= (22.05 to 24.11; gone in 25.05)
  power_action,    ///< inside PowerAction= (26.05+)
  gres_conf,       ///< top level of gres.conf
  gres_record,     ///< inside gres.conf Name= / NodeName= records
  cgroup_conf,     ///< top level of cgroup.conf
  greslint_conf,   ///< greslint's own .greslint.conf (same syntax, greslint's keys)
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

/// The development release after 26.05 (SchedMD master). Not a modelled release: keys that
/// only master has carry it as `since`, so history can say "not before 26.11".
inline constexpr SlurmVersion kSlurmNext{26, 11};

/// Whether release `v` accepts the row `spec` ({0,0} as `until` means "no end yet").
constexpr bool accepted_in(const KeySpec& spec, SlurmVersion v) noexcept {
  return v >= spec.since && (spec.until == SlurmVersion{} || v < spec.until);
}

/// A run of rows of one table, sorted case-insensitively by name and then by `since`.
/// A key whose type or defunct state changed between releases has one row per state, and the
/// older row's `until` is the newer row's `since` (so `until` ends the row, not always the key).
struct KeyRange {
  const KeySpec* first = nullptr;
  const KeySpec* last = nullptr;
  constexpr const KeySpec* begin() const noexcept { return first; }
  constexpr const KeySpec* end() const noexcept { return last; }
  constexpr bool empty() const noexcept { return first == last; }
  constexpr std::size_t size() const noexcept { return std::size_t(last - first); }
};

/// Every row of `table`, over all releases (including kSlurmNext-only keys).
KeyRange table_rows(KeyTable table) noexcept;

/// A row of the key tables in 16 bits: its table (KeyTable) and its place there. A directive
/// keeps its head's key so (Directive: 6 bytes of 48, 800,000 times in a per-GPU gres.conf).
inline constexpr std::uint16_t kNoKeySpecId = 0xFFFF;
inline constexpr unsigned kKeySpecRowBits = 10;  ///< every table has fewer than 1,024 rows
/// The id of `spec`, a row of table_rows(some table), or kNoKeySpecId for null or for a
/// KeySpec that is no table's row.
std::uint16_t key_spec_id(const KeySpec* spec) noexcept;
/// The first row of each table, in KeyTable order.
extern const KeySpec* const kKeyTableRows[];
/// The row `id` names (key_spec_id); null for kNoKeySpecId.
inline const KeySpec* key_spec_of(std::uint16_t id) noexcept {
  return id == kNoKeySpecId ? nullptr : kKeyTableRows[id >> kKeySpecRowBits] + (id & ((1u << kKeySpecRowBits) - 1));
}

/// The rows for `key` in any release, oldest first; empty if Slurm never had it. Lets a
/// diagnostic say "new in 24.05" or "removed in 23.11" instead of just "unknown".
KeyRange key_history(KeyTable table, std::string_view key) noexcept;

/// For a key that starts a record (Slurm types it S_P_ARRAY with a handler that parses the
/// rest of the line, e.g. slurm.conf NodeName, gres.conf Name), the table the rest of the line
/// is looked up in; nullopt for one-value keys, including repeatable ones like Epilog (24.05+).
std::optional<KeyTable> record_table(KeyTable table, std::string_view key) noexcept;

/// Where a table's keys appear, for messages: "slurm.conf", "slurm.conf NodeName= record", ...
std::string_view table_name(KeyTable table) noexcept;

}  // namespace greslint
