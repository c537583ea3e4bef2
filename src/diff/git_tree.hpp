// SPDX-License-Identifier: Apache-2.0
// A configuration as it is at a git revision, read with git itself.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace greslint::diff {

/// The tree of a revision, written by `git archive` into a private temporary directory,
/// so that every Include resolves exactly as it does in a checkout of that revision.
/// The directory is removed with the object.
class RevisionTree {
 public:
  /// `conf` is the work tree's slurm.conf (an existing file inside a git work tree).
  /// Nullopt, with a message on `err`, when git fails or `rev` names no commit.
  static std::unique_ptr<RevisionTree> check_out(const std::string& rev, const std::string& conf, std::ostream& err);
  ~RevisionTree();
  RevisionTree(const RevisionTree&) = delete;
  RevisionTree& operator=(const RevisionTree&) = delete;

  /// slurm.conf's place in the revision's tree; exists() is false when the revision
  /// predates it.
  const std::string& slurm_conf() const noexcept { return slurm_conf_; }
  bool exists() const;
  /// slurm.conf's directory relative to the repository's top ("" at the top): how both
  /// sides name their files in the report.
  const std::string& repo_dir() const noexcept { return repo_dir_; }

 private:
  RevisionTree() = default;
  std::string temp_dir_;
  std::string slurm_conf_;
  std::string repo_dir_;
};

/// Runs `argv` (no shell) and returns its standard output, or nullopt with its standard
/// error appended to `error` when it cannot start or exits non-zero.
std::optional<std::string> run_program(const std::vector<std::string>& argv, std::string& error);

}  // namespace greslint::diff
