// SPDX-License-Identifier: Apache-2.0
// Release strings: the release they name, and the Debian build they may name with it.
#include <catch2/catch.hpp>

#include "greslint/version.hpp"

using greslint::kSlurm2205;
using greslint::kSlurm2411;
using greslint::kSlurm2605;
using greslint::parse_slurm_version;
using greslint::VersionProfile;

TEST_CASE("an upstream version string names the release of an upstream build") {
  for (const char* text : {"24.11", "24.11.7", "slurm 24.11.7"}) {
    auto v = parse_slurm_version(text);
    REQUIRE(v);
    CHECK(*v == kSlurm2411);
    CHECK_FALSE(v->multiple_slurmd);
  }
}

TEST_CASE("Debian's slurm-wlm and the -debian suffix name the multiple-slurmd build") {
  for (const char* text : {"slurm-wlm 24.11.5", "24.11-debian", "24.11.5-debian"}) {
    auto v = parse_slurm_version(text);
    REQUIRE(v);
    CHECK(*v == kSlurm2411);
    CHECK(v->multiple_slurmd);
  }
  CHECK_FALSE(parse_slurm_version("slurm-wlm 24.12.1"));
}

TEST_CASE("only an upstream 24.11+ build names a duplicate node by its host name") {
  CHECK(VersionProfile(*parse_slurm_version("26.05")).duplicate_node_message_is_hostname());
  CHECK_FALSE(VersionProfile(*parse_slurm_version("slurm-wlm 26.05.5")).duplicate_node_message_is_hostname());
  CHECK_FALSE(VersionProfile(*parse_slurm_version("slurm-wlm 24.11.5")).duplicate_node_message_is_hostname());
  CHECK_FALSE(VersionProfile(kSlurm2205).duplicate_node_message_is_hostname());
  CHECK(kSlurm2605 == *parse_slurm_version("26.05-debian"));  // the build is not the release
}
