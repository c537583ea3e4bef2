// SPDX-License-Identifier: Apache-2.0
// Slurm release profiles: the one place that answers "since which release".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace greslint {

/// A Slurm release as major.minor (e.g. 22.05), and how it was built.
struct SlurmVersion {
  std::uint8_t major = 0;
  std::uint8_t minor = 0;
  /// Configured with --enable-multiple-slurmd, as Debian's packages are (they call themselves
  /// slurm-wlm). Not part of the release's identity: comparisons ignore it.
  bool multiple_slurmd = false;
  constexpr std::uint16_t key() const noexcept { return std::uint16_t(major * 100 + minor); }
  friend constexpr bool operator<(SlurmVersion a, SlurmVersion b) noexcept { return a.key() < b.key(); }
  friend constexpr bool operator>=(SlurmVersion a, SlurmVersion b) noexcept { return !(a < b); }
  friend constexpr bool operator==(SlurmVersion a, SlurmVersion b) noexcept { return a.key() == b.key(); }
  friend constexpr bool operator!=(SlurmVersion a, SlurmVersion b) noexcept { return !(a == b); }
  std::string str() const;
};

inline constexpr SlurmVersion kSlurm2205{22, 5};
inline constexpr SlurmVersion kSlurm2302{23, 2};
inline constexpr SlurmVersion kSlurm2311{23, 11};
inline constexpr SlurmVersion kSlurm2405{24, 5};
inline constexpr SlurmVersion kSlurm2411{24, 11};
inline constexpr SlurmVersion kSlurm2505{25, 5};
inline constexpr SlurmVersion kSlurm2511{25, 11};
inline constexpr SlurmVersion kSlurm2605{26, 5};

/// Every release greslint models, oldest first.
const std::vector<SlurmVersion>& known_versions();

/// Parses "22.05", "22.5", "22.05.8", "slurm 22.05.8"; nullopt if not a modelled release.
/// "slurm-wlm 24.11.5" (what Debian's packages print) and "24.11-debian" select the Debian build
/// (multiple_slurmd).
std::optional<SlurmVersion> parse_slurm_version(std::string_view text);

/// How the socket-boundary check of gres.conf Cores= behaves (slurm-semantics F9).
enum class SocketBoundaryCheck : std::uint8_t { none, per_socket, single_socket_or_all };

/// Every version difference greslint knows, answered for one release.
class VersionProfile {
 public:
  explicit VersionProfile(SlurmVersion v) : version_(v) {}
  SlurmVersion version() const noexcept { return version_; }

  /// 22.05: relative Include is relative to the including file; later: slurm.conf's directory.
  bool include_relative_to_including_file() const noexcept { return version_ < kSlurm2302; }
  /// 23.11.4+: a '*' in an Include is a glob error instead of a literal file name.
  bool include_glob_is_error() const noexcept { return version_ >= kSlurm2311; }
  /// 22.05: "n[1-3" becomes the literal host "n]"; 23.02+: invalid.
  bool hostlist_missing_bracket_is_literal() const noexcept { return version_ < kSlurm2302; }
  /// 23.11+: "n[1-3]-ib" is allowed.
  bool hostlist_suffix_allowed() const noexcept { return version_ >= kSlurm2311; }
  /// 23.11+: slurmctld drains a node that reports a type slurm.conf does not have (F6).
  bool type_not_configured_drains() const noexcept { return version_ >= kSlurm2311; }
  /// 25.05+ (commit 737dd415d5): the Gres that slurmctld builds from a CLOUD node's gres.conf
  /// when it starts, in gres.conf's spelling of each type, is kept as the node's Gres
  /// (restore_node_features); a type that differs from slurm.conf's only in case then
  /// registers. Earlier releases restore slurm.conf's Gres= and drain it (from 23.11).
  bool cloud_node_takes_gres_conf_types() const noexcept { return version_ >= kSlurm2505; }
  /// Whether slurmctld compares a CLOUD node's per-type GPU counts when it registers, once it
  /// has loaded the node's gres.conf at start-up. 22.05-23.02 return before those checks when
  /// the count is the one found then; 23.11 goes on when a record's type is not configured
  /// (gres.c:_node_config_validate, "!first_time"); from 25.05 the types configured are those
  /// read at start-up (cloud_node_takes_gres_conf_types), which the node then always has.
  bool cloud_registration_compares_type_counts() const noexcept {
    return version_ >= kSlurm2311 && !cloud_node_takes_gres_conf_types();
  }
  /// 24.11+: an unreadable Cores= invalidates the node at registration (F8).
  bool invalid_cores_invalidates_node() const noexcept { return version_ >= kSlurm2411; }
  /// 26.05: after an unreadable Cores=, slurmctld keeps only the records it read before it as
  /// the node's topology (earlier releases keep every slot, the unread ones empty).
  bool unread_records_leave_topology() const noexcept { return version_ >= kSlurm2605; }
  SocketBoundaryCheck socket_boundary_check() const noexcept {
    if (version_ >= kSlurm2511) return SocketBoundaryCheck::single_socket_or_all;
    if (version_ >= kSlurm2411) return SocketBoundaryCheck::per_socket;
    return SocketBoundaryCheck::none;
  }
  /// 23.11+: select/cons_tres is the default SelectType.
  bool cons_tres_is_default() const noexcept { return version_ >= kSlurm2311; }
  /// 23.11+ removed select/cons_res.
  bool cons_res_removed() const noexcept { return version_ >= kSlurm2311; }
  /// 22.05 warns (D5) when an untyped gres.conf record meets a typed slurm.conf entry.
  bool untyped_record_vs_typed_conf_warns() const noexcept { return version_ < kSlurm2302; }
  /// 22.05 compares only env flag bits for Flags consistency; later the whole flag word.
  bool flags_compare_whole_word() const noexcept { return version_ >= kSlurm2302; }
  /// 26.05: a Flags= with no env word (CountOnly, a sharing word, env_uuid) is checked
  /// against nothing and remembered as nothing; a GPU gets the default env flags.
  bool flags_without_env_take_defaults() const noexcept { return version_ >= kSlurm2605; }
  /// 23.02.4+ (newest patch): slurmctld loads each CLOUD node's gres.conf (_gres_reconfig)
  /// before it builds the partitions' node bitmaps (GRS108's fatal) and select_g_node_init;
  /// 22.05 does both first.
  bool cloud_loads_before_partitions() const noexcept { return version_ >= kSlurm2302; }
  /// Up to 23.02 AutoDetect on a cloud node is fatal in slurmctld; from 23.11 an error.
  bool cloud_autodetect_fatal() const noexcept { return version_ < kSlurm2311; }
  /// 24.11+: the duplicate node name message reads "Duplicated NodeHostName %s in config file",
  /// unless built with --enable-multiple-slurmd (Debian), which compiles out the host name check
  /// that fires first and keeps "Duplicated NodeName %s in the config file".
  bool duplicate_node_message_is_hostname() const noexcept {
    return version_ >= kSlurm2411 && !version_.multiple_slurmd;
  }
  /// Whether a Flags= word exists in this release (explicit 23.02+, env_uuid 26.05+).
  bool has_flag(std::string_view lower_word) const noexcept;
  /// AutoDetect values in the order Slurm tries them (substring match, "off" exact).
  std::vector<std::string_view> autodetect_values() const;
  /// Before 23.02.7 the mps/shard plugins split a MultipleFiles= (MIG) GPU into one record per
  /// file too; from then on such a GPU stays one record.
  bool sharing_splits_multiple_files() const noexcept { return version_ < kSlurm2302; }
  /// File-less GPU removal is a debug line in 22.05 and a warning later.
  bool fileless_gpu_removal_is_warning() const noexcept { return version_ >= kSlurm2302; }

 private:
  SlurmVersion version_;
};

}  // namespace greslint
