// SPDX-License-Identifier: Apache-2.0
// Stable identities of findings: what a baseline records and what `diff` matches.
#pragma once

#include <string>
#include <vector>

#include "greslint/diagnostic.hpp"
#include "greslint/source.hpp"

namespace greslint {

/// The fingerprint of every finding, in order (16 hex digits each).
///
/// A fingerprint hashes what identifies a problem, not where it happens to sit: the rule
/// id; the file's name relative to `config_dir` (the directory of slurm.conf, so the same
/// files checked out elsewhere, e.g. from git into a temporary tree, fingerprint alike);
/// the record the finding is anchored in (its first Key=Value, `NodeName=gpu[01-08]`) and
/// the anchored text itself, both with runs of blanks folded; and the nodes it affects.
/// Line numbers, columns and the message are left out, so moving lines, editing other
/// lines or rewording a message in a new greslint release keeps a finding's identity.
/// Findings that would still collide (the same key twice on one record) get their
/// ordinal hashed in, so every fingerprint in a report is distinct.
std::vector<std::string> fingerprint_findings(const std::vector<Diagnostic>& findings,
                                              const SourceManager& sources, const std::string& config_dir);

/// The name fingerprints use for `path`: relative to `config_dir` when under it, else as is.
std::string fingerprint_path(const std::string& path, const std::string& config_dir);

}  // namespace greslint
