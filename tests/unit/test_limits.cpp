// SPDX-License-Identifier: Apache-2.0
// The limits reader (sacctmgr dump, sacctmgr show qos|assoc -P) and Slurm's inheritance of
// association limits and QOS lists.
#include <catch2/catch.hpp>

#include <string>

#include "limits/limits.hpp"
#include "limits/pool.hpp"

using namespace greslint;
using namespace greslint::limits;

namespace {

struct LimitsDump {
  SourceManager sources;
  LimitsDb db;
  std::optional<ReadError> error;
  FileId file;
  explicit LimitsDump(std::string text, std::string path = "limits.cfg") {
    file = sources.add(std::move(path), std::move(text));
    error = read_limits(sources, file, db);
  }
  std::string at(Span s) const { return std::string(sources.text(s)); }
  LineCol where() const { return sources.line_col(file, error->span.begin); }
};

const char* kDump =
    "# sacctmgr dump lab\n"
    "Cluster - 'lab':Fairshare=1:QOS='normal,gpu':GrpTRES=gres/gpu=64\n"
    "Parent - 'root'\n"
    "User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1\n"
    "Account - 'science':Description='science':Organization='sci':MaxTRESPerJob=gres/gpu=8,cpu=64\n"
    "Parent - 'science'\n"
    "Account - 'bio':Description='bio':Organization='bio':GrpTRES=gres/gpu:a100=4:DefaultQOS='gpu'\n"
    "Parent - 'bio'\n"
    "User - 'alice':DefaultAccount='bio':Fairshare=1:MaxTRESPerJob=gres/gpu:a100=2\n"
    "User - 'bob':DefaultAccount='bio':Partition='debug':QOS='normal'\n";

}  // namespace

TEST_CASE("limits: a dump's hierarchy and limits", "[limits]") {
  LimitsDump r(kDump);
  REQUIRE_FALSE(r.error);
  CHECK(r.db.cluster == "lab");
  REQUIRE(r.db.assocs.size() == 6);
  const Assoc* root = r.db.account("root");
  REQUIRE(root);
  REQUIRE(root->qos);
  CHECK(*root->qos == std::vector<std::string>{"normal", "gpu"});
  const Assoc* bio = r.db.account("bio");
  REQUIRE(bio);
  CHECK(bio->parent == "science");
  // sacctmgr dump writes a typed TRES unquoted; its ':' does not split the option.
  const Limit* grp = bio->limit(LimitKind::grp_tres);
  REQUIRE(grp);
  REQUIRE(grp->tres.size() == 1);
  CHECK(grp->tres[0].name == "gres/gpu:a100");
  CHECK(grp->tres[0].value == 4);
  CHECK(r.at(grp->tres[0].span) == "gres/gpu:a100=4");
  REQUIRE(bio->default_qos);
  CHECK(*bio->default_qos == "gpu");
  const Assoc* alice = r.db.user_assoc("alice", "bio", "");
  REQUIRE(alice);
  CHECK(alice->default_account == "bio");
  CHECK(r.db.first_user() == "alice");
  CHECK(r.db.default_account("alice") == "bio");
  // bob's only association is for partition debug.
  CHECK(r.db.user_assoc("bob", "bio", "debug"));
  CHECK_FALSE(r.db.user_assoc("bob", "bio", "gpu"));
}

TEST_CASE("limits: a user inherits Max limits per TRES, QOS and DefaultQOS from its parents", "[limits]") {
  LimitsDump r(kDump);
  REQUIRE_FALSE(r.error);
  const Assoc* alice = r.db.user_assoc("alice", "bio", "");
  REQUIRE(alice);
  const EffectiveAssoc e = effective(r.db, *alice);
  REQUIRE(e.chain.size() == 4);  // alice, bio, science, root
  CHECK(e.chain[1]->account == "bio");
  CHECK(e.chain[3]->account == "root");
  // Her own typed limit; the untyped one comes from science.
  auto own = e.max_limit(LimitKind::max_tres_per_job, "gres/gpu:a100");
  REQUIRE(own.tres);
  CHECK(own.tres->value == 2);
  CHECK(own.from == alice);
  auto inherited = e.max_limit(LimitKind::max_tres_per_job, "GRES/GPU");  // TRES names ignore case
  REQUIRE(inherited.tres);
  CHECK(inherited.tres->value == 8);
  CHECK(inherited.from->account == "science");
  // Grp limits are not inherited: they are each ancestor's own.
  CHECK_FALSE(e.max_limit(LimitKind::grp_tres, "gres/gpu").tres);
  CHECK(e.qos == std::vector<std::string>{"normal", "gpu"});
  CHECK(e.default_qos == "gpu");
  // bob sets his own QOS list.
  const EffectiveAssoc b = effective(r.db, *r.db.user_assoc("bob", "bio", "debug"));
  CHECK(b.qos == std::vector<std::string>{"normal"});
}

TEST_CASE("limits: sacctmgr show qos -P and -p", "[limits]") {
  const std::string header =
      "Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode|Flags|UsageThres|UsageFactor|GrpTRES|"
      "GrpTRESMins|GrpTRESRunMins|GrpJobs|GrpSubmit|GrpWall|MaxTRES|MaxTRESPerNode|MaxTRESMins|MaxWall|MaxTRESPU|"
      "MaxJobsPU|MaxSubmitPU|MaxTRESPA|MaxJobsPA|MaxSubmitPA|MinTRES";
  SECTION("-P") {
    LimitsDump r(header + "\nnormal|0|00:00:00|||cluster|||1.000000|||||||||||||||||\n"
                    "gpu|10|00:00:00|||cluster|DenyOnLimit,OverPartQOS||1.000000|gres/gpu=16||||||gres/gpu=4||||"
                    "gres/gpu:a100=2||||||gres/gpu=1\n",
           "qos.psv");
    REQUIRE_FALSE(r.error);
    CHECK(r.db.qos_known);
    REQUIRE(r.db.qos.size() == 2);
    const Qos* gpu = r.db.find_qos("gpu");
    REQUIRE(gpu);
    CHECK(gpu->deny_on_limit);
    CHECK(gpu->over_part_qos);
    CHECK(gpu->limit(LimitKind::grp_tres)->tres[0].value == 16);
    CHECK(gpu->limit(LimitKind::max_tres_per_job)->tres[0].value == 4);
    CHECK(gpu->limit(LimitKind::max_tres_per_user)->tres[0].name == "gres/gpu:a100");
    CHECK(gpu->limit(LimitKind::min_tres)->tres[0].value == 1);
    CHECK_FALSE(r.db.find_qos("normal")->limit(LimitKind::grp_tres));
  }
  SECTION("-p: every line ends with '|'") {
    LimitsDump r(header + "|\nnormal|0|00:00:00|||cluster|||1.000000||||||||||||||||||\n", "qos.psv");
    REQUIRE_FALSE(r.error);
    CHECK(r.db.qos.size() == 1);
  }
  SECTION("a line with too few fields names its line") {
    LimitsDump r(header + "\nnormal|0\n", "qos.psv");
    REQUIRE(r.error);
    CHECK(r.where().line == 2);
    CHECK(r.where().column == 1);
  }
}

TEST_CASE("limits: sacctmgr show assoc -P", "[limits]") {
  LimitsDump r(
      "Cluster|Account|User|Partition|Share|Priority|GrpJobs|GrpTRES|GrpSubmit|GrpWall|GrpTRESMins|MaxJobs|MaxTRES|"
      "MaxTRESPerNode|MaxSubmit|MaxWall|MaxTRESMins|QOS|Def QOS|GrpTRESRunMins\n"
      "lab|root||||1||||||||||||normal||\n"
      "lab|phys|||1||||||||gres/gpu=8|||||normal,long|long|\n"
      "lab|phys|carol||1|||||||||gres/gpu=2||||normal,long||\n",
      "assoc.psv");
  REQUIRE_FALSE(r.error);
  REQUIRE(r.db.assocs.size() == 3);
  const Assoc* carol = r.db.user_assoc("carol", "phys", "");
  REQUIRE(carol);
  CHECK(carol->parent == "phys");
  CHECK(r.db.account("phys")->parent == "root");
  const EffectiveAssoc e = effective(r.db, *carol);
  CHECK(e.chain.size() == 3);
  CHECK(e.max_limit(LimitKind::max_tres_per_job, "gres/gpu").tres->value == 8);
  CHECK(e.max_limit(LimitKind::max_tres_per_node, "gres/gpu").tres->value == 2);
  CHECK(e.default_qos == "long");
}

TEST_CASE("limits: bad input names its place, and nothing crashes", "[limits]") {
  SECTION("an unknown line") {
    LimitsDump r("Cluster - 'c'\nQOS - 'x'\n");
    REQUIRE(r.error);
    CHECK(r.where().line == 2);
  }
  SECTION("an unreadable count") {
    LimitsDump r("Cluster - 'c':GrpTRES=gres/gpu=eight\n");
    REQUIRE(r.error);
    CHECK(r.where().column == 23);
    CHECK(r.error->message.find("not a count") != std::string::npos);
  }
  SECTION("an unterminated quote") {
    LimitsDump r("Cluster - 'c':Description='open\n");
    REQUIRE(r.error);
  }
  SECTION("a count too large") {
    LimitsDump r("Cluster - 'c':GrpTRES=gres/gpu=99999999999999999999999\n");
    REQUIRE(r.error);
  }
  SECTION("a parent cycle ends the walk") {
    LimitsDump r("Cluster - 'c'\nParent - 'b'\nAccount - 'a'\nParent - 'a'\nAccount - 'b'\nUser - 'u'\n");
    REQUIRE_FALSE(r.error);
    const EffectiveAssoc e = effective(r.db, *r.db.user_assoc("u", "a", ""));
    CHECK(e.chain.size() == 3);  // u, a, b: b's parent a is already on the chain
  }
  SECTION("empty and comment-only files") {
    LimitsDump r("# nothing\n\n");
    CHECK_FALSE(r.error);
    CHECK(r.db.assocs.empty());
  }
}

TEST_CASE("limits: Slurm times in minutes", "[limits]") {
  CHECK(time_minutes("90") == 90u);
  CHECK(time_minutes("1:30:00") == 90u);
  CHECK(time_minutes("2-00:00:00") == 2880u);
  CHECK(time_minutes("1-12") == 2160u);
  CHECK(time_minutes("10:30") == 11u);  // minutes:seconds, the seconds round up
  CHECK_FALSE(time_minutes("UNLIMITED"));
  CHECK_FALSE(time_minutes("soon"));
}
