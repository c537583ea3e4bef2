// SPDX-License-Identifier: Apache-2.0
// Reading the controller's view for `greslint why`: the layouts of each release.
#include <catch2/catch.hpp>

#include "commands/why_state.hpp"

using namespace greslint::why;

TEST_CASE("scontrol show node --json of 23.02+: state a list, numbers wrapped") {
  const char* text = R"J({"nodes": [{"name": "gpu01", "state": ["IDLE", "DRAIN", "INVALID_REG"],
    "reason": "gres/gpu count reported lower than configured (4 < 8)", "reason_set_by_user": "slurm",
    "gres": "gpu:a100:4", "cpus": 64, "sockets": 2, "cores": 32, "threads": 1, "boards": 1,
    "slurmd_start_time": {"set": true, "infinite": false, "number": 1796126245},
    "a_field_of_a_later_release": {"x": [1]}, "version": "24.11.5"}], "meta": {}})J";
  REQUIRE(detect_state_kind(text) == StateKind::node_json);
  std::vector<ControllerNode> nodes;
  std::string error;
  REQUIRE(parse_node_json(text, nodes, error));
  REQUIRE(nodes.size() == 1);
  const ControllerNode& n = nodes[0];
  CHECK(n.state_text() == "IDLE+DRAIN+INVALID_REG");
  CHECK(n.unavailable());
  CHECK(n.reason_user == "slurm");
  CHECK(n.gres == "gpu:a100:4");
  CHECK(n.cores_per_socket == 32u);
  CHECK(n.registered);
}

TEST_CASE("node JSON of 22.05's slurmrestd: state a string, flags apart, plain numbers") {
  const char* text = R"J({"nodes": [{"name": "gpu02", "state": "idle", "state_flags": ["DRAIN"],
    "reason": "Kill task failed", "reason_changed_at": 1796126245, "slurmd_start_time": 0}]})J";
  std::vector<ControllerNode> nodes;
  std::string error;
  REQUIRE(parse_node_json(text, nodes, error));
  CHECK(nodes[0].state_text() == "IDLE+DRAIN");
  CHECK_FALSE(nodes[0].registered);
  CHECK_FALSE(nodes[0].reason_time.empty());
}

TEST_CASE("JSON that is not scontrol's is refused with a reason") {
  std::vector<ControllerNode> nodes;
  std::string error;
  CHECK_FALSE(parse_node_json("{\"jobs\": []}", nodes, error));
  CHECK_FALSE(error.empty());
  CHECK_FALSE(parse_node_json("{not json", nodes, error));
}

TEST_CASE("scontrol -o show node: OS= with spaces, Reason= to the end with its [user@time]") {
  const char* text =
      "NodeName=gpu01 Arch=x86_64 CoresPerSocket=32  CPUAlloc=0 CPUTot=64 Gres=gpu:a100:4(S:0-1) "
      "OS=Linux 6.1.0 #1 SMP PREEMPT_DYNAMIC  RealMemory=512000 Sockets=2 Boards=1 State=IDLE*+DRAIN "
      "ThreadsPerCore=1 SlurmdStartTime=None Reason=disk = full, see ticket 12 [root@2026-12-01T11:57:11]\n"
      "NodeName=gpu02 CPUTot=64 State=IDLE ThreadsPerCore=1 SlurmdStartTime=2026-12-01T11:57:11\n";
  REQUIRE(detect_state_kind(text) == StateKind::node_text);
  auto nodes = parse_node_text(text);
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0].state_text() == "IDLE+DRAIN*");
  CHECK(nodes[0].not_responding);
  CHECK(nodes[0].reason == "disk = full, see ticket 12");
  CHECK(nodes[0].reason_user == "root");
  CHECK(nodes[0].reason_time == "2026-12-01T11:57:11");
  CHECK(nodes[0].gres == "gpu:a100:4(S:0-1)");
  CHECK_FALSE(nodes[0].registered);
  CHECK(nodes[1].registered);
  CHECK_FALSE(nodes[1].unavailable());
}

TEST_CASE("sinfo -R: the default table (reasons cut at 20 columns) and why's own format") {
  ControllerView view;
  merge_sinfo_reasons("REASON               USER      TIMESTAMP           NODELIST\n"
                      "gres/gpu count repor slurm     2026-12-01T11:57:11 gpu[01-02]\n"
                      "fan                  root      2026-12-01T11:58:00 cpu07\n",
                      view);
  REQUIRE(view.nodes.size() == 3);
  CHECK(view.nodes[0].name == "gpu01");
  CHECK(view.nodes[0].reason == "gres/gpu count repor");
  CHECK(view.nodes[0].reason_truncated);
  CHECK(view.nodes[2].reason == "fan");
  CHECK_FALSE(view.nodes[2].reason_truncated);
  CHECK(view.nodes[2].unavailable());

  ControllerView mine;
  merge_sinfo_reasons("gpu01|inval|slurm|2026-12-01T11:57:11|a | in it\ngpu02|drain|root|2026-12-01T11:57:11|none\n",
                      mine);
  REQUIRE(mine.nodes.size() == 2);
  CHECK(mine.nodes[0].state_text() == "INVALID_REG");
  CHECK(mine.nodes[0].reason == "a | in it");
  CHECK(mine.nodes[1].reason.empty());
}

TEST_CASE("scontrol show config: the main block, BOOT_TIME, and a 2>&1 capture's log lines") {
  const char* text =
      "Configuration data as of 2026-12-01T11:57:11\n"
      "BOOT_TIME               = 2026-12-01T11:50:00\n"
      "GresTypes               = gpu,shard\n"
      "SLURM_VERSION           = 24.11.5\n"
      "\n"
      "Cgroup Support Configuration:\n"
      "AllowedRAMSpace         = 100.0%\n";
  ControllerConfig c = parse_show_config(text);
  REQUIRE(c.find("grestypes"));
  CHECK(*c.find("GresTypes") == "gpu,shard");
  CHECK(c.boot_time.has_value());
  CHECK_FALSE(c.find("AllowedRAMSpace"));
  CHECK(detect_state_kind(text) == StateKind::config);
}

TEST_CASE("node JSON with odd types does not throw") {
  const char* text = R"J({"nodes": [{"name": "n1", "state": ["IDLE", "NOT_RESPONDING", 7],
    "cpus": {"set": "yes", "number": 8}, "sockets": {"number": "2"}, "reason": 5, "gres": null}, 3, "x"]})J";
  std::vector<ControllerNode> nodes;
  std::string error;
  REQUIRE(parse_node_json(text, nodes, error));
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].state_text() == "IDLE*");
  CHECK(nodes[0].cpus == 8u);
  CHECK_FALSE(nodes[0].sockets);
  CHECK(nodes[0].reason.empty());
}
