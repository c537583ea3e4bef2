// SPDX-License-Identifier: Apache-2.0
// A configuration folder analysed with a given number of cores, and its findings as text:
// what the model tests compare between a run on one core and a run on two.
#pragma once

#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "greslint/model.hpp"

namespace greslint::test {

struct Analyzed {
  SourceManager sources;
  Reporter out;
  Cluster cluster;
};

/// slurm.conf, gres.conf and cgroup.conf of `dir`, as Slurm 24.11 reads them, on `cores` cores.
inline std::unique_ptr<Analyzed> analyze_on(const std::filesystem::path& dir, unsigned cores) {
  LintInputs inputs{(dir / "slurm.conf").string(), (dir / "gres.conf").string(), (dir / "cgroup.conf").string(), {}};
  inputs.cores = cores;
  auto a = std::make_unique<Analyzed>();
  a->cluster = analyze(inputs, VersionProfile(kSlurm2411), a->sources, a->out);
  return a;
}

/// `dir` analysed on one core and on two (the folder is removed once both are done).
struct OneAndTwo {
  std::unique_ptr<Analyzed> one, two;
};
inline OneAndTwo analyze_on_one_and_two(const std::filesystem::path& dir) {
  OneAndTwo both{analyze_on(dir, 1), analyze_on(dir, 2)};
  std::filesystem::remove_all(dir);
  return both;
}

/// Whether `a` and `b` put the nodes in the same classes, with the same verdicts and reasons.
inline bool same_classes(const Cluster& a, const Cluster& b) {
  if (a.class_of != b.class_of || a.classes.size() != b.classes.size()) return false;
  for (std::size_t c = 0; c < a.classes.size(); ++c)
    if (a.classes[c].verdict != b.classes[c].verdict || a.classes[c].reason != b.classes[c].reason) return false;
  return true;
}

/// Each finding as "rule file:begin-end message", in the order reported.
inline std::vector<std::string> findings(const Reporter& out) {
  std::vector<std::string> all;
  for (const Diagnostic& d : out.diagnostics())
    all.push_back(fmt::format("{} {}:{}-{} {}", d.rule->id, d.span.file.index, d.span.begin, d.span.end, d.message));
  return all;
}

}  // namespace greslint::test
