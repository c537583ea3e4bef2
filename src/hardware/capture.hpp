// SPDX-License-Identifier: Apache-2.0
// The nodes node-check looks at: this host, one --sysroot, or every capture of --inventory.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace greslint::node_check {

/// One node to check and where its kernel files are.
struct Target {
  std::string node;  ///< empty: the host, found as slurmd finds it
  std::string sysroot;
  std::string temp;  ///< a directory to delete afterwards
};

/// The captures in an --inventory directory: each folder is a node's tree, each tarball
/// (.tar.gz, .tgz, .tar) is unpacked. One that cannot be unpacked is skipped with a message;
/// false (with a message) when the directory holds no capture that can be read.
bool inventory_targets(const std::string& dir, std::vector<Target>& out, std::ostream& err);

/// Deletes the directories tarballs were unpacked into.
void remove_captures(const std::vector<Target>& targets);

}  // namespace greslint::node_check
