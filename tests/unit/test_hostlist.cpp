// SPDX-License-Identifier: Apache-2.0
// Hostlist engine: expansion, spans, messages, membership, folding and limits as Slurm has them.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "greslint/commands.hpp"
#include "greslint/hostlist.hpp"

using namespace greslint;

namespace {

const VersionProfile v2205{kSlurm2205};
const VersionProfile v2302{kSlurm2302};
const VersionProfile v2311{kSlurm2311};
const VersionProfile v2511{kSlurm2511};

Span whole(std::string_view text, std::uint32_t at = 0) {
  return Span{FileId{0}, at, at + static_cast<std::uint32_t>(text.size())};
}

HostlistResult parse_hostlist(std::string_view text, const VersionProfile& profile = v2205) {
  return parse_hostlist(text, whole(text), profile);
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::string expanded(std::string_view text, const VersionProfile& profile = v2205) {
  HostlistResult r = parse_hostlist(text, profile);
  if (!r.ok()) return "<invalid: " + (r.errors.empty() ? std::string() : r.errors.front().message) + ">";
  return joined(r.list->expand());
}

std::string text_at(std::string_view text, Span s) { return std::string(text.substr(s.begin, s.end - s.begin)); }

}  // namespace

TEST_CASE("hostlist: expansion in scontrol show hostnames order (all verified against Slurm 22.05.8)", "[hostlist]") {
  struct Case {
    const char* expr;
    const char* hosts;
  };
  const std::vector<Case> cases = {
      {"", ""},
      {" ,\t, ", ""},
      {"n1", "n1"},
      {"n1,n2 n3\tn4", "n1 n2 n3 n4"},
      {"n1,,  n2", "n1 n2"},
      {"gpu[01-04,07]", "gpu01 gpu02 gpu03 gpu04 gpu07"},
      {"n[08-10]", "n08 n09 n10"},
      {"n[8-10]", "n8 n9 n10"},
      {"n[001-3]", "n001 n002 n003"},
      {"n[98-100]", "n98 n99 n100"},
      {"n[01-100]", "n01 n02 n03 n04 n05 n06 n07 n08 n09 n10 n11 n12 n13 n14 n15 n16 n17 n18 n19 n20 n21 n22 n23 "
                    "n24 n25 n26 n27 n28 n29 n30 n31 n32 n33 n34 n35 n36 n37 n38 n39 n40 n41 n42 n43 n44 n45 n46 "
                    "n47 n48 n49 n50 n51 n52 n53 n54 n55 n56 n57 n58 n59 n60 n61 n62 n63 n64 n65 n66 n67 n68 n69 "
                    "n70 n71 n72 n73 n74 n75 n76 n77 n78 n79 n80 n81 n82 n83 n84 n85 n86 n87 n88 n89 n90 n91 n92 "
                    "n93 n94 n95 n96 n97 n98 n99 n100"},
      {"b[3,5-6]", "b3 b5 b6"},
      {"n[1-2],n[1-2]", "n1 n2 n1 n2"},
      {"n[2,1,2]", "n2 n1 n2"},
      {"[1-3]", "1 2 3"},
      {"rack[1-2]-n[01-02]", "rack1-n01 rack1-n02 rack2-n01 rack2-n02"},
      // Slurm expands the rightmost prefix group in its outer loop, so the leftmost varies fastest.
      {"r[1-2]c[3-4]n[5-6]", "r1c3n5 r1c3n6 r2c3n5 r2c3n6 r1c4n5 r1c4n6 r2c4n5 r2c4n6"},
      {"a[ 1,1]b[5,6]", "a01b5 a01b6 a1b5 a1b6"},
      // Whitespace and signs in a bound count toward the width.
      {"n[1, 2]", "n1 n02"},
      {"n[ 5- 6]", "n05 n06"},
      {"n[+5]", "n05"},
      {"n[5-+6]", "n5 n6"},
      {"n[5-]", "n5"},
      // Once a high bound exists, Slurm never checks what followed the low bound.
      {"n[5a-6]", "n05 n06"},
      {"n[1X-2]", "n01 n02"},
      {"n1]", "n1]"},
      {"n[1-2],junk]", "n1 n2 junk]"},
      {"a]b[1,2]", "a]b] 2]"},
      {"x[a[1-2]b[3]", "x[a1b3 x[a2b3"},
      {"nid0000[2-4]", "nid00002 nid00003 nid00004"},
      {"n[9-11],n[009-011]", "n9 n10 n11 n009 n010 n011"},
      {"007", "007"},
      // A plain name's number goes through strtoul: it saturates, and keeps its written width.
      {"n99999999999999999999", "n18446744073709551615"},
      {"n9999999999999999999999999", "n0000018446744073709551615"},
      {"n[18446744073709551615]", "n18446744073709551615"},
      // The merge with n0 rewrites the width to 1, and Slurm's name buffer is sized from it.
      {"n18446744073709551615,n0", "n1844674407370955 n0"},
      // Prefixes that differ only in blanks merge, and the merged range keeps the first one.
      {"a\r1,a2", "a\r1 a\r2"},
      // 22.05 does not split on newlines.
      {"a\nb1,a2", "a\nb1 a2"},
      // The 22.05 "repair" of a missing ']'.
      {"n[1-3", "n]"},
      {"n[1,2", "n] 2"},
      {"[1-3", "1-3"},
      {"[", ""},
      {"a[1-2]b[3", "a[1-2]b]"},
      // A bad range in a group left of the rightmost prefix group is logged and ignored.
      {"a[3-1]b[1-2]c[1]", ""},
      {"a[0-65536]b[1]c[1]", ""},
      {"a[1-2]x]b[3-4]y[5]", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.expr);
    CHECK(expanded(c.expr) == c.hosts);
  }
  CHECK(expanded("[") == "");
  CHECK(parse_hostlist("[").list->size() == 1);  // one host with an empty name
}

TEST_CASE("hostlist: rejections carry Slurm's exact message and the narrowest span", "[hostlist]") {
  struct Case {
    const char* expr;
    const VersionProfile* profile;
    const char* message;
    const char* spelled;  ///< text under the error span
    bool slurm_logs;
  };
  const std::vector<Case> cases = {
      {"n[]", &v2205, "_parse_single_range: Invalid range: `'", "", true},
      {"n[3-1]", &v2205, "_parse_single_range: Invalid range: `3-1'", "3-1", true},
      {"n[1-2,3-1]", &v2205, "_parse_single_range: Invalid range: `3-1'", "3-1", true},
      {"n[1--3]", &v2205, "_parse_single_range: Invalid range: `1--3'", "1--3", true},
      {"n[-1]", &v2205, "_parse_single_range: Invalid range: `-1'", "-1", true},
      {"n[a-b]", &v2205, "_parse_single_range: Invalid range: `a-b'", "a-b", true},
      {"n[0x1-3]", &v2205, "_parse_single_range: Invalid range: `0x1-3'", "0x1-3", true},
      {"n[1,]", &v2205, "_parse_single_range: Invalid range: `'", "", true},
      {"n[1 ]", &v2205, "_parse_single_range: Invalid range: `1 '", "1 ", true},
      {"n[1-2a]", &v2205, "_parse_single_range: Invalid range: `1-2a'", "1-2a", true},
      {"n[0-65536]", &v2205, "_parse_single_range: Too many hosts in range `0-65536'", "0-65536", true},
      {"n[0-99999999999]", &v2205, "_parse_single_range: Too many hosts in range `0-99999999999'", "0-99999999999",
       true},
      {"ok1,n[7-2],ok2", &v2205, "_parse_single_range: Invalid range: `7-2'", "7-2", true},
      {"a[x]b[1-2]", &v2205, "_parse_single_range: Invalid range: `x'", "x", true},
      {"[a],b[1]", &v2205, "_parse_single_range: Invalid range: `a'", "a", true},
      // The group's `]' is the last one before the top `[', wherever it is.
      {"a[3-4]y]b[5]", &v2205, "_parse_single_range: Invalid range: `3-4]y'", "3-4]y", true},
      {"n[1-2]x", &v2205, "text after `]' needs Slurm 23.11 or later: `x'", "x", false},
      {"n[1-2]]", &v2302, "text after `]' needs Slurm 23.11 or later: `]'", "]", false},
      {"n[1-3]-ib,m1", &v2302, "text after `]' needs Slurm 23.11 or later: `-ib'", "-ib", false},
      {"n[1-3", &v2302, "`[' without `]' in `n[1-3'", "[1-3", false},
      {"x,a[1]b[2", &v2511, "`[' without `]' in `a[1]b[2'", "[2", false},
      {"a[0-50000,50001-65535,0-5].b[0-1]", &v2205, "more than 65536 prefixes from `[0-50000,50001-65535,0-5]'",
       "[0-50000,50001-65535,0-5]", false},
      {"n[18446744073709551614-18446744073709551615]", &v2205,
       "range `18446744073709551614-18446744073709551615' reaches 18446744073709551615; Slurm cannot step through it",
       "18446744073709551614-18446744073709551615", false},
      {"n[0-18446744073709551615]", &v2205,
       "range `0-18446744073709551615' reaches 18446744073709551615; Slurm cannot step through it",
       "0-18446744073709551615", false},
      {"n18446744073709551614,n18446744073709551615", &v2205,
       "range reaches 18446744073709551615; Slurm cannot step through it (scontrol crashes)", "n18446744073709551614",
       false},
      {"a[18446744073709551615]b[1]", &v2205,
       "prefix range `18446744073709551615' reaches 18446744073709551615; Slurm loops forever on it",
       "18446744073709551615", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.expr, c.profile->version().str());
    HostlistResult r = parse_hostlist(c.expr, *c.profile);
    CHECK_FALSE(r.ok());
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == c.message);
    CHECK(text_at(c.expr, r.errors[0].span) == c.spelled);
    CHECK(r.errors[0].slurm_logs == c.slurm_logs);
  }
}

TEST_CASE("hostlist: every range item keeps its own span", "[hostlist]") {
  const std::string text = "gpu[01-04,07],cpu5,r[1-2]n[3,5-6]";
  HostlistResult r = parse_hostlist(text, whole(text, 100), v2205);
  REQUIRE(r.ok());
  struct Want {
    const char* prefix;
    std::uint64_t lo, hi;
    int width;
    bool numeric;
    std::uint32_t item_begin, item_end, expr_begin, expr_end;
  };
  const std::vector<Want> want = {
      {"gpu", 1, 4, 2, true, 104, 109, 100, 113},   {"gpu", 7, 7, 2, true, 110, 112, 100, 113},
      {"cpu", 5, 5, 1, true, 114, 118, 114, 118},   {"r1n", 3, 3, 1, true, 127, 128, 119, 133},
      {"r1n", 5, 6, 1, true, 129, 132, 119, 133},   {"r2n", 3, 3, 1, true, 127, 128, 119, 133},
      {"r2n", 5, 6, 1, true, 129, 132, 119, 133},
  };
  const auto& got = r.list->ranges();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i].prefix == want[i].prefix);
    CHECK(got[i].lo == want[i].lo);
    CHECK(got[i].hi == want[i].hi);
    CHECK(got[i].width == want[i].width);
    CHECK(got[i].numeric == want[i].numeric);
    CHECK(got[i].item.begin == want[i].item_begin);
    CHECK(got[i].item.end == want[i].item_end);
    CHECK(got[i].expr.begin == want[i].expr_begin);
    CHECK(got[i].expr.end == want[i].expr_end);
  }
  CHECK(r.list->size() == 12);

  SECTION("an error span is offset like the text") {
    const std::string bad = "a1,n[2-1]";
    HostlistResult e = parse_hostlist(bad, whole(bad, 40), v2205);
    REQUIRE(e.errors.size() == 1);
    CHECK(e.errors[0].span.begin == 45);
    CHECK(e.errors[0].span.end == 48);
  }
  SECTION("text that is not the file's spelling (escapes removed) gets the whole span") {
    const Span where{FileId{3}, 10, 30};
    HostlistResult l = parse_hostlist("n[1-2],m[3]", where, v2205);
    REQUIRE(l.ok());
    for (const HostRange& hr : l.list->ranges()) {
      CHECK(hr.item.begin == 10);
      CHECK(hr.item.end == 30);
      CHECK(hr.item.file.index == 3);
    }
    HostlistResult e = parse_hostlist("n[2-1]", where, v2205);
    REQUIRE(e.errors.size() == 1);
    CHECK(e.errors[0].span.begin == 10);
  }
}

TEST_CASE("hostlist: streamed expansion names every host like host(i)", "[hostlist]") {
  // append_hosts counts the number up in place; it must agree with formatting each name anew
  // across digit carries (99 -> 100), padding, suffixes, plain names, a width narrower than the
  // number (Slurm's buffer cuts such names short) and a block limit that splits the range.
  auto range = [](std::string prefix, std::uint64_t lo, std::uint64_t hi, int width, std::string suffix = "") {
    HostRange r;
    r.prefix = std::move(prefix);
    r.suffix = std::move(suffix);
    r.lo = lo;
    r.hi = hi;
    r.width = width;
    r.numeric = true;
    return r;
  };
  HostRange plain;
  plain.prefix = "login";
  const std::vector<HostRange> ranges = {
      range("n", 0, 1205, 1),        range("gpu", 7, 1010, 3),  range("r", 98, 10001, 2, "-ib"),
      range("", 999990, 1000010, 0), range("x", 0, 3, 0),       range("cut", 99999999999999990ull, 100000000000000010ull, 1),
      range("w", 18446744073709551600ull, 18446744073709551615ull, 0), plain};
  for (const HostRange& r : ranges) {
    for (std::size_t limit : {std::size_t(1) << 20, std::size_t(64)}) {
      std::string expected, streamed;
      for (std::uint64_t i = 0; i < r.count(); ++i) expected += r.host(i) + '\n';
      std::uint64_t next = 0;
      int blocks = 0;
      while (next < r.count()) {
        std::string block;
        next = r.append_hosts(next, block, '\n', limit);
        streamed += block;
        ++blocks;
      }
      INFO(r.prefix << r.lo << "-" << r.hi << " limit " << limit);
      CHECK(streamed == expected);
      if (limit == 64 && expected.size() > 200) CHECK(blocks > 1);
    }
  }
  // Hostlist::for_each counts up in place too, across consecutive ranges of one list.
  std::string expected, walked;
  for (const HostRange& r : ranges)
    for (std::uint64_t i = 0; i < r.count(); ++i) expected += r.host(i) + '\n';
  const Hostlist list(ranges);
  list.for_each([&](const std::string& host, const HostRange&) { walked += host + '\n'; });
  CHECK(walked == expected);
}

TEST_CASE("hostlist: widths and plain names split like Slurm's hostname handling", "[hostlist]") {
  struct Case {
    const char* expr;
    const char* prefix;
    std::uint64_t lo;
    int width;
    bool numeric;
  };
  const std::vector<Case> cases = {
      {"n[08-10]", "n", 8, 2, true},     {"n[8-10]", "n", 8, 1, true},   {"n[ 2]", "n", 2, 2, true},
      {"n[+5]", "n", 5, 2, true},        {"n007", "n", 7, 3, true},      {"login", "login", 0, 0, false},
      {"gpu-a100-12", "gpu-a100-", 12, 2, true}, {"a1b", "a1b", 0, 0, false}, {"123", "", 123, 3, true},
      {"n[1-3", "n]", 0, 0, false},      {"[1-3", "1-", 3, 1, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.expr);
    HostlistResult r = parse_hostlist(c.expr);
    REQUIRE(r.ok());
    const HostRange& hr = r.list->ranges().front();
    CHECK(hr.prefix == c.prefix);
    CHECK(hr.numeric == c.numeric);
    if (c.numeric) {
      CHECK(hr.lo == c.lo);
      CHECK(hr.width == c.width);
    }
  }
  HostRange hr;
  hr.prefix = "gpu";
  hr.suffix = "-ib";
  hr.lo = 8;
  hr.hi = 11;
  hr.width = 2;
  hr.numeric = true;
  CHECK(hr.count() == 4);
  CHECK(hr.host(0) == "gpu08-ib");
  CHECK(hr.host(3) == "gpu11-ib");
}

TEST_CASE("hostlist: membership follows hostlist_find (verified against libslurm 22.05.8)", "[hostlist]") {
  struct Case {
    const char* list;
    const char* host;
    bool found;
  };
  const std::vector<Case> cases = {
      {"n[1-10]", "n5", true},          {"n[1-10]", "n10", true},       {"n[1-10]", "n01", false},
      {"n[1-10]", "n11", false},        {"n[1-10]", "N5", false},       {"n[01-10]", "n1", false},
      {"n[01-10]", "n01", true},        {"n[01-10]", "n10", true},      {"n[01-10]", "n010", false},
      {"n[05-100]", "n100", true},      {"n[05-100]", "n010", false},   {"n[8-12]", "n10", true},
      {"nid0000[2-7]", "nid00002", true}, {"nid0000[2-7]", "nid000002", false}, {"nid0000[2-7]", "nid00008", false},
      {"nid[00002-00007]", "nid00005", true}, {"nid[00002-00007]", "nid0005", false},
      {"n5[0-3]", "n5", true},          {"n5[0-3]", "n51", true},       {"n5[0-3]", "n50", true},
      // The prefix is cut at its length before comparing, so a letter can land in the number.
      {"a[00-03]", "ab5", true},        {"a[0-3]", "ab5", false},
      {"login,n[1-2]", "login", true},  {"login,n[1-2]", "logi", false}, {"n1]", "n1]", true},
      {"n[1-2],x", "x", true},          {"n[1-2]", "n", false},          {"n[1, 2]", "n02", true},
      {"n[1, 2]", "n2", false},         {"n007", "n7", false},           {"n007", "n007", true},
      {"", "n1", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.list, c.host);
    HostlistResult r = parse_hostlist(c.list);
    REQUIRE(r.ok());
    CHECK(r.list->contains(c.host) == c.found);
    CHECK((r.list->find_unindexed(c.host) != nullptr) == c.found);
  }

  SECTION("find returns the range that holds the host") {
    HostlistResult r = parse_hostlist("gpu[01-04,05-08],cpu[1-3]");
    REQUIRE(r.ok());
    const HostRange* hr = r.list->find("gpu06");
    REQUIRE(hr);
    CHECK(hr->lo == 5);
    CHECK(hr->hi == 8);
    REQUIRE(r.list->find("cpu2"));
    CHECK(r.list->find("cpu2")->prefix == "cpu");
  }
  SECTION("23.11 suffix hosts match only by exact spelling") {
    HostlistResult r = parse_hostlist("n[08-10]-ib,m[1-2]", v2311);
    REQUIRE(r.ok());
    CHECK(joined(r.list->expand()) == "n08-ib n09-ib n10-ib m1 m2");
    CHECK(r.list->contains("n09-ib"));
    CHECK(r.list->contains("n10-ib"));
    CHECK_FALSE(r.list->contains("n9-ib"));
    CHECK_FALSE(r.list->contains("n009-ib"));
    CHECK_FALSE(r.list->contains("n11-ib"));
    CHECK_FALSE(r.list->contains("n09"));
    CHECK(r.list->contains("m2"));
  }
}

TEST_CASE("hostlist: the membership index answers like Slurm's linear walk", "[hostlist]") {
  std::mt19937 rng(2205);
  std::string text;
  const char* prefixes[] = {"n", "gpu", "nid000", "a", "n0", "x-", "login"};
  for (int i = 0; i < 400; ++i) {
    if (!text.empty()) text += ',';
    const std::string p = prefixes[rng() % 7];
    const unsigned lo = rng() % 300;
    const unsigned width = unsigned(std::to_string(lo).size()) + rng() % 3;
    std::string lo_text = std::to_string(lo);
    lo_text.insert(0, width - lo_text.size(), '0');
    switch (rng() % 4) {
      case 0: text += p; break;
      case 1: text += p + lo_text; break;
      default: text += p + "[" + lo_text + "-" + std::to_string(lo + rng() % 20) + "]"; break;
    }
  }
  HostlistResult r = parse_hostlist(text);
  REQUIRE(r.ok());
  std::vector<std::string> queries = r.list->expand();
  for (std::size_t i = 0, n = queries.size(); i < n; ++i) {
    const std::string h = queries[i];
    queries.push_back("0" + h);
    queries.push_back(h + "0");
    queries.push_back(h.substr(0, h.size() - 1));
    const auto digits = h.find_first_of("0123456789");
    if (digits != std::string::npos) queries.push_back(h.substr(0, digits) + "0" + h.substr(digits));
  }
  std::size_t found = 0;
  for (const std::string& q : queries) {
    CAPTURE(q);
    const HostRange* a = r.list->find(q);
    const HostRange* b = r.list->find_unindexed(q);
    REQUIRE(a == b);
    found += a != nullptr;
  }
  CHECK(found > r.list->size());
}

TEST_CASE("hostlist: the index answers like the linear walk for 23.11 suffixes, on every thread", "[hostlist]") {
  std::mt19937 rng(2311);
  std::string text;
  const char* prefixes[] = {"n", "gpu", "n0", "x-"};
  const char* suffixes[] = {"-ib", "b", "-ib0", ""};
  for (int i = 0; i < 300; ++i) {
    if (!text.empty()) text += ',';
    const unsigned lo = rng() % 50;
    text += std::string(prefixes[rng() % 4]) + "[" + std::to_string(lo) + "-" + std::to_string(lo + rng() % 5) + "]" +
            suffixes[rng() % 4];
  }
  const HostlistResult r = parse_hostlist(text, v2311);
  REQUIRE(r.ok());
  REQUIRE(r.list->ranges().size() > 32);  // long enough to be indexed
  std::vector<std::string> queries = r.list->expand();
  for (std::size_t i = 0, n = queries.size(); i < n; ++i) {
    queries.push_back(queries[i] + "0");
    queries.push_back(queries[i].substr(1));
  }
  std::vector<const HostRange*> linear;
  for (const std::string& q : queries) linear.push_back(r.list->find_unindexed(q));
  // Copies share one index, made by whichever thread asks first.
  const std::vector<Hostlist> copies(4, *r.list);
  std::vector<std::size_t> differences(copies.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < copies.size(); ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const HostRange* got = copies[t].find(queries[i]);
        const std::ptrdiff_t at = got ? got - copies[t].ranges().data() : -1;
        const std::ptrdiff_t want = linear[i] ? linear[i] - r.list->ranges().data() : -1;
        differences[t] += at != want;
      }
    });
  for (std::thread& th : threads) th.join();
  for (std::size_t d : differences) CHECK(d == 0);
  CHECK(std::count(linear.begin(), linear.end(), nullptr) < std::ptrdiff_t(linear.size()));
}

TEST_CASE("hostlist: folding matches scontrol show hostlist / hostlistsorted", "[hostlist]") {
  struct Case {
    const char* expr;
    const char* as_written;    ///< scontrol show hostlist
    const char* slurm_sorted;  ///< scontrol show hostlistsorted
    const char* unique;        ///< hostlist_uniq
  };
  const std::vector<Case> cases = {
      {"gpu[01-04],gpu07", "gpu[01-04,07]", "gpu[01-04,07]", "gpu[01-04,07]"},
      {"a1,a2,b3", "a[1-2],b3", "a[1-2],b3", "a[1-2],b3"},
      {"n1,n1", "n[1,1]", "n[1,1]", "n1"},
      {"n[1-3],n2", "n[1-3,2]", "n[1-2,2-3]", "n[1-3]"},
      {"n3,n1,n2,n1", "n[3,1-2,1]", "n[1,1-3]", "n[1-3]"},
      {"n[1-5],n[3-8]", "n[1-5,3-8]", "n[1-3,3-4,4-5,5-8]", "n[1-8]"},
      {"n[1-3],n[1-3]", "n[1-3,1-3]", "n[1,1-2,2-3,3]", "n[1-3]"},
      {"b1,a2,a1,b", "b1,a[2,1],b", "a[1-2],b,b1", "a[1-2],b,b1"},
      {"n[8-10],n[08-10]", "n[8-10,08-10]", "n[8-10,08-10]", "n[8-10,08-10]"},
      {"n[1, 2]", "n[1,02]", "n[1,02]", "n[1,02]"},
      {"n10,n9,n010", "n[10,9,010]", "n[9-10,010]", "n[9-10,010]"},
      {"x,x,y", "x,x,y", "x,x,y", "x,y"},
      {"a1b2,a1b3", "a1b[2-3]", "a1b[2-3]", "a1b[2-3]"},
      {"rack[1-2]-n[01-04]", "rack1-n[01-04],rack2-n[01-04]", "rack1-n[01-04],rack2-n[01-04]",
       "rack1-n[01-04],rack2-n[01-04]"},
      // Slurm frees a range mid-loop here; the output is what 22.05.8 prints.
      {"node[76-104,86-118,089-107]",
       "node[76-104,86-118,089-107]",
       "node[76-86,86-87,87-88,88-89,89-90,90-91,91-92,92-93,93-94,94-95,95-96,96-97,97-98,98-99,99-100,100-101,"
       "101-102,102-103,103-104,104-107]",
       "node[76-118,089-107]"},
      // ...and the emptied range it leaves behind meets the next overlap.
      {"node[76-104,86-118,089-107,100-200]", "node[76-104,86-118,089-107,100-200]",
       "node[76-86,86-87,87-88,88-89,89-90,90-91,91-92,92-93,93-94,94-95,95-96,96-97,97-98,98-99,99-100,100-101,"
       "101-102,102-103,103-104,104,100-101,101-102,102-103,103-104,104-105,105-106,106-107,107-200]",
       "node[76-118,089-200]"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.expr);
    HostlistResult r = parse_hostlist(c.expr);
    REQUIRE(r.ok());
    CHECK(fold_hostlist(*r.list) == c.as_written);
    CHECK(fold_hostlist(*r.list, FoldOrder::slurm_sorted) == c.slurm_sorted);
    CHECK(fold_hostlist(*r.list, FoldOrder::sorted_unique) == c.unique);
  }
  SECTION("23.11 suffix hosts fold one by one, as Slurm stores them") {
    HostlistResult r = parse_hostlist("n[1-2]-ib,n3", v2311);
    REQUIRE(r.ok());
    CHECK(fold_hostlist(*r.list) == "n1-ib,n2-ib,n3");
  }
  SECTION("fold_hostnames") {
    CHECK(fold_hostnames({"gpu01", "gpu02", "gpu03", "gpu04", "gpu07"}) == "gpu[01-04,07]");
    CHECK(fold_hostnames({"b3", "a2", "a1"}) == "a[1-2],b3");
    CHECK(fold_hostnames({"b3", "a2", "a1"}, false) == "b3,a[2,1]");
    CHECK(fold_hostnames({"n2", "n1", "n2", "n1"}) == "n[1-2]");
    CHECK(fold_hostnames({"n9", "n10", "n010"}) == "n[9-10,010]");
    CHECK(fold_hostnames({"login", "n1", "login"}) == "login,n1");
    CHECK(fold_hostnames({}) == "");
    // Names are pushed whole, never parsed: digits at the end always become the number.
    CHECK(fold_hostnames({"a11", "a12"}) == "a[11-12]");
  }
}

TEST_CASE("hostlist: version differences", "[hostlist]") {
  SECTION("missing ]: 22.05 invents a host, 23.02+ rejects") {
    HostlistResult old = parse_hostlist("n[1-3", v2205);
    REQUIRE(old.ok());
    CHECK(joined(old.list->expand()) == "n]");
    REQUIRE(old.warnings.size() == 1);
    CHECK(old.warnings[0].message == "`n[1-3' has no `]'; Slurm 22.05 reads it as the host `n]' (23.02 rejects it)");
    for (const VersionProfile* p : {&v2302, &v2311, &v2511}) CHECK_FALSE(parse_hostlist("n[1-3", *p).ok());
  }
  SECTION("suffix after ]: invalid before 23.11") {
    CHECK_FALSE(parse_hostlist("n[1-3]-ib", v2205).ok());
    CHECK_FALSE(parse_hostlist("n[1-3]-ib", v2302).ok());
    CHECK(expanded("n[1-3]-ib", v2311) == "n1-ib n2-ib n3-ib");
    CHECK(expanded("n[1-2]]", v2311) == "n1] n2]");
    CHECK(expanded("r[1-2]n[3]-ib", v2511) == "r1n3-ib r2n3-ib");
    CHECK(expanded("n1]", v2511) == "n1]");
  }
  SECTION("newline separates from 23.02") {
    CHECK(expanded("a\nb1", v2205) == "a\nb1");
    CHECK(expanded("a\nb1", v2302) == "a b1");
    // Brackets still hold the token together; the newline then counts toward the width.
    CHECK(expanded("n[1,\n2]", v2205) == "n1 n02");
    CHECK(expanded("n[1,\n2]", v2302) == "n1 n02");
  }
}

TEST_CASE("hostlist: logged-but-ignored errors and warnings", "[hostlist]") {
  HostlistResult r = parse_hostlist("a[3-1]b[1-2]c[1],d5");
  REQUIRE(r.ok());
  CHECK(joined(r.list->expand()) == "d5");
  REQUIRE(r.errors.size() == 1);  // Slurm logs it once per prefix; greslint once
  CHECK(r.errors[0].message == "_parse_single_range: Invalid range: `3-1'");
  CHECK(r.errors[0].span.begin == 2);

  HostlistResult w = parse_hostlist("n[1, 2]");
  REQUIRE(w.ok());
  REQUIRE(w.warnings.size() == 1);
  CHECK(w.warnings[0].message == "` 2' is not plain digits; Slurm reads it as 2 padded to width 2");
  CHECK(w.warnings[0].span.begin == 4);

  HostlistResult t = parse_hostlist("a[0-40000,40001-65535,0-3]b[0-1]c[5]");
  REQUIRE(t.ok());
  CHECK(t.list->size() == 131072);  // the fourth item of the leftmost group is silently dropped
  REQUIRE(t.warnings.size() == 1);
  CHECK(t.warnings[0].message == "Slurm silently stops `[0-40000,40001-65535,0-3]' after 65536 prefixes");
}

TEST_CASE("hostlist: limits", "[hostlist][limits]") {
  SECTION("65536 hosts per range") {
    HostlistResult r = parse_hostlist("n[0-65535]");
    REQUIRE(r.ok());
    CHECK(r.list->size() == 65536);
    CHECK(r.list->ranges().size() == 1);
    std::vector<std::string> hosts;
    hosts = r.list->expand();
    CHECK(hosts.size() == 65536);
    CHECK(hosts.back() == "n65535");
    CHECK_FALSE(parse_hostlist("n[0-65536]").ok());
    CHECK_FALSE(parse_hostlist("n[1-65537]").ok());
    CHECK(parse_hostlist("n[1-65536]").ok());
  }
  SECTION("65536 expanded prefixes per group") {
    CHECK(parse_hostlist("a[0-65535]b[1]").ok());
    CHECK(parse_hostlist("a[0-65535]b[1]").list->size() == 65536);
    CHECK_FALSE(parse_hostlist("a[0-65535,7]b[1]").ok());
  }
  SECTION("256K ranges in one bracket; more is Slurm's fatal") {
    std::string ok = "n[";
    for (std::uint64_t i = 0; i < kMaxRangesPerBracket; ++i) ok += (i ? ",": "") + std::to_string(i % 1000 * 2);
    ok += "]";
    HostlistResult r;
    r = parse_hostlist(ok);
    REQUIRE(r.ok());
    CHECK(r.list->size() == kMaxRangesPerBracket);

    std::string over = "n[";
    for (int i = 0; i < 300000; ++i) over += (i ? "," : "") + std::to_string(i % 7);
    over += "]";
    HostlistResult e;
    e = parse_hostlist(over);
    CHECK_FALSE(e.ok());
    REQUIRE(e.errors.size() == 1);
    CHECK(e.errors[0].message == "_parse_range_list: Too many ranges, can't process entire list");
    CHECK(e.errors[0].slurm_logs);
  }
  SECTION("huge bounds are rejected without expanding") {
    CHECK_FALSE(parse_hostlist("n[0-99999999999]").ok());
    CHECK_FALSE(parse_hostlist("n[0-65535]m[0-65535]k[0-65535]").ok());
    CHECK_FALSE(parse_hostlist("a[0-65535]b[0-65535]c[0-65535]d[0-65535]").ok());
    HostlistResult r = parse_hostlist("n[0-65535]m[0-65535]k[0-65535]");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message ==
          "hostlist needs 4294967296 ranges; Slurm would build every one of them, greslint stops at 1048576");
    CHECK_FALSE(r.errors[0].slurm_logs);
    CHECK(text_at("n[0-65535]m[0-65535]k[0-65535]", r.errors[0].span) == "n[0-65535]m[0-65535]k[0-65535]");
  }
  SECTION("more hosts than Slurm's int counter") {
    std::string big = "n[";
    for (int i = 0; i < 32768; ++i) big += (i ? "," : "") + std::string("0-65535");
    big += "]";
    HostlistResult r = parse_hostlist(big);
    CHECK_FALSE(r.ok());
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message ==
          "hostlist holds 2147483648 hosts; Slurm counts hosts in an int, which breaks above 2147483647");
  }
}

TEST_CASE("hostlist: 100,000 separate ranges: membership and folding", "[hostlist][scale]") {
  // Speed is measured by bench/ (BM_Hostlist*), not here. Every other node, so nothing merges and the list holds 100,000 separate ranges.
  std::string text;
  std::vector<std::string> names;
  for (int i = 0; i < 200000; i += 2) {
    names.push_back("node" + std::to_string(100000 + i));
    text += (text.empty() ? "" : ",") + names.back();
  }
  HostlistResult r;
  r = parse_hostlist(text);
  REQUIRE(r.ok());
  CHECK(r.list->ranges().size() == 100000);
  std::size_t hits = 0;
  for (const std::string& n : names) hits += r.list->contains(n);
  for (int i = 1; i < 200000; i += 2) hits += r.list->contains("node" + std::to_string(100000 + i));
  CHECK(hits == 100000);
  CHECK(fold_hostnames(names).size() > 100000);
}

TEST_CASE("hostlist command", "[hostlist][cli]") {
  auto run = [](char mode, std::vector<std::string> exprs, const VersionProfile& p = v2205) {
    std::ostringstream out, err;
    const int rc = run_hostlist_command(mode, p, exprs, out, err);
    return std::make_tuple(rc, out.str(), err.str());
  };
  SECTION("expand, fold, count") {
    CHECK(run('e', {"gpu[01-02],a[0-1]b[0-1]"}) ==
          std::make_tuple(0, std::string("gpu01\ngpu02\na0b0\na0b1\na1b0\na1b1\n"), std::string()));
    CHECK(std::get<1>(run('f', {"gpu[01-04]", "gpu07"})) == "gpu[01-04,07]\n");
    CHECK(std::get<1>(run('f', {"n1,n3", "n2"})) == "n[1,3,2]\n");
    CHECK(std::get<1>(run('c', {"n[1-3],n1", "m[0-65535]"})) == "65540\n");
    CHECK(std::get<1>(run('e', {""})) == "");
  }
  SECTION("invalid input names the bad part and returns 2") {
    auto [rc, out, err] = run('e', {"n[1-2]", "gpu[4-1]"});
    CHECK(rc == 2);
    CHECK(out.empty());
    CHECK(err ==
          "greslint: error: invalid hostlist for Slurm 22.05: gpu[4-1]\n"
          "  gpu[4-1]\n"
          "      ^~~ _parse_single_range: Invalid range: `4-1'\n");
    auto [rc2, out2, err2] = run('f', {"n[1-2]-ib"}, v2302);
    CHECK(rc2 == 2);
    CHECK(err2 ==
          "greslint: error: invalid hostlist for Slurm 23.02: n[1-2]-ib\n"
          "  n[1-2]-ib\n"
          "        ^~~ text after `]' needs Slurm 23.11 or later: `-ib' (Slurm logs nothing)\n");
    CHECK(std::get<1>(run('f', {"n[1-2]-ib"}, v2311)) == "n1-ib,n2-ib\n");
  }
  SECTION("accepted oddities are explained on stderr only") {
    auto [rc, out, err] = run('e', {"n[1-3"});
    CHECK(rc == 0);
    CHECK(out == "n]\n");
    CHECK(err.find("Slurm 22.05 reads it as the host `n]'") != std::string::npos);
  }
  SECTION("bad mode") { CHECK(std::get<0>(run('x', {"n1"})) == 2); }
}

// parse_hostlist answers a lone plain name without the tokenizer (a per-node file has one on
// every line). The same name followed by a separator goes through the full parser: both must
// make the same hostrange, for every release.
TEST_CASE("hostlist: a lone plain name parses as the full parser parses it", "[hostlist]") {
  const std::vector<std::string> names = {
      "r0001n001", "gpu7", "node", "n00", "0", "007", "a1b2", "x-01", "node.example.org", "gpu99999999999999999999",
      "n18446744073709551615", "n-", "UPPER12", "a_b_9", "n]", "weird#1", "n01.ib", "1234567890123456789012"};
  for (const VersionProfile* p : {&v2205, &v2302, &v2311, &v2511}) {
    for (const std::string& name : names) {
      CAPTURE(name, p->version().str());
      const HostlistResult fast = parse_hostlist(name, Span{}, *p);
      const HostlistResult full = parse_hostlist(name + ",", Span{}, *p);
      REQUIRE(fast.ok() == full.ok());
      CHECK(fast.errors.size() == full.errors.size());
      CHECK(fast.warnings.size() == full.warnings.size());
      if (!fast.ok()) continue;
      REQUIRE(fast.list->ranges().size() == 1);
      REQUIRE(full.list->ranges().size() == 1);
      const HostRange& a = fast.list->ranges().front();
      const HostRange& b = full.list->ranges().front();
      CHECK(a.prefix == b.prefix);
      CHECK(a.suffix == b.suffix);
      CHECK(a.lo == b.lo);
      CHECK(a.hi == b.hi);
      CHECK(a.width == b.width);
      CHECK(a.numeric == b.numeric);
      CHECK(fast.list->expand() == full.list->expand());
      CHECK(fast.list->contains(name));
    }
  }
  // is_single_host promises a valid list of exactly that one host, spelled as written.
  for (const VersionProfile* p : {&v2205, &v2302, &v2311, &v2511})
    for (const std::string& name : names) {
      if (!is_single_host(name)) continue;
      CAPTURE(name, p->version().str());
      const HostlistResult r = parse_hostlist(name, Span{}, *p);
      REQUIRE(r.ok());
      CHECK(r.list->expand() == std::vector<std::string>{name});
    }
  CHECK(is_single_host("r0001n001"));
  CHECK(is_single_host("n9999999999999999999"));    // 19 digits: read and printed back as is
  CHECK_FALSE(is_single_host("n99999999999999999999"));  // 20: past 2^64, Slurm's number changes
  CHECK_FALSE(is_single_host("gpu99999999999999999999"));
  for (const char* list : {"", "a,b", "a b", "a\tb", "a\nb", "n[1-2]", "n]", "n[1"})
    CHECK_FALSE(is_single_host(list));
  CHECK_FALSE(is_single_host(std::string_view("a\0b", 3)));

  // Spans: the host's item and expression are the whole text, as the parser gives them.
  const std::string_view text = "r0001n001";
  const HostlistResult exact = parse_hostlist(text);
  REQUIRE(exact.ok());
  CHECK(exact.list->ranges().front().item.begin == 0);
  CHECK(exact.list->ranges().front().item.end == 9);
  CHECK(exact.list->ranges().front().expr.end == 9);
}
