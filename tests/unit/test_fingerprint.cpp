// SPDX-License-Identifier: Apache-2.0
// Fingerprints: what they keep across edits and checkouts, and what tells findings apart.
#include <catch2/catch.hpp>

#include "greslint/fingerprint.hpp"
#include "greslint/registry.hpp"

using namespace greslint;

namespace {

const RuleInfo& rule(const char* id) { return *find_rule(id); }

/// One finding anchored on the first occurrence of `anchor` in `text`, in `path`.
std::string fingerprint_of(const std::string& path, const std::string& text, const std::string& anchor,
                           const std::string& nodes = "gpu[01-04]", const char* id = "GRS301",
                           const std::string& config_dir = "/etc/slurm") {
  SourceManager sources;
  const FileId f = sources.add(path, text);
  Diagnostic d;
  d.rule = &rule(id);
  const auto at = std::uint32_t(text.find(anchor));
  d.span = Span{f, at, at + std::uint32_t(anchor.size())};
  d.nodes = nodes;
  d.message = "gpu[01-04] report 2 gpu but slurm.conf configures 4";
  return fingerprint_findings({d}, sources, config_dir).front();
}

const std::string kGres = "NodeName=gpu[01-04] Name=gpu Type=a100 File=/dev/nvidia[0-1]\n";

}  // namespace

TEST_CASE("a fingerprint survives moved lines, re-indenting and another checkout", "[fingerprint]") {
  const std::string base = fingerprint_of("/etc/slurm/gres.conf", kGres, "File=/dev/nvidia[0-1]");
  CHECK(base.size() == 16);
  CHECK(base.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(fingerprint_of("/etc/slurm/gres.conf", "# new\n\n" + kGres, "File=/dev/nvidia[0-1]") == base);
  CHECK(fingerprint_of("/etc/slurm/gres.conf", "  NodeName=gpu[01-04]   Name=gpu Type=a100 File=/dev/nvidia[0-1]\n",
                       "File=/dev/nvidia[0-1]") == base);
  // The same file read from a temporary tree (diff --git) names itself relative to slurm.conf.
  CHECK(fingerprint_of("/tmp/greslint-diff-x/tree/etc/slurm/gres.conf", kGres, "File=/dev/nvidia[0-1]", "gpu[01-04]",
                       "GRS301", "/tmp/greslint-diff-x/tree/etc/slurm") == base);
  // A continuation line belongs to the record it continues.
  const std::string joined = "NodeName=gpu[01-04] Name=gpu \\\n  Type=a100 File=/dev/nvidia[0-1]\n";
  CHECK(fingerprint_of("/etc/slurm/gres.conf", joined, "File=/dev/nvidia[0-1]") ==
        fingerprint_of("/etc/slurm/gres.conf", joined, "File=/dev/nvidia[0-1]"));
  CHECK(fingerprint_of("/etc/slurm/gres.conf", joined, "File=/dev/nvidia[0-1]") ==
        fingerprint_of("/etc/slurm/gres.conf", "NodeName=gpu[01-04] Name=gpu Type=a100\nNodeName=gpu[01-04] File=/dev/nvidia[0-1]\n",
                       "File=/dev/nvidia[0-1]"));
}

TEST_CASE("a fingerprint changes with the rule, file, record, anchored text and nodes", "[fingerprint]") {
  const std::string base = fingerprint_of("/etc/slurm/gres.conf", kGres, "File=/dev/nvidia[0-1]");
  CHECK(fingerprint_of("/etc/slurm/gres.conf", kGres, "File=/dev/nvidia[0-1]", "gpu[01-04]", "GRS212") != base);
  CHECK(fingerprint_of("/etc/slurm/gres-a100.conf", kGres, "File=/dev/nvidia[0-1]") != base);
  CHECK(fingerprint_of("/etc/slurm/gres.conf", "NodeName=gpu[05-08]" + kGres.substr(19), "File=/dev/nvidia[0-1]") != base);
  CHECK(fingerprint_of("/etc/slurm/gres.conf", kGres, "Type=a100") != base);
  CHECK(fingerprint_of("/etc/slurm/gres.conf", kGres, "File=/dev/nvidia[0-1]", "gpu[01-03]") != base);
}

TEST_CASE("identical findings get distinct fingerprints in order", "[fingerprint]") {
  SourceManager sources;
  const FileId f = sources.add("/etc/slurm/gres.conf", kGres);
  Diagnostic d;
  d.rule = &rule("GRS301");
  d.span = Span{f, 0, 19};
  Diagnostic filewide;
  filewide.rule = &rule("GRS406");
  const auto fps = fingerprint_findings({d, d, filewide}, sources, "/etc/slurm");
  REQUIRE(fps.size() == 3);
  CHECK(fps[0] != fps[1]);
  CHECK(fps[2] != fps[0]);
  CHECK(fingerprint_findings({d}, sources, "/etc/slurm")[0] == fps[0]);
}
