// SPDX-License-Identifier: Apache-2.0
// Captured inventories for node-check --inventory: a folder per node, or the tarball
// scripts/collect-gpu-inventory.sh writes, unpacked into a temporary directory.
#include "hardware/capture.hpp"

#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>

#include "hardware/hw_util.hpp"
#include "util.hpp"

namespace greslint::node_check {
namespace {

int remove_entry(const char* path, const struct stat* /*st*/, int /*flag*/, struct FTW* /*ftw*/) {
  return ::remove(path);
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Unpacks a captured tarball into a fresh temporary directory with the system tar.
std::optional<std::string> extract_tarball(const std::string& archive, std::ostream& err) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = join_path(tmp && *tmp ? tmp : "/tmp", "greslint-inventory.XXXXXX");
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) {
    err << fmt::format("greslint: cannot create a temporary directory for {}\n", archive);
    return std::nullopt;
  }
  std::string dir(buf.data());
  pid_t pid = ::fork();
  if (pid == 0) {
    // No device nodes, owners or modes from the archive: a capture holds plain files.
    ::execlp("tar", "tar", "-x", "-f", archive.c_str(), "-C", dir.c_str(), "--no-same-owner", "--no-same-permissions",
             "--exclude=*..*", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    err << fmt::format("greslint: cannot unpack {} with tar\n", archive);
    ::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return std::nullopt;
  }
  return dir;
}

}  // namespace

bool inventory_targets(const std::string& dir, std::vector<Target>& out, std::ostream& err) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    err << fmt::format("greslint: --inventory {}: not a directory\n", dir);
    return false;
  }
  for (const std::string& name : hw::list_dir(dir)) {
    if (name.front() == '.') continue;
    const std::string path = join_path(dir, name);
    if (::stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out.push_back(Target{name, path, ""});
      continue;
    }
    std::string node;
    for (std::string_view ext : {".tar.gz", ".tgz", ".tar"})
      if (node.empty() && ends_with(name, ext)) node = name.substr(0, name.size() - ext.size());
    if (node.empty()) continue;
    // One capture that cannot be read does not stop the others from being checked.
    auto root = extract_tarball(path, err);
    if (!root) {
      err << fmt::format("greslint: --inventory: skipping {}\n", name);
      continue;
    }
    out.push_back(Target{node, *root, *root});
  }
  if (out.empty()) {
    err << fmt::format("greslint: --inventory {}: no node folder or tarball in it that can be read\n", dir);
    return false;
  }
  return true;
}

void remove_captures(const std::vector<Target>& targets) {
  for (const Target& t : targets)
    if (!t.temp.empty()) ::nftw(t.temp.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace greslint::node_check
