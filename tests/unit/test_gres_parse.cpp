// SPDX-License-Identifier: Apache-2.0
// Gres= counting (gres.c:_get_gres_cnt), Count suffixes, Cores lists and Links, as Slurm reads them.
#include <catch2/catch.hpp>

#include "gres_parse.hpp"

using namespace greslint;

TEST_CASE("Gres= counting follows _get_gres_cnt", "[gres]") {
  SECTION("typed counts add up per type, the total is their sum") {
    GresCount c = count_gres("gpu:a100:2,gpu:v100:1,gpu:a100:1", "gpu");
    CHECK(c.total == 4);
    REQUIRE(c.types.size() == 2);
    CHECK(c.types[0].type == "a100");
    CHECK(c.types[0].count == 3);
    CHECK(c.types[1].count == 1);
  }
  SECTION("a bare name is one GPU and stops the loop, keeping earlier types") {
    GresCount c = count_gres("gpu:a100:2,gpu,gpu:v100:4", "gpu");
    CHECK(c.total == 1);
    CHECK(c.bare_name_reset);
    REQUIRE(c.types.size() == 1);
    CHECK(c.types[0].count == 2);
  }
  SECTION("socket binding text in parentheses is ignored") {
    CHECK(count_gres("gpu:2(S:0-1)", "gpu").total == 2);
  }
  SECTION("a field that does not start with a digit is a type with count 1") {
    GresCount c = count_gres("gpu:tesla", "gpu");
    CHECK(c.total == 1);
    REQUIRE(c.types.size() == 1);
    CHECK(c.types[0].type == "tesla");
    CHECK(count_gres("gpu:-1", "gpu").types.at(0).type == "-1");
    CHECK(count_gres("gpu:", "gpu").types.empty());
  }
  SECTION("every field between name and count is a type; no_consume is not") {
    GresCount c = count_gres("gpu:a:b:2", "gpu");
    CHECK(c.total == 2);
    CHECK(c.types.size() == 2);
    GresCount n = count_gres("gpu:no_consume:4", "gpu");
    CHECK(n.no_consume);
    CHECK(n.types.empty());
    CHECK(n.total == 4);
  }
  SECTION("suffixes multiply; an invalid one stops counting") {
    CHECK(count_gres("shard:2K", "shard").total == 2048);
    CHECK(count_gres("mps:1kb", "mps").total == 1000);
    GresCount bad = count_gres("gpu:2x,gpu:a100:4", "gpu");
    CHECK(bad.bad_token == "gpu:2x");
    CHECK(bad.total == 0);
  }
  SECTION("types are case-sensitive and other names are ignored") {
    GresCount c = count_gres("gpu:A100:1,gpu:a100:1,nic:2", "gpu");
    CHECK(c.types.size() == 2);
    CHECK(count_gres("gpus:4", "gpu").total == 0);
  }
}

TEST_CASE("gres.conf Count= is strtoll base 10 plus a suffix", "[gres]") {
  CHECK(parse_gres_count("4") == 4u);
  CHECK(parse_gres_count("2k") == 2048u);
  CHECK(parse_gres_count("010") == 10u);  // base 10, unlike slurm.conf numbers
  CHECK_FALSE(parse_gres_count("2x"));
  CHECK_FALSE(parse_gres_count("abc"));
  CHECK(parse_gres_count("-1") == ~std::uint64_t(0));  // wraps, then C16 rejects it
}

TEST_CASE("Cores= lists are read like bit_unfmt", "[gres]") {
  CHECK(parse_core_list("0-3", 64) == std::vector<std::uint32_t>{0, 1, 2, 3});
  CHECK(parse_core_list("[0-3]", 64) == std::vector<std::uint32_t>{0, 1, 2, 3});
  CHECK(parse_core_list("0,2,4-5", 8) == std::vector<std::uint32_t>{0, 2, 4, 5});
  CHECK(parse_core_list("0-6:2", 8) == std::vector<std::uint32_t>{0, 2, 4, 6});
  CHECK(parse_core_list("5-2", 8) == std::vector<std::uint32_t>{});
  CHECK_FALSE(parse_core_list("64-95", 64));
  CHECK_FALSE(parse_core_list("0-4294967295", 64));
  CHECK(format_index_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
}

TEST_CASE("Links= validation messages are gres_links_validate's", "[gres]") {
  CHECK(validate_links("-1,0,0,0").empty());
  CHECK(validate_links("") == "gres_links_validate: Links is an empty string");
  CHECK(validate_links("-1,-1") == "gres_links_validate: links string '-1,-1' has more than one -1");
  CHECK(validate_links("0,2") == "gres_links_validate: -1 wasn't found in links string '0,2'");
  CHECK(validate_links("-1,x") == "gres_links_validate: Failed to parse token 'x' in links string '-1,x'");
}
