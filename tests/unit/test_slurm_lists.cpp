// SPDX-License-Identifier: Apache-2.0
// Slurm's comma lists (slurm_addto_char_list) and the TRES list slurmctld builds from
// AccountingStorageTRES, per release.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "slurm_lists.hpp"

using greslint::accounting_tres_list;
using greslint::is_known_tres_type;
using greslint::kSlurm2205;
using greslint::kSlurm2411;
using greslint::VersionProfile;
using Names = std::vector<std::string>;

namespace {
Names add(std::string_view text, Names list = {}) {
  greslint::slurm_addto_char_list(list, text, VersionProfile(kSlurm2411));
  return list;
}
}  // namespace

TEST_CASE("names are lower-cased, split on commas, blanks and a trailing comma dropped") {
  CHECK(add("CPU,Gres/GPU") == Names{"cpu", "gres/gpu"});
  CHECK(add("a,,b,") == Names{"a", "b"});
  CHECK(add("") == Names{""});
}

TEST_CASE("a repeated name moves to the end of the list") {
  CHECK(add("a,b,A") == Names{"b", "a"});
  CHECK(add("b", Names{"a", "b", "c"}) == Names{"a", "c", "b"});
}

TEST_CASE("a leading quote ends the list at its match; other quotes read as a backtick") {
  CHECK(add("'a,b',c") == Names{"a", "b"});
  CHECK(add("a\"b") == Names{"a`b"});
}

TEST_CASE("brackets expand as a hostlist and protect their commas") {
  CHECK(add("gres/gpu[1-2],cpu") == Names{"gres/gpu1", "gres/gpu2", "cpu"});
  CHECK(add("n[1,3]") == Names{"n1", "n3"});
}

TEST_CASE("up to 23.02 the configured TRES come before the defaults, as written") {
  const std::string configured = "gres/gpu,GPU";
  CHECK(accounting_tres_list(configured, VersionProfile(kSlurm2205)) ==
        Names{"gres/gpu", "gpu", "cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages"});
}

TEST_CASE("from 23.11 the list is sorted and a tracked gres/gpu brings gpumem and gpuutil") {
  const std::string configured = "gres/gpu,GPU";
  CHECK(accounting_tres_list(configured, VersionProfile(kSlurm2411)) ==
        Names{"billing", "cpu", "energy", "fs/disk", "gpu", "gres/gpu", "gres/gpumem", "gres/gpuutil", "mem", "node",
              "pages", "vmem"});
  CHECK(accounting_tres_list(std::nullopt, VersionProfile(kSlurm2411)) ==
        Names{"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages"});
}

TEST_CASE("the TRES types _init_tres knows") {
  for (const char* t : {"cpu", "MEM", "billing", "gres/gpu:a100", "gres/", "license/matlab", "fs/lustre", "ic/ofed",
                        "bb/datawarp"})
    CHECK(is_known_tres_type(t));
  for (const char* t : {"gpu", "gres", "license", "gpus", ""}) CHECK_FALSE(is_known_tres_type(t));
}
