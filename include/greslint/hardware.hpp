// SPDX-License-Identifier: Apache-2.0
// Hardware truth: what a GPU node really has (read from the kernel's files under a sysroot),
// Slurm's logical core numbering of it, and `greslint node-check`, which compares the
// node's effective configuration with it (docs/node-check.md, rules GRS5xx).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "greslint/emit.hpp"
#include "greslint/lint.hpp"
#include "greslint/version.hpp"

namespace greslint {

/// The CPUs of a node and the logical core indexes Slurm gives them: sockets in order of
/// their first CPU, cores within a socket in order of their first CPU (hwloc's logical
/// order, which slurmd's xcpuinfo uses). gres.conf `Cores=` and slurm.conf counts use these
/// core indexes, never CPU ids.
class CpuTopology {
 public:
  /// One online CPU as sysfs describes it (topology/physical_package_id, core_id,
  /// thread_siblings_list). Empty `siblings` means "only itself".
  struct Cpu {
    std::uint32_t id = 0;
    std::int64_t package = 0;
    std::int64_t core_id = 0;
    std::vector<std::uint32_t> siblings;
  };

  CpuTopology() = default;
  /// Groups CPUs into cores (by thread siblings; by package and core_id when the siblings
  /// are unknown) and cores into sockets, then numbers them as Slurm does.
  static CpuTopology build(std::vector<Cpu> cpus);

  bool empty() const noexcept { return cpus_ == 0; }
  std::uint32_t sockets() const noexcept { return sockets_; }
  std::uint32_t cores() const noexcept { return std::uint32_t(cpus_of_core_.size()); }
  /// Total cores / sockets, as slurmd reports it.
  std::uint32_t cores_per_socket() const noexcept { return sockets_ ? cores() / sockets_ : 0; }
  /// CPUs / cores, as slurmd reports it.
  std::uint32_t threads_per_core() const noexcept { return cores() ? cpus_ / cores() : 0; }
  std::uint32_t cpus() const noexcept { return cpus_; }
  /// False when sockets have different core counts or cores different thread counts.
  bool uniform() const noexcept { return uniform_; }

  /// Logical core index of a CPU id, or nullopt for a CPU the node does not have.
  std::optional<std::uint32_t> core_of_cpu(std::uint32_t cpu) const;
  /// Logical core indexes holding any of these CPU ids (sorted, unique). Unknown ids are skipped.
  std::vector<std::uint32_t> cores_of_cpus(const std::vector<std::uint32_t>& cpus) const;
  /// The CPU ids of a logical core, lowest first.
  const std::vector<std::uint32_t>& cpus_of_core(std::uint32_t core) const { return cpus_of_core_.at(core); }
  /// The socket (0-based, in Slurm's order) of a logical core.
  std::uint32_t socket_of_core(std::uint32_t core) const { return socket_of_core_.at(core); }
  /// The logical core indexes of one socket.
  std::vector<std::uint32_t> cores_of_socket(std::uint32_t socket) const;

 private:
  std::uint32_t sockets_ = 0;
  std::uint32_t cpus_ = 0;
  bool uniform_ = true;
  std::vector<std::vector<std::uint32_t>> cpus_of_core_;
  std::vector<std::uint32_t> socket_of_core_;
  std::vector<std::int64_t> core_of_cpu_;  ///< indexed by CPU id; -1 when absent
};

/// One MIG compute instance of an NVIDIA GPU (/proc/driver/nvidia/capabilities/gpuN/mig/giG/ciC).
struct MigInstance {
  std::uint32_t gi = 0;
  std::uint32_t ci = 0;
  std::uint32_t gi_minor = 0;  ///< DeviceFileMinor of giG/access -> /dev/nvidia-caps/nvidia-cap<minor>
  std::uint32_t ci_minor = 0;  ///< DeviceFileMinor of giG/ciC/access
  /// What AutoDetect puts in MultipleFiles=: the GPU, then the two capability devices.
  std::vector<std::string> files;
  bool files_exist = true;
};

enum class GpuVendor : std::uint8_t { nvidia, amd, intel };
std::string_view to_string(GpuVendor v) noexcept;

struct Gpu {
  GpuVendor vendor = GpuVendor::nvidia;
  std::string model;             ///< NVIDIA: "Model:" of the information file (NVML's name); may be empty
  std::string bus_id;            ///< "0000:17:00.0", lower case
  std::uint32_t minor = 0;       ///< NVIDIA device minor, or the DRM render minor (128...)
  std::string device_file;       ///< /dev/nvidia<minor> or /dev/dri/renderD<minor>
  bool device_file_exists = false;
  std::optional<int> numa_node;  ///< -1 in sysfs (no NUMA information) becomes nullopt
  std::vector<std::uint32_t> local_cpus;   ///< local_cpulist; empty when unknown
  std::vector<std::uint32_t> local_cores;  ///< the same as logical core indexes (all cores when unknown)
  std::vector<MigInstance> mig;            ///< non-empty: MIG mode with these instances
};

/// What greslint found under a sysroot.
struct HardwareInventory {
  std::string sysroot;
  std::string hostname;  ///< <sysroot>/proc/sys/kernel/hostname, when present
  /// MemTotal of /proc/meminfo in MiB: what slurmd -C reports as RealMemory (glibc's
  /// physical page count is the same sysinfo total).
  std::optional<std::uint64_t> memory_mib;
  CpuTopology cpu;
  std::vector<Gpu> gpus;  ///< NVIDIA by minor, then AMD/Intel by render minor
  std::vector<std::string> problems;  ///< files that exist but cannot be read or understood
  /// Whether a sysroot path exists (used for File= paths).
  bool path_exists(const std::string& absolute) const;
};

/// Reads the kernel's files under `sysroot` ("/" for the live node).
HardwareInventory read_inventory(const std::string& sysroot);

/// Slurm's name for an AutoDetected GPU model: lower case, spaces turned into '_'.
std::string autodetect_type_name(std::string_view model);
/// A short Type= for a model that is still a substring of autodetect_type_name (h100, a6000, mi210).
std::string short_gpu_type(std::string_view model);

/// The cores gres.conf Cores= should give a GPU whose NUMA-local cores are `local`, under
/// the profile's socket-boundary rule (F9): exactly the local cores before 24.11, whole
/// sockets from 24.11, one whole socket or all cores from 25.11.
std::vector<std::uint32_t> expected_gpu_cores(const std::vector<std::uint32_t>& local, const CpuTopology& topo,
                                              const VersionProfile& profile);
/// F9 on a core set: -1 when it follows the profile's socket rule, else the first socket it breaks.
int socket_rule_violation(const std::vector<std::uint32_t>& cores, const CpuTopology& topo,
                          const VersionProfile& profile);

struct NodeCheckOptions {
  /// PATH, the release, the output and the rule selection, as lint takes them (and with
  /// the same .greslint.conf).
  LintOptions report;
  std::string node;           ///< NodeName; empty: this host, matched as slurmd does
  std::string sysroot = "/";  ///< where the kernel's files are read
  bool suggest = false;       ///< print matching slurm.conf/gres.conf lines instead of findings
  std::string inventory;      ///< a directory of captured trees, one per NodeName
};

/// `greslint node-check`; returns 0, 1 (findings at or above the fail level) or 2.
int run_node_check(const NodeCheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace greslint
