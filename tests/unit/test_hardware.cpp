// SPDX-License-Identifier: Apache-2.0
// CPU ids -> Slurm's logical core indexes, GPU type names and expected Cores= per release.
#include <catch2/catch.hpp>

#include "greslint/hardware.hpp"

using greslint::CpuTopology;
using Cores = std::vector<std::uint32_t>;

namespace {

/// `sockets` x `cores` x `threads`; `cpu_of(socket, core, thread)` numbers the CPUs.
template <typename Fn>
CpuTopology make(std::uint32_t sockets, std::uint32_t cores, std::uint32_t threads, Fn cpu_of,
                 bool with_siblings = true) {
  std::vector<CpuTopology::Cpu> cpus;
  for (std::uint32_t s = 0; s < sockets; ++s)
    for (std::uint32_t c = 0; c < cores; ++c) {
      std::vector<std::uint32_t> sib;
      for (std::uint32_t t = 0; t < threads; ++t) sib.push_back(cpu_of(s, c, t));
      for (std::uint32_t t = 0; t < threads; ++t)
        cpus.push_back({cpu_of(s, c, t), std::int64_t(s), std::int64_t(c * 2 + 1), with_siblings ? sib : Cores{}});
    }
  return CpuTopology::build(cpus);
}

}  // namespace

TEST_CASE("Intel numbering: hyperthreads after all first threads", "[hardware]") {
  // 2 x 8 x 2: socket 0 is CPUs 0-7 and 16-23, socket 1 is 8-15 and 24-31.
  auto t = make(2, 8, 2, [](auto s, auto c, auto th) { return th * 16 + s * 8 + c; });
  CHECK(t.sockets() == 2);
  CHECK(t.cores_per_socket() == 8);
  CHECK(t.threads_per_core() == 2);
  CHECK(t.cpus() == 32);
  CHECK(t.core_of_cpu(0) == 0u);
  CHECK(t.core_of_cpu(16) == 0u);  // sibling of CPU 0
  CHECK(t.core_of_cpu(9) == 9u);
  CHECK(t.core_of_cpu(25) == 9u);
  CHECK(t.core_of_cpu(32) == std::nullopt);
  CHECK(t.socket_of_core(8) == 1u);
  // A GPU's local_cpulist "8-15,24-31" is cores 8-15.
  Cores cpus;
  for (std::uint32_t i = 8; i < 16; ++i) cpus.push_back(i), cpus.push_back(i + 16);
  CHECK(t.cores_of_cpus(cpus) == Cores{8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(t.cpus_of_core(3) == Cores{3, 19});
}

TEST_CASE("siblings numbered next to each other", "[hardware]") {
  auto t = make(1, 8, 2, [](auto, auto c, auto th) { return c * 2 + th; });
  CHECK(t.cores() == 8);
  CHECK(t.core_of_cpu(0) == 0u);
  CHECK(t.core_of_cpu(1) == 0u);
  CHECK(t.core_of_cpu(15) == 7u);
  Cores all;
  for (std::uint32_t i = 0; i < 16; ++i) all.push_back(i);
  CHECK(t.cores_of_cpus(all) == Cores{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("CPUs interleaved across sockets", "[hardware]") {
  // Even CPUs on socket 0, odd on socket 1 (some BIOSes): core index != CPU id.
  auto t = make(2, 4, 1, [](auto s, auto c, auto) { return c * 2 + s; });
  CHECK(t.sockets() == 2);
  CHECK(t.core_of_cpu(0) == 0u);
  CHECK(t.core_of_cpu(2) == 1u);
  CHECK(t.core_of_cpu(6) == 3u);
  CHECK(t.core_of_cpu(1) == 4u);
  CHECK(t.core_of_cpu(7) == 7u);
  CHECK(t.cores_of_socket(1) == Cores{4, 5, 6, 7});
}

TEST_CASE("sockets ordered by their first CPU, not by package id", "[hardware]") {
  std::vector<CpuTopology::Cpu> cpus = {
      {0, 1, 0, {0}}, {1, 1, 1, {1}}, {2, 0, 0, {2}}, {3, 0, 1, {3}},
  };
  auto t = CpuTopology::build(cpus);
  CHECK(t.core_of_cpu(0) == 0u);  // package 1 holds CPU 0: it is socket 0
  CHECK(t.core_of_cpu(2) == 2u);
  CHECK(t.socket_of_core(2) == 1u);
}

TEST_CASE("cores within a socket ordered by first CPU even when core_id skips", "[hardware]") {
  // Xeon core_id values 0,1,2,3,8,9,10,11 map to core indexes 0-7; no sibling lists given.
  const std::int64_t ids[] = {0, 1, 2, 3, 8, 9, 10, 11};
  std::vector<CpuTopology::Cpu> cpus;
  for (std::uint32_t i = 0; i < 8; ++i) {
    cpus.push_back({i, 0, ids[i], {}});
    cpus.push_back({i + 8, 0, ids[i], {}});
  }
  auto t = CpuTopology::build(cpus);
  CHECK(t.cores() == 8);
  CHECK(t.threads_per_core() == 2);
  CHECK(t.core_of_cpu(4) == 4u);
  CHECK(t.core_of_cpu(12) == 4u);
  CHECK(t.uniform());
}

TEST_CASE("empty and uneven topologies", "[hardware]") {
  CHECK(CpuTopology::build({}).empty());
  std::vector<CpuTopology::Cpu> cpus = {{0, 0, 0, {0}}, {1, 0, 1, {1}}, {2, 1, 0, {2}}};
  auto t = CpuTopology::build(cpus);
  CHECK(t.sockets() == 2);
  CHECK_FALSE(t.uniform());
}

TEST_CASE("AutoDetect type names and short types", "[hardware]") {
  using greslint::autodetect_type_name;
  using greslint::short_gpu_type;
  CHECK(autodetect_type_name("NVIDIA H100 80GB HBM3") == "nvidia_h100_80gb_hbm3");
  CHECK(autodetect_type_name("NVIDIA A100-SXM4-40GB") == "nvidia_a100-sxm4-40gb");
  CHECK(short_gpu_type("NVIDIA H100 80GB HBM3") == "h100");
  CHECK(short_gpu_type("NVIDIA A100-SXM4-80GB") == "a100");
  CHECK(short_gpu_type("NVIDIA RTX A6000") == "a6000");
  CHECK(short_gpu_type("NVIDIA GeForce RTX 4090") == "rtx_4090");
  CHECK(short_gpu_type("Tesla V100-SXM2-32GB") == "v100");
  for (const char* m : {"NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 4090", "Tesla T4", "NVIDIA L40S"})
    CHECK(autodetect_type_name(m).find(short_gpu_type(m)) != std::string::npos);
}

TEST_CASE("expected Cores= per release", "[hardware]") {
  using greslint::expected_gpu_cores;
  using greslint::socket_rule_violation;
  using greslint::VersionProfile;
  // One 16-core socket, NUMA domains of 4 cores (EPYC NPS4).
  auto t = make(1, 16, 2, [](auto, auto c, auto th) { return th * 16 + c; });
  const Cores local{4, 5, 6, 7};
  const Cores socket{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  CHECK(expected_gpu_cores(local, t, VersionProfile(greslint::kSlurm2205)) == local);
  CHECK(expected_gpu_cores(local, t, VersionProfile(greslint::kSlurm2411)) == socket);
  CHECK(expected_gpu_cores(local, t, VersionProfile(greslint::kSlurm2511)) == socket);
  CHECK(socket_rule_violation(local, t, VersionProfile(greslint::kSlurm2205)) == -1);
  CHECK(socket_rule_violation(local, t, VersionProfile(greslint::kSlurm2411)) == 0);
  CHECK(socket_rule_violation(socket, t, VersionProfile(greslint::kSlurm2511)) == -1);
  // Two sockets: both whole sockets pass 24.11, fail 25.11 unless all cores.
  auto two = make(4, 4, 1, [](auto s, auto c, auto) { return s * 4 + c; });
  const Cores two_sockets{0, 1, 2, 3, 4, 5, 6, 7};
  CHECK(socket_rule_violation(two_sockets, two, VersionProfile(greslint::kSlurm2411)) == -1);
  CHECK(socket_rule_violation(two_sockets, two, VersionProfile(greslint::kSlurm2511)) == 0);
  CHECK(expected_gpu_cores({2, 5}, two, VersionProfile(greslint::kSlurm2411)) == two_sockets);
  CHECK(expected_gpu_cores({2, 5}, two, VersionProfile(greslint::kSlurm2511)).size() == 16);
}

TEST_CASE("reading a sysroot", "[hardware]") {
  auto inv = greslint::read_inventory(std::string(GRESLINT_SOURCE_DIR) + "/tests/hardware/trees/hgx-7gpu");
  CHECK(inv.hostname == "hgx01");
  CHECK(inv.cpu.sockets() == 2);
  CHECK(inv.cpu.cores() == 16);
  REQUIRE(inv.gpus.size() == 7);
  CHECK(inv.gpus[3].bus_id == "0000:9a:00.0");  // renumbered after 0000:5d:00.0 dropped out
  CHECK(inv.gpus[3].device_file == "/dev/nvidia3");
  CHECK(inv.gpus[3].numa_node == 1);
  CHECK(inv.gpus[3].local_cores == Cores{8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(inv.path_exists("/dev/nvidia6"));
  CHECK_FALSE(inv.path_exists("/dev/nvidia7"));

  auto mig = greslint::read_inventory(std::string(GRESLINT_SOURCE_DIR) + "/tests/hardware/trees/h100-mig");
  REQUIRE(mig.gpus.size() == 1);
  REQUIRE(mig.gpus[0].mig.size() == 3);
  CHECK(mig.gpus[0].mig[1].files ==
        std::vector<std::string>{"/dev/nvidia0", "/dev/nvidia-caps/nvidia-cap21", "/dev/nvidia-caps/nvidia-cap22"});

  auto amd = greslint::read_inventory(std::string(GRESLINT_SOURCE_DIR) + "/tests/hardware/trees/amd-mi210");
  REQUIRE(amd.gpus.size() == 4);
  CHECK(amd.gpus[0].vendor == greslint::GpuVendor::amd);
  CHECK(amd.gpus[2].device_file == "/dev/dri/renderD130");
  CHECK(amd.gpus[2].local_cores == Cores{8, 9, 10, 11, 12, 13, 14, 15});
}
