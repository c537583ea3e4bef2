// SPDX-License-Identifier: Apache-2.0
// Durations as parse_time.c reads them: time_str2secs / time_str2mins, sentinels and the
// 32-bit arithmetic included.
#include <catch2/catch.hpp>

#include "slurm_time.hpp"

using greslint::kSlurmInfinite;
using greslint::kSlurmNoVal;
using greslint::slurm_time_mins;
using greslint::slurm_time_secs;
using greslint::valid_timespec;

TEST_CASE("time_str2secs reads each format", "[slurm_time]") {
  CHECK(slurm_time_secs("5") == 300);             // minutes
  CHECK(slurm_time_secs("5:30") == 330);          // minutes:seconds
  CHECK(slurm_time_secs("1:02:03") == 3723);      // hours:minutes:seconds
  CHECK(slurm_time_secs("2-12") == 2 * 86400 + 12 * 3600);
  CHECK(slurm_time_secs("2-12:30") == 2 * 86400 + 12 * 3600 + 30 * 60);
  CHECK(slurm_time_secs("1-0:0:1") == 86401);
  CHECK(slurm_time_secs("5-") == 5 * 86400);      // valid shape: the hours are simply missing
}

TEST_CASE("time_str2secs sentinels", "[slurm_time]") {
  CHECK(slurm_time_secs("-1") == kSlurmInfinite);
  CHECK(slurm_time_secs("infinite") == kSlurmInfinite);
  CHECK(slurm_time_secs("UNLIMITED") == kSlurmInfinite);
  CHECK(slurm_time_secs("") == kSlurmNoVal);
  CHECK(slurm_time_secs("10mins") == kSlurmNoVal);
  CHECK(slurm_time_secs("1:2:3:4") == kSlurmNoVal);
  CHECK(slurm_time_secs("1:") == kSlurmNoVal);
  CHECK(slurm_time_secs("1:-5") == kSlurmNoVal);  // days come first
}

TEST_CASE("a leading minus is a negative day count, as sscanf reads it", "[slurm_time]") {
  CHECK(valid_timespec("-5"));
  CHECK(slurm_time_secs("-5") == -5 * 86400);
  CHECK(slurm_time_mins("-5") == (-5 * 86400 + 59) / 60);
}

TEST_CASE("huge values wrap in 32 bits", "[slurm_time]") {
  // 40,000,000 minutes = 2.4e9 s: past INT32_MAX, so negative in Slurm's int.
  CHECK(slurm_time_secs("40000000") < 0);
  CHECK(slurm_time_mins("40000000") < 0);
  // 35,791,394 minutes = 2,147,483,640 s: still positive.
  CHECK(slurm_time_secs("35791394") == 2147483640);
  // a number past a long saturates, then keeps its low 32 bits: 0x7fffffffffffffff -> -1,
  // times 60 -> -60 s
  CHECK(slurm_time_secs("99999999999999999999") == -60);
}

TEST_CASE("time_str2mins rounds seconds up", "[slurm_time]") {
  CHECK(slurm_time_mins("0") == 0);
  CHECK(slurm_time_mins("0:30") == 1);
  CHECK(slurm_time_mins("1:00:01") == 61);
  CHECK(slurm_time_mins("INFINITE") == kSlurmInfinite);
  CHECK(slurm_time_mins("x") == kSlurmNoVal);
}
