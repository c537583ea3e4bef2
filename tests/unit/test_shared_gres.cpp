// SPDX-License-Identifier: Apache-2.0
// The mps/shard plugins' load (gres_c_s.c) as model/shared_gres.hpp replays it; each case is
// one of the conformance cases recorded from Slurm 22.05.8 (named in the section).
#include <catch2/catch.hpp>

#include "model/shared_gres.hpp"

using namespace greslint;
using namespace greslint::model;

namespace {

GresRecord rec(std::string name, std::uint64_t count, std::vector<std::string> paths = {}, bool multiple = false) {
  GresRecord r;
  r.name = std::move(name);
  r.count = count;
  if (!paths.empty()) {
    std::string files;
    for (const std::string& p : paths) files += (files.empty() ? "" : ",") + p;
    r.files = files;
  }
  r.paths = std::move(paths);
  r.multiple_files = multiple;
  return r;
}

std::vector<std::uint64_t> counts(const std::vector<GresRecord>& recs) {
  std::vector<std::uint64_t> out;
  for (const GresRecord& r : recs) out.push_back(r.count);
  return out;
}

}  // namespace

TEST_CASE("shared GRES over the GPUs' device files", "[shared]") {
  SECTION("a File-less count is spread, the later GPUs taking the remainder (d07)") {
    std::vector<GresRecord> gpu{rec("gpu", 3, {"/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2"})};
    std::vector<GresRecord> shard{rec("shard", 10)};
    ShareOutcome o = share_devices(gpu, shard, "shard", true);
    CHECK(o.fatal.empty());
    CHECK(gpu.size() == 3);
    CHECK(counts(shard) == std::vector<std::uint64_t>{3, 3, 4});
    CHECK(*shard[2].files == "/dev/nvidia2");
  }
  SECTION("a count with File= is divided per file and the remainder lost (gm14, gm22)") {
    std::vector<GresRecord> gpu{rec("gpu", 3, {"/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2"})};
    std::vector<GresRecord> mps{rec("mps", 100, {"/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2"})};
    share_devices(gpu, mps, "mps", true);
    CHECK(counts(mps) == std::vector<std::uint64_t>{33, 33, 33});
  }
  SECTION("a second record for one GPU is discarded; the other GPU gets 0 (gm03, gm20)") {
    std::vector<GresRecord> gpu{rec("gpu", 2, {"/dev/nvidia0", "/dev/nvidia1"})};
    std::vector<GresRecord> mps{rec("mps", 100, {"/dev/nvidia0"}), rec("mps", 100, {"/dev/nvidia0"})};
    ShareOutcome o = share_devices(gpu, mps, "mps", true);
    CHECK(counts(mps) == std::vector<std::uint64_t>{100, 0});
    REQUIRE(o.discarded.size() == 1);
    CHECK(o.discarded[0].file == "/dev/nvidia0");
    CHECK(o.discarded[0].file_is_a_gpu);
  }
  SECTION("each GPU takes the record of its own file, with the GPU's type (gm36)") {
    std::vector<GresRecord> gpu{rec("gpu", 1, {"/dev/nvidia0"}), rec("gpu", 1, {"/dev/nvidia1"})};
    gpu[0].type = "a100";
    gpu[1].type = "t4";
    std::vector<GresRecord> shard{rec("shard", 4, {"/dev/nvidia1"}), rec("shard", 6, {"/dev/nvidia0"})};
    share_devices(gpu, shard, "shard", true);
    CHECK(counts(shard) == std::vector<std::uint64_t>{6, 4});
    CHECK(*shard[1].type == "t4");
  }
  SECTION("22.05 splits a MIG GPU into its files; 23.02.7+ keeps it whole (gm11)") {
    auto mig = [] {
      return std::vector<GresRecord>{rec("gpu", 1, {"/dev/nvidia0", "/dev/nvidia-caps/nvidia-cap21"}, true)};
    };
    std::vector<GresRecord> gpu = mig(), shard{rec("shard", 4)};
    share_devices(gpu, shard, "shard", true);
    CHECK(gpu.size() == 2);
    CHECK(counts(shard) == std::vector<std::uint64_t>{2, 2});
    gpu = mig(), shard = {rec("shard", 4)};
    share_devices(gpu, shard, "shard", false);
    CHECK(gpu.size() == 1);
    CHECK(counts(shard) == std::vector<std::uint64_t>{4});
  }
  SECTION("only the exact spellings take part (gm01, gm19)") {
    std::vector<GresRecord> gpu{rec("gpu", 2, {"/dev/nvidia0", "/dev/nvidia1"})};
    std::vector<GresRecord> shard{rec("Shard", 8)};
    share_devices(gpu, shard, "shard", true);
    CHECK(shard.size() == 3);  // "Shard" as it was, then one empty record per GPU
    CHECK(shard[0].name == "Shard");
    CHECK(shared_total(shard) == 0);

    std::vector<GresRecord> upper{rec("GPU", 2, {"/dev/nvidia0", "/dev/nvidia1"})};
    std::vector<GresRecord> shard2{rec("shard", 8)};
    ShareOutcome o = share_devices(upper, shard2, "shard", true);
    CHECK(o.no_sharing);
    CHECK(o.fatal == "failed to merge SHARED and SHARING configuration");
  }
  SECTION("File-less and File= records cannot be mixed") {
    std::vector<GresRecord> gpu{rec("gpu", 2, {"/dev/nvidia0", "/dev/nvidia1"})};
    std::vector<GresRecord> shard{rec("shard", 4, {"/dev/nvidia0"}), rec("shard", 4)};
    CHECK(share_devices(gpu, shard, "shard", true).fatal ==
          "_build_shared_list: multiple configurations with and without \"File\"");
  }
}
