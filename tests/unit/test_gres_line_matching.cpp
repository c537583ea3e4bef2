// SPDX-License-Identifier: Apache-2.0
// Which gres.conf lines each node reads: matched in two runs of lines on two cores, the model
// is the one a run in one piece makes.
#include <catch2/catch.hpp>

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

std::vector<std::uint32_t> lines_of(const Cluster& c, std::uint32_t node) {
  std::vector<std::uint32_t> lines;
  for (const GresLine* g : c.config->gres_lines_of(node)) lines.push_back(g->d->line);
  return lines;
}

/// For each node, the first node whose list of lines has the same id: which nodes share one.
std::vector<std::uint32_t> shared_lists(const Cluster& c) {
  std::vector<std::uint32_t> first;
  for (std::uint32_t n = 0; n < c.node_names.size(); ++n) {
    std::uint32_t m = 0;
    while (c.config->node_gres_lines.list_id(m) != c.config->node_gres_lines.list_id(n)) ++m;
    first.push_back(m);
  }
  return first;
}

}  // namespace

TEST_CASE("gres line matching: two runs of lines make the model one run makes", "[model][matching]") {
  // 2,400 nodes, eight lines each in runs (19,200 lines, past the size matched in two runs),
  // and lines that name nodes in both halves: every node at the start and the end, a list
  // across the middle late in the file, a node named twice on one line, unknown names.
  const fs::path dir = fs::temp_directory_path() / "greslint-line-matching";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "slurm.conf") << "ClusterName=t\nSlurmctldHost=h\nSelectType=select/cons_tres\nGresTypes=gpu\n"
                                       "NodeName=n[0001-2400] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:8\n"
                                       "PartitionName=all Nodes=ALL Default=YES\n";
  std::ofstream(dir / "cgroup.conf") << "ConstrainDevices=yes\n";
  std::string gres;
  std::uint32_t line = 0;
  auto add = [&](const std::string& text) {
    gres += text;
    gres += '\n';
    return ++line;
  };
  std::vector<std::uint32_t> n0005{add("NodeName=n[0001-2400] Name=gpu Type=a100 File=/dev/nvidia8")};
  std::uint32_t list_line = 0;
  for (int node = 1; node <= 2400; ++node) {
    for (int gpu = 0; gpu < 8; ++gpu) {
      const char* cores = node % 7 == 0 && gpu == 3 ? " Cores=0-15" : "";
      const std::uint32_t at =
          add(fmt::format("NodeName=n{:04} Name=gpu Type=a100 File=/dev/nvidia{}{}", node, gpu, cores));
      if (node == 5) n0005.push_back(at);
    }
    if (node % 500 == 0) add(fmt::format("NodeName=x{} Name=gpu Type=a100 File=/dev/nvidia0", node));
    if (node == 2000) list_line = add("NodeName=n[1150-1250],n0005,n0005 Name=gpu Type=a100 File=/dev/nvidia10");
  }
  const std::uint32_t last_line = add("NodeName=n[0001-2400] Name=gpu Type=a100 File=/dev/nvidia9");
  n0005.push_back(list_line);
  n0005.push_back(last_line);
  std::ofstream(dir / "gres.conf") << gres;

  const auto [one, two] = test::analyze_on_one_and_two(dir);
  REQUIRE(one->cluster.config);
  REQUIRE(two->cluster.config);
  const Cluster& a = one->cluster;
  const Cluster& b = two->cluster;
  REQUIRE(a.node_names.size() == 2400);

  // What a node reads, against the file: n0005 its own eight lines between the two that name
  // every node, and the list late in the file that names it twice; n1200 the list too.
  CHECK(lines_of(a, 4) == n0005);
  CHECK(lines_of(a, 1199).size() == 11);

  bool same_lines = true;
  for (std::uint32_t n = 0; n < a.node_names.size() && same_lines; ++n) same_lines = lines_of(a, n) == lines_of(b, n);
  CHECK(same_lines);
  CHECK(shared_lists(a) == shared_lists(b));
  CHECK(a.classes.size() > 2);  // the Cores= lines and the list make classes of their own
  CHECK(test::same_classes(a, b));
  CHECK(findings(one->out) == findings(two->out));
}
