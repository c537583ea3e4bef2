// SPDX-License-Identifier: Apache-2.0
// The cluster model: topology derivation, merge, verdicts and their gating by Slurm release.
#include <catch2/catch.hpp>

#include "greslint/model.hpp"

using namespace greslint;

namespace {

struct Result {
  SourceManager sources;
  Reporter out;
  Cluster cluster;
  const NodeClass& node(const std::string& name) const {
    for (std::size_t i = 0; i < cluster.node_names.size(); ++i)
      if (cluster.node_names[i] == name) return cluster.classes[cluster.class_of[i]];
    FAIL("no node " << name);
    throw;
  }
  bool has(std::string_view rule) const {
    for (const Diagnostic& d : out.diagnostics())
      if (d.rule->id == rule) return true;
    return false;
  }
};

const char* kHead =
    "ClusterName=t\nSlurmctldHost=h\nSelectType=select/cons_tres\nGresTypes=gpu\n"
    "TaskPlugin=task/affinity,task/cgroup\nProctrackType=proctrack/cgroup\nPartitionName=all Nodes=ALL Default=YES\n";

std::unique_ptr<Result> run(const std::string& slurm, const std::string& gres, SlurmVersion v = kSlurm2205) {
  ConfigTexts texts;
  texts.slurm_conf = slurm;
  if (!gres.empty()) texts.gres_conf = gres;
  texts.cgroup_conf = "ConstrainDevices=yes\n";
  auto r = std::make_unique<Result>();
  r->cluster = analyze_text(texts, VersionProfile(v), r->sources, r->out);
  return r;
}

}  // namespace

TEST_CASE("model: fewer devices than configured drains with Slurm's reason", "[model]") {
  auto r = run(std::string(kHead) + "NodeName=gpu[01-16] Sockets=2 CoresPerSocket=32 Gres=gpu:a100:8\n",
               "NodeName=gpu[01-16] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n");
  const NodeClass& c = r->node("gpu07");
  CHECK(c.verdict == Verdict::drain);
  CHECK(c.reason == "gres/gpu count reported lower than configured (4 < 8)");
  CHECK(r->cluster.classes.size() == 1);  // 16 identical nodes, one evaluation
  REQUIRE(r->out.diagnostics().size() == 1);
  CHECK(r->out.diagnostics()[0].nodes == "gpu[01-16]");
  REQUIRE(c.gres.size() == 1);
  CHECK(c.gres[0].count == 4);
  CHECK(*c.gres[0].files == "/dev/nvidia[0-3]");
}

TEST_CASE("model: topology derivation decides which Cores= exist", "[model]") {
  // CPUs=12 does not divide by 4x2: one socket, CPUs reset to 8, so cores 0-3 only.
  auto r = run(std::string(kHead) + "NodeName=n1 CPUs=12 CoresPerSocket=4 ThreadsPerCore=2 Gres=gpu:1\n",
               "NodeName=n1 Name=gpu File=/dev/nvidia0 Cores=4-7\n");
  CHECK(r->has("GRS101"));  // the CPUs reset
  CHECK(r->has("GRS208"));  // Cores=4-7 beyond core 3
  auto ok = run(std::string(kHead) + "NodeName=n1 CPUs=16 CoresPerSocket=4 ThreadsPerCore=2 Gres=gpu:1\n",
                "NodeName=n1 Name=gpu File=/dev/nvidia0 Cores=4-7\n");
  CHECK_FALSE(ok->has("GRS208"));
  CHECK(ok->node("n1").verdict == Verdict::ok);
}

TEST_CASE("model: invalid Cores= is an error in 22.05 and invalidates the node from 24.11", "[model]") {
  std::string slurm = std::string(kHead) + "NodeName=gpu01 Sockets=2 CoresPerSocket=32 Gres=gpu:a100:4\n";
  std::string gres = "NodeName=gpu01 Name=gpu Type=a100 File=/dev/nvidia[0-1] Cores=0-31\n"
                     "NodeName=gpu01 Name=gpu Type=a100 File=/dev/nvidia[2-3] Cores=64-95\n";
  CHECK(run(slurm, gres, kSlurm2205)->node("gpu01").verdict == Verdict::degraded);
  CHECK(run(slurm, gres, kSlurm2311)->node("gpu01").verdict == Verdict::degraded);
  auto r = run(slurm, gres, kSlurm2411);
  CHECK(r->node("gpu01").verdict == Verdict::drain);
  CHECK(r->node("gpu01").reason == "gres/gpu:a100 count too low (2 < 4)");
}

TEST_CASE("model: socket boundaries per release", "[model]") {
  // CPUs=32 alone means 32 one-core sockets: Cores=0-15 covers 16 whole sockets.
  std::string slurm = std::string(kHead) + "NodeName=n1 CPUs=32 Gres=gpu:a100:1\n";
  std::string gres = "NodeName=n1 Name=gpu Type=a100 File=/dev/nvidia0 Cores=0-15\n";
  CHECK(run(slurm, gres, kSlurm2205)->node("n1").verdict == Verdict::ok);
  CHECK(run(slurm, gres, kSlurm2411)->node("n1").verdict == Verdict::ok);
  auto r = run(slurm, gres, kSlurm2511);
  CHECK(r->node("n1").verdict == Verdict::drain);
  CHECK(r->node("n1").reason.find("doesn't match socket boundaries. (Socket 0 is cores 0-0)") != std::string::npos);
  // Half a socket is rejected from 24.11.
  std::string half = std::string(kHead) + "NodeName=n1 Sockets=2 CoresPerSocket=8 Gres=gpu:a100:1\n";
  auto h = run(half, "NodeName=n1 Name=gpu Type=a100 File=/dev/nvidia0 Cores=0-3\n", kSlurm2411);
  CHECK(h->node("n1").verdict == Verdict::drain);
  CHECK(h->has("GRS311"));
}

TEST_CASE("model: type spelling is compared case-sensitively by slurmctld from 23.11", "[model]") {
  std::string slurm = std::string(kHead) + "NodeName=gpu01 Sockets=2 CoresPerSocket=32 Gres=gpu:A100:4\n";
  std::string gres = "NodeName=gpu01 Name=gpu Type=a100 File=/dev/nvidia[0-3]\n";
  auto old = run(slurm, gres, kSlurm2205);
  CHECK(old->node("gpu01").verdict == Verdict::ok);
  REQUIRE(old->node("gpu01").gres.size() == 1);
  CHECK(*old->node("gpu01").gres[0].type == "a100");  // slurmd keeps gres.conf's spelling
  auto now = run(slurm, gres, kSlurm2311);
  CHECK(now->node("gpu01").verdict == Verdict::drain);
  CHECK(now->node("gpu01").reason == "gres/gpu type (a100) reported but not configured");
}

TEST_CASE("model: untyped slurm.conf takes typed lines and strips their types", "[model]") {
  auto r = run(std::string(kHead) + "NodeName=gpu01 Sockets=2 CoresPerSocket=32 Gres=gpu:4\n",
               "NodeName=gpu01 Name=gpu Type=a100 File=/dev/nvidia[0-1]\n"
               "NodeName=gpu01 Name=gpu Type=v100 File=/dev/nvidia[2-3]\n");
  const NodeClass& c = r->node("gpu01");
  REQUIRE(c.gres.size() == 2);
  CHECK_FALSE(c.gres[0].type.has_value());
  CHECK(c.gres[1].count == 2);
  CHECK(r->has("GRS302"));  // Slurm's (misleading) "more configured than expected" warning
}

TEST_CASE("model: shard counts spread over the GPU files", "[model]") {
  auto r = run("ClusterName=t\nSlurmctldHost=h\nSelectType=select/cons_tres\nGresTypes=gpu,shard\n"
               "NodeName=n1 Sockets=1 CoresPerSocket=8 Gres=gpu:2,shard:2K\nPartitionName=p Nodes=n1 Default=YES\n",
               "NodeName=n1 Name=gpu File=/dev/nvidia[0-1]\n");
  const NodeClass& c = r->node("n1");
  CHECK(c.verdict == Verdict::ok);
  std::uint64_t shards = 0, gpus = 0;
  for (const EffectiveGres& g : c.gres) (g.name == "shard" ? shards : gpus) += g.count;
  CHECK(shards == 2048);
  CHECK(gpus == 2);
  CHECK(c.gres.size() == 4);  // one gpu record and one shard record per device file
}

TEST_CASE("model: shared GRES without cons_tres stops slurmctld on 22.05 only", "[model]") {
  std::string slurm = "ClusterName=t\nSlurmctldHost=h\nGresTypes=gpu,shard\n"
                      "NodeName=n1 Sockets=1 CoresPerSocket=8 Gres=gpu:1,shard:4\n";
  std::string gres = "NodeName=n1 Name=gpu File=/dev/nvidia0\n";
  auto old = run(slurm, gres, kSlurm2205);
  CHECK(old->node("n1").verdict == Verdict::slurmctld_fatal);
  CHECK(old->node("n1").reason == "Use of shared gres requires the use of select/cons_tres");
  CHECK(run(slurm, gres, kSlurm2311)->node("n1").verdict == Verdict::ok);
}

TEST_CASE("model: analyze_text reads the text given, not the disk", "[model]") {
  ConfigTexts texts;
  texts.directory = "/nonexistent/greslint-in-memory";
  texts.slurm_conf = std::string(kHead) + "NodeName=n[1-2] Gres=gpu:2\n";
  texts.gres_conf = "NodeName=n[1-2] Name=gpu File=/dev/nvidia[0-1]\n";
  SourceManager sources;
  Reporter out;
  Cluster c = analyze_text(texts, VersionProfile(kSlurm2205), sources, out);
  REQUIRE(c.node_names.size() == 2);
  CHECK(c.classes[c.class_of[1]].verdict == Verdict::ok);
  REQUIRE(sources.file_count() == 2);  // no cgroup.conf given: none read
  CHECK(sources.path(FileId{0}) == "/nonexistent/greslint-in-memory/slurm.conf");
  CHECK(sources.path(FileId{1}) == "/nonexistent/greslint-in-memory/gres.conf");
}

TEST_CASE("model: a node's own NodeAddr= is checked when the text after it repeats a line without one", "[model]") {
  // n1-n3 say the same after their names and have no address: found once for that text.
  // b1-b3 say that text after an address of their own, and b3's names two hosts for one
  // node, which 24.11 refuses.
  std::string slurm = kHead;
  for (const char* n : {"n1", "n2", "n3"}) slurm += std::string("NodeName=") + n + " CPUs=8 State=UNKNOWN\n";
  for (const char* b : {"b1 NodeAddr=10.0.0.1", "b2 NodeAddr=10.0.0.2", "b3 NodeAddr=10.0.0.[3-4]"})
    slurm += std::string("NodeName=") + b + " CPUs=8 State=UNKNOWN\n";
  auto r = run(slurm, "", kSlurm2411);
  REQUIRE(r->has("GRS106"));
  for (const Diagnostic& d : r->out.diagnostics())
    if (d.rule->id == "GRS106") CHECK(r->sources.text(d.span) == "10.0.0.[3-4]");
}

TEST_CASE("model: a node's own NodeAddr= at the end of its line is checked when the text before it repeats",
          "[model]") {
  // n1-n3 have no address, and a comment after their pairs: their text after the name ends
  // in a blank, as b1-b3's does before their own addresses. b3's names two hosts for one
  // node, which 24.11 refuses.
  std::string slurm = kHead;
  for (const char* n : {"n1", "n2", "n3"}) slurm += std::string("NodeName=") + n + " CPUs=8 State=UNKNOWN # spare\n";
  for (const char* b : {"b1 CPUs=8 State=UNKNOWN NodeAddr=10.0.0.1", "b2 CPUs=8 State=UNKNOWN NodeAddr=10.0.0.2",
                        "b3 CPUs=8 State=UNKNOWN NodeAddr=10.0.0.[3-4]"})
    slurm += std::string("NodeName=") + b + "\n";
  auto r = run(slurm, "", kSlurm2411);
  REQUIRE(r->has("GRS106"));
  for (const Diagnostic& d : r->out.diagnostics())
    if (d.rule->id == "GRS106") CHECK(r->sources.text(d.span) == "10.0.0.[3-4]");
}

TEST_CASE("model: lines naming one node each, in runs, with unknown names and a list between", "[model]") {
  // match_gres_lines reuses the node of the line before when a line names the same host: a
  // run must end where the name changes, whatever comes between.
  auto r = run(std::string(kHead) + "NodeName=n[1-2] Sockets=2 CoresPerSocket=32 Gres=gpu:a100:4\n",
               "NodeName=n1 Name=gpu Type=a100 File=/dev/nvidia0\n"
               "NodeName=n1 Name=gpu Type=a100 File=/dev/nvidia1\n"
               "NodeName=n2 Name=gpu Type=a100 File=/dev/nvidia0\n"
               "NodeName=x9 Name=gpu Type=a100 File=/dev/nvidia0\n"
               "NodeName=x9 Name=gpu Type=a100 File=/dev/nvidia1\n"
               "NodeName=n2 Name=gpu Type=a100 File=/dev/nvidia1\n"
               "NodeName=n[1-2] Name=gpu Type=a100 File=/dev/nvidia2\n"
               "NodeName=n2 Name=gpu Type=a100 File=/dev/nvidia3\n");
  REQUIRE(r->cluster.config);
  auto lines_of = [&](std::uint32_t node) {
    std::vector<std::uint32_t> lines;
    for (const GresLine* g : r->cluster.config->gres_lines_of(node)) lines.push_back(g->d->line);
    return lines;
  };
  REQUIRE(r->cluster.node_names == std::vector<std::string>{"n1", "n2"});
  CHECK(lines_of(0) == std::vector<std::uint32_t>{1, 2, 7});
  CHECK(lines_of(1) == std::vector<std::uint32_t>{3, 6, 7, 8});
  CHECK(r->node("n1").reason == "gres/gpu count reported lower than configured (3 < 4)");
  CHECK(r->node("n2").verdict == Verdict::ok);
  // Both lines naming x9, as one finding.
  std::size_t unknown = 0;
  for (const Diagnostic& d : r->out.diagnostics()) unknown += d.rule->id == "GRS310" ? 1 : 0;
  CHECK(unknown == 1);
}
