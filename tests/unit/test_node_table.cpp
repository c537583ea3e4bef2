// SPDX-License-Identifier: Apache-2.0
// slurm.conf's node table: its NodeName lines checked in chunks on two cores make the table,
// the findings and the verdict that checking them one by one makes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "analyze_compare.hpp"
#include "greslint/model.hpp"

using namespace greslint;
using greslint::test::findings;

namespace {

namespace fs = std::filesystem;

std::string configured_gres(const Cluster& c, std::uint32_t node) {
  return std::string(c.config->node_lines[c.node_line_of[node]].gres);
}

}  // namespace

TEST_CASE("node table: NodeName lines checked in chunks on two cores make what one by one makes",
          "[model][nodes]") {
  // 14,000 lines, one node each (past three chunks of lines), with what ties a line to the
  // lines before it across the chunks: a NodeName=DEFAULT halfway that changes the Gres= of
  // every later line, names given twice early and late, and lines whose own checks find
  // something, one of them fatal after the first duplicate's.
  const fs::path dir = fs::temp_directory_path() / "greslint-node-table";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string nodes;
  std::uint32_t line = 0;
  auto add = [&](const std::string& text) {
    nodes += text;
    nodes += '\n';
    return ++line;
  };
  add("NodeName=DEFAULT Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4");
  for (int n = 1; n <= 14000; ++n) {
    if (n == 7000) add("NodeName=DEFAULT Sockets=2 CoresPerSocket=16 Gres=gpu:a100:8 TRESWeights=CPU=1.0");
    add(fmt::format("NodeName=n{:05} NodeAddr=10.0.{}.{}", n, n / 250, n % 250));
    if (n == 2000) add("NodeName=n00010 NodeAddr=10.9.0.10");  // a name given twice, first fatal
    if (n == 9000) add("NodeName=n00020");                      // again, in a later chunk
    if (n == 11000) add("NodeName=m[1-4] NodeAddr=a[1-2]");     // fatal too, but later
    if (n == 12000) add("NodeName=r[001-100] NodeAddr=10.8.0.[1-100]");
  }
  std::ofstream(dir / "slurm.conf") << "ClusterName=t\nSlurmctldHost=h\nSelectType=select/cons_tres\nGresTypes=gpu\n"
                                    << nodes << "PartitionName=all Nodes=ALL Default=YES\n";
  std::ofstream(dir / "cgroup.conf") << "ConstrainDevices=yes\n";
  std::ofstream(dir / "gres.conf") << "Name=gpu Type=a100 File=/dev/nvidia[0-7]\n";

  const auto [one, two] = test::analyze_on_one_and_two(dir);
  REQUIRE(one->cluster.config);
  REQUIRE(two->cluster.config);
  const Cluster& a = one->cluster;
  const Cluster& b = two->cluster;

  // The table itself: every name once, in order; the duplicates add none.
  REQUIRE(a.node_names.size() == 14000 + 4 + 100);
  CHECK(a.node_names[0] == "n00001");
  CHECK(a.node_names[13999 + 4 + 100] == "n14000");
  // The first duplicate stops slurmctld; the later fatal line does not replace its reason.
  CHECK(a.startup_fatal.find("n00010") != std::string::npos);
  // The DEFAULT line halfway gives the lines after it its Gres=.
  CHECK(configured_gres(a, 6998) == "gpu:a100:4");
  CHECK(configured_gres(a, 13999 + 4 + 100) == "gpu:a100:8");

  CHECK(a.node_names == b.node_names);
  CHECK(a.node_line_of == b.node_line_of);
  CHECK(a.startup_fatal == b.startup_fatal);
  CHECK(test::same_classes(a, b));
  bool same_gres = true;
  for (std::uint32_t n = 0; n < a.node_names.size() && same_gres; ++n)
    same_gres = configured_gres(a, n) == configured_gres(b, n);
  CHECK(same_gres);
  const std::vector<std::string> found = findings(one->out);
  CHECK(found == findings(two->out));
  // GRS102 for both repeated names, merged (they say the same), and GRS106 for the two
  // addresses of four nodes.
  auto with = [&](std::string_view rule, std::string_view text) {
    return std::count_if(found.begin(), found.end(), [&](const std::string& f) {
      return f.rfind(rule, 0) == 0 && f.find(text) != std::string::npos;
    });
  };
  CHECK(with("GRS102", "node n[00010,00020] is defined twice") == 1);
  CHECK(with("GRS106", "NodeAddr=a[1-2] names 2 addresses for 4 nodes") == 1);
}
