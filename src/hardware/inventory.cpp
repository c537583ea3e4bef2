// SPDX-License-Identifier: Apache-2.0
// Reads what a GPU node has from the kernel's own files (procfs, sysfs, /dev) under a sysroot,
// and numbers its cores the way Slurm does. Nothing here runs a vendor tool or library:
// a captured tree (scripts/collect-gpu-inventory.sh) reads exactly like the live node.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "greslint/hardware.hpp"
#include "hardware/hw_util.hpp"
#include "util.hpp"

namespace greslint {

std::string_view to_string(GpuVendor v) noexcept {
  switch (v) {
    case GpuVendor::nvidia: return "nvidia";
    case GpuVendor::amd: return "amd";
    case GpuVendor::intel: return "intel";
  }
  return "nvidia";
}

namespace hw {

std::optional<std::string> read_small_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  char buf[4096];
  // sysfs and procfs files are small; a capture could hold anything, so stop at 1 MiB.
  while (in && text.size() < (1u << 20)) {
    in.read(buf, sizeof(buf));
    text.append(buf, std::size_t(in.gcount()));
  }
  return text;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

std::optional<std::vector<std::uint32_t>> parse_cpulist(std::string_view text) {
  std::vector<std::uint32_t> out;
  std::string t = trim(text);
  if (t.empty()) return out;
  constexpr std::uint64_t kMax = 1u << 20;
  for (std::string_view part : split_commas_view(t)) {
    std::string p = trim(part);
    if (p.empty()) continue;
    auto dash = p.find('-');
    auto num = [](const std::string& s) -> std::optional<std::uint64_t> {
      if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), is_digit)) return std::nullopt;
      return std::strtoull(s.c_str(), nullptr, 10);
    };
    auto lo = num(dash == std::string::npos ? p : p.substr(0, dash));
    auto hi = dash == std::string::npos ? lo : num(p.substr(dash + 1));
    if (!lo || !hi || *hi < *lo || *hi >= kMax || out.size() + (*hi - *lo) > kMax) return std::nullopt;
    for (std::uint64_t i = *lo; i <= *hi; ++i) out.push_back(std::uint32_t(i));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> list_dir(const std::string& path) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(path.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(std::move(n));
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::uint64_t> number_after(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix || name.size() - prefix.size() > 9)
    return std::nullopt;
  std::string_view digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), is_digit)) return std::nullopt;
  return std::strtoull(std::string(digits).c_str(), nullptr, 10);
}

std::string under(const std::string& sysroot, const std::string& absolute) {
  if (sysroot.empty() || sysroot == "/") return absolute;
  std::string root = sysroot;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return absolute.empty() || absolute.front() != '/' ? join_path(root, absolute) : root + absolute;
}

}  // namespace hw

using hw::list_dir;
using hw::number_after;
using hw::read_small_file;
using hw::trim;
using hw::under;

// --- CpuTopology -------------------------------------------------------------------------

CpuTopology CpuTopology::build(std::vector<Cpu> cpus) {
  std::sort(cpus.begin(), cpus.end(), [](const Cpu& a, const Cpu& b) { return a.id < b.id; });
  cpus.erase(std::unique(cpus.begin(), cpus.end(), [](const Cpu& a, const Cpu& b) { return a.id == b.id; }), cpus.end());
  CpuTopology t;
  if (cpus.empty()) return t;
  // A core is the set of CPUs that are each other's thread siblings; core_id alone is not
  // unique on multi-die packages. Without sibling lists, (package, core_id) names the core.
  std::map<std::tuple<std::int64_t, int, std::int64_t>, std::vector<std::uint32_t>> cores;
  for (const Cpu& c : cpus) {
    std::tuple<std::int64_t, int, std::int64_t> key{c.package, 1, c.core_id};
    if (!c.siblings.empty()) key = {c.package, 0, *std::min_element(c.siblings.begin(), c.siblings.end())};
    cores[key].push_back(c.id);
  }
  struct Core {
    std::int64_t package;
    std::vector<std::uint32_t> cpus;
  };
  std::map<std::int64_t, std::vector<Core>> by_package;
  for (auto& [key, ids] : cores) {
    std::sort(ids.begin(), ids.end());
    by_package[std::get<0>(key)].push_back(Core{std::get<0>(key), ids});
  }
  // hwloc (and so slurmd) orders sockets and the cores in them by their first CPU.
  std::vector<std::vector<Core>> sockets;
  for (auto& [package, list] : by_package) {
    std::sort(list.begin(), list.end(), [](const Core& a, const Core& b) { return a.cpus.front() < b.cpus.front(); });
    sockets.push_back(std::move(list));
  }
  std::sort(sockets.begin(), sockets.end(),
            [](const std::vector<Core>& a, const std::vector<Core>& b) { return a.front().cpus.front() < b.front().cpus.front(); });
  t.sockets_ = std::uint32_t(sockets.size());
  t.cpus_ = std::uint32_t(cpus.size());
  t.core_of_cpu_.assign(std::size_t(cpus.back().id) + 1, -1);
  for (std::uint32_t s = 0; s < sockets.size(); ++s) {
    if (sockets[s].size() != sockets.front().size()) t.uniform_ = false;
    for (const Core& c : sockets[s]) {
      if (c.cpus.size() != sockets.front().front().cpus.size()) t.uniform_ = false;
      const auto index = std::uint32_t(t.cpus_of_core_.size());
      for (std::uint32_t id : c.cpus) t.core_of_cpu_[id] = index;
      t.cpus_of_core_.push_back(c.cpus);
      t.socket_of_core_.push_back(s);
    }
  }
  return t;
}

std::optional<std::uint32_t> CpuTopology::core_of_cpu(std::uint32_t cpu) const {
  if (cpu >= core_of_cpu_.size() || core_of_cpu_[cpu] < 0) return std::nullopt;
  return std::uint32_t(core_of_cpu_[cpu]);
}

std::vector<std::uint32_t> CpuTopology::cores_of_cpus(const std::vector<std::uint32_t>& cpus) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t c : cpus)
    if (auto core = core_of_cpu(c)) out.push_back(*core);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::uint32_t> CpuTopology::cores_of_socket(std::uint32_t socket) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t c = 0; c < socket_of_core_.size(); ++c)
    if (socket_of_core_[c] == socket) out.push_back(c);
  return out;
}

// --- GPU names and expected cores ----------------------------------------------------------

std::string autodetect_type_name(std::string_view model) {
  std::string out = to_lower(model);
  for (char& c : out)
    if (c == ' ') c = '_';
  return out;
}

std::string short_gpu_type(std::string_view model) {
  const std::string full = autodetect_type_name(trim(model));
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : full) {
    if (c == '_' || c == '-') {
      if (!cur.empty()) tokens.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) tokens.push_back(cur);
  auto has_digit = [](const std::string& s) { return std::any_of(s.begin(), s.end(), is_digit); };
  auto has_alpha = [](const std::string& s) { return std::any_of(s.begin(), s.end(), is_alpha); };
  for (const std::string& tok : tokens)
    if (has_digit(tok) && has_alpha(tok) && tok != "nvidia" && tok != "amd" && tok != "intel") return tok;
  // "NVIDIA GeForce RTX 4090": a bare number is too vague; keep the word before it.
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (has_digit(tokens[i])) {
      std::string candidate = i > 0 ? tokens[i - 1] + "_" + tokens[i] : tokens[i];
      if (full.find(candidate) != std::string::npos) return candidate;
      return tokens[i];
    }
  return full.empty() ? std::string("gpu") : full;
}

std::vector<std::uint32_t> expected_gpu_cores(const std::vector<std::uint32_t>& local, const CpuTopology& topo,
                                              const VersionProfile& profile) {
  if (local.empty()) return local;
  const auto rule = profile.socket_boundary_check();
  if (rule == SocketBoundaryCheck::none) return local;
  std::set<std::uint32_t> sockets;
  for (std::uint32_t c : local)
    if (c < topo.cores()) sockets.insert(topo.socket_of_core(c));
  std::vector<std::uint32_t> out;
  if (rule == SocketBoundaryCheck::single_socket_or_all && sockets.size() > 1) {
    for (std::uint32_t c = 0; c < topo.cores(); ++c) out.push_back(c);
    return out;
  }
  for (std::uint32_t s : sockets)
    for (std::uint32_t c : topo.cores_of_socket(s)) out.push_back(c);
  std::sort(out.begin(), out.end());
  return out;
}

int socket_rule_violation(const std::vector<std::uint32_t>& cores, const CpuTopology& topo,
                          const VersionProfile& profile) {
  const auto rule = profile.socket_boundary_check();
  if (rule == SocketBoundaryCheck::none || cores.empty() || topo.empty()) return -1;
  std::vector<std::uint32_t> per_socket(topo.sockets(), 0), size(topo.sockets(), 0);
  for (std::uint32_t c = 0; c < topo.cores(); ++c) size[topo.socket_of_core(c)]++;
  for (std::uint32_t c : cores)
    if (c < topo.cores()) per_socket[topo.socket_of_core(c)]++;
  if (rule == SocketBoundaryCheck::single_socket_or_all && cores.size() == topo.cores()) return -1;
  std::uint32_t touched = 0;
  for (std::uint32_t n : per_socket) touched += n ? 1 : 0;
  for (std::uint32_t s = 0; s < topo.sockets(); ++s) {
    if (per_socket[s] == 0) continue;
    if (per_socket[s] != size[s]) return int(s);
    if (rule == SocketBoundaryCheck::single_socket_or_all && touched > 1) return int(s);
  }
  return -1;
}

// --- Reading a sysroot -------------------------------------------------------------------

bool HardwareInventory::path_exists(const std::string& absolute) const {
  struct stat st {};
  return ::stat(under(sysroot, absolute).c_str(), &st) == 0;
}

namespace {

std::map<std::string, std::string> key_values(std::string_view text) {
  std::map<std::string, std::string> kv;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    kv[trim(line.substr(0, colon))] = trim(line.substr(colon + 1));
  }
  return kv;
}

std::optional<std::uint32_t> to_u32(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), is_digit)) return std::nullopt;
  return std::uint32_t(std::strtoul(s.c_str(), nullptr, 10));
}

void read_cpus(HardwareInventory& inv) {
  const std::string base = under(inv.sysroot, "/sys/devices/system/cpu");
  std::vector<CpuTopology::Cpu> cpus;
  for (const std::string& name : list_dir(base)) {
    auto id = number_after(name, "cpu");
    if (!id) continue;
    const std::string dir = join_path(join_path(base, name), "topology");
    if (auto online = read_small_file(join_path(join_path(base, name), "online")); online && trim(*online) == "0") continue;
    auto package = read_small_file(join_path(dir, "physical_package_id"));
    auto core = read_small_file(join_path(dir, "core_id"));
    if (!package || !core) continue;  // offline CPUs have no topology
    CpuTopology::Cpu c;
    c.id = std::uint32_t(*id);
    c.package = std::strtoll(trim(*package).c_str(), nullptr, 10);
    c.core_id = std::strtoll(trim(*core).c_str(), nullptr, 10);
    if (auto sib = read_small_file(join_path(dir, "thread_siblings_list"))) {
      if (auto list = hw::parse_cpulist(*sib)) c.siblings = *list;
      else inv.problems.push_back(fmt_problem(join_path(dir, "thread_siblings_list"), "not a CPU list"));
    }
    cpus.push_back(std::move(c));
  }
  inv.cpu = CpuTopology::build(std::move(cpus));
}

void read_locality(HardwareInventory& inv, Gpu& g) {
  const std::string dev = under(inv.sysroot, "/sys/bus/pci/devices/" + g.bus_id);
  if (auto numa = read_small_file(join_path(dev, "numa_node"))) {
    long n = std::strtol(trim(*numa).c_str(), nullptr, 10);
    if (n >= 0) g.numa_node = int(n);
  }
  if (auto list = read_small_file(join_path(dev, "local_cpulist"))) {
    if (auto cpus = hw::parse_cpulist(*list)) g.local_cpus = *cpus;
    else inv.problems.push_back(fmt_problem(join_path(dev, "local_cpulist"), "not a CPU list"));
  }
  if (!g.local_cpus.empty()) g.local_cores = inv.cpu.cores_of_cpus(g.local_cpus);
  if (g.local_cores.empty())
    for (std::uint32_t c = 0; c < inv.cpu.cores(); ++c) g.local_cores.push_back(c);
}

void read_nvidia(HardwareInventory& inv) {
  const std::string base = under(inv.sysroot, "/proc/driver/nvidia/gpus");
  for (const std::string& dir : list_dir(base)) {
    auto info = read_small_file(join_path(join_path(base, dir), "information"));
    if (!info) continue;
    auto kv = key_values(*info);
    Gpu g;
    g.vendor = GpuVendor::nvidia;
    g.model = kv["Model"];
    g.bus_id = to_lower(kv.count("Bus Location") ? kv["Bus Location"] : dir);
    auto minor = to_u32(kv["Device Minor"]);
    if (!minor) {
      inv.problems.push_back(fmt_problem(join_path(join_path(base, dir), "information"), "no Device Minor"));
      continue;
    }
    g.minor = *minor;
    g.device_file = "/dev/nvidia" + std::to_string(g.minor);
    g.device_file_exists = inv.path_exists(g.device_file);
    read_locality(inv, g);
    // MIG: one compute instance per gi*/ci* directory that has an access file.
    const std::string mig = under(inv.sysroot, "/proc/driver/nvidia/capabilities/gpu" + std::to_string(g.minor) + "/mig");
    for (const std::string& gi_name : list_dir(mig)) {
      auto gi = number_after(gi_name, "gi");
      if (!gi) continue;
      const std::string gi_dir = join_path(mig, gi_name);
      auto gi_access = read_small_file(join_path(gi_dir, "access"));
      auto gi_minor = gi_access ? to_u32(key_values(*gi_access)["DeviceFileMinor"]) : std::nullopt;
      if (!gi_minor) continue;
      for (const std::string& ci_name : list_dir(gi_dir)) {
        auto ci = number_after(ci_name, "ci");
        if (!ci) continue;
        auto ci_access = read_small_file(join_path(join_path(gi_dir, ci_name), "access"));
        auto ci_minor = ci_access ? to_u32(key_values(*ci_access)["DeviceFileMinor"]) : std::nullopt;
        if (!ci_minor) continue;
        MigInstance m;
        m.gi = std::uint32_t(*gi);
        m.ci = std::uint32_t(*ci);
        m.gi_minor = *gi_minor;
        m.ci_minor = *ci_minor;
        m.files = {g.device_file, "/dev/nvidia-caps/nvidia-cap" + std::to_string(*gi_minor),
                   "/dev/nvidia-caps/nvidia-cap" + std::to_string(*ci_minor)};
        for (const std::string& f : m.files) m.files_exist = m.files_exist && inv.path_exists(f);
        g.mig.push_back(std::move(m));
      }
    }
    std::sort(g.mig.begin(), g.mig.end(), [](const MigInstance& a, const MigInstance& b) {
      return std::tie(a.gi, a.ci) < std::tie(b.gi, b.ci);
    });
    inv.gpus.push_back(std::move(g));
  }
  std::sort(inv.gpus.begin(), inv.gpus.end(), [](const Gpu& a, const Gpu& b) { return a.minor < b.minor; });
}

void read_drm(HardwareInventory& inv) {
  const std::string base = under(inv.sysroot, "/sys/class/drm");
  std::vector<Gpu> found;
  for (const std::string& name : list_dir(base)) {
    auto minor = number_after(name, "renderD");
    if (!minor) continue;
    const std::string dev = join_path(join_path(base, name), "device");
    auto vendor = read_small_file(join_path(dev, "vendor"));
    if (!vendor) continue;
    std::string v = to_lower(trim(*vendor));
    Gpu g;
    if (v == "0x1002") g.vendor = GpuVendor::amd;
    else if (v == "0x8086") g.vendor = GpuVendor::intel;
    else continue;  // NVIDIA render nodes (nvidia-drm) are counted from /proc; BMC VGA has none
    g.minor = std::uint32_t(*minor);
    if (auto uevent = read_small_file(join_path(dev, "uevent"))) {
      std::istringstream in(*uevent);
      for (std::string line; std::getline(in, line);)
        if (line.rfind("PCI_SLOT_NAME=", 0) == 0) g.bus_id = to_lower(trim(line.substr(14)));
    }
    if (g.bus_id.empty()) {
      char target[4096];
      ssize_t n = ::readlink(dev.c_str(), target, sizeof(target) - 1);
      if (n > 0) {
        std::string t(target, std::size_t(n));
        g.bus_id = to_lower(t.substr(t.rfind('/') + 1));
      }
    }
    if (auto product = read_small_file(join_path(dev, "product_name"))) g.model = trim(*product);
    g.device_file = "/dev/dri/renderD" + std::to_string(g.minor);
    g.device_file_exists = inv.path_exists(g.device_file);
    if (!g.bus_id.empty()) read_locality(inv, g);
    else
      for (std::uint32_t c = 0; c < inv.cpu.cores(); ++c) g.local_cores.push_back(c);
    found.push_back(std::move(g));
  }
  std::sort(found.begin(), found.end(), [](const Gpu& a, const Gpu& b) { return a.minor < b.minor; });
  for (Gpu& g : found) inv.gpus.push_back(std::move(g));
}

}  // namespace

namespace {

/// "MemTotal:       263000000 kB" in /proc/meminfo.
void read_memory(HardwareInventory& inv) {
  auto text = read_small_file(under(inv.sysroot, "/proc/meminfo"));
  if (!text) return;
  const std::size_t at = text->find("MemTotal:");
  if (at == std::string::npos) return;
  const char* p = text->c_str() + at + 9;
  char* end = nullptr;
  const unsigned long long kib = std::strtoull(p, &end, 10);
  if (end == p) {
    inv.problems.push_back(fmt_problem(under(inv.sysroot, "/proc/meminfo"), "MemTotal is not a number"));
    return;
  }
  inv.memory_mib = kib / 1024;
}

}  // namespace

HardwareInventory read_inventory(const std::string& sysroot) {
  HardwareInventory inv;
  inv.sysroot = sysroot.empty() ? "/" : sysroot;
  if (auto h = read_small_file(under(inv.sysroot, "/proc/sys/kernel/hostname"))) inv.hostname = trim(*h);
  read_memory(inv);
  read_cpus(inv);
  read_nvidia(inv);
  read_drm(inv);
  return inv;
}

}  // namespace greslint
