// SPDX-License-Identifier: Apache-2.0
// Baselines: the findings a repository already knows about, so lint can gate on new ones.
#pragma once

#include <optional>
#include <ostream>
#include <set>
#include <string>

#include "greslint/lint.hpp"

namespace greslint {

/// Writes one line per finding of `run` to `path`: fingerprint, rule, file:line, nodes and
/// message, under a comment header. The file is meant to be committed and reviewed: the
/// fingerprint is what matches, the rest says what was accepted. False with a message.
bool write_baseline(const std::string& path, const Analysis& run, std::ostream& err);

/// The fingerprints a baseline file records; nullopt, with file:line on `err`, when it is
/// unreadable or a line does not start with a fingerprint.
std::optional<std::set<std::string>> read_baseline(const std::string& path, std::ostream& err);

/// Removes from `run` the findings whose fingerprint `known` holds; returns how many.
std::size_t drop_baselined(const std::set<std::string>& known, Analysis& run);

}  // namespace greslint
