// SPDX-License-Identifier: Apache-2.0
#include "diff/git_tree.hpp"

#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <cstdlib>
#include <fmt/format.h>
#include <vector>

#include "util.hpp"

extern char** environ;

namespace greslint::diff {
namespace {

int remove_entry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

std::string trim_newline(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

std::optional<std::string> run_program(const std::vector<std::string>& argv, std::string& error) {
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ::close(err[1]);
  std::string text[2];
  if (spawned == 0) {
    // Both pipes at once: a child that fills one while we wait on the other would hang.
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open_fds = 2;
    while (open_fds > 0) {
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buf[65536];
        const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
        if (n > 0) {
          text[i].append(buf, std::size_t(n));
        } else if (n == 0 || errno != EINTR) {
          fds[i].fd = -1;
          --open_fds;
        }
      }
    }
  }
  ::close(out[0]);
  ::close(err[0]);
  if (spawned != 0) {
    error += fmt::format("cannot run {}: {}", argv[0], std::strerror(spawned));
    return std::nullopt;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error += trim_newline(text[1]);
    return std::nullopt;
  }
  return std::move(text[0]);
}

std::unique_ptr<RevisionTree> RevisionTree::check_out(const std::string& rev, const std::string& conf,
                                                      std::ostream& err) {
  const std::string conf_path = real_path(conf);
  const std::string conf_dir = dirname_of(conf_path);
  std::string error;
  auto top = run_program({"git", "-C", conf_dir, "rev-parse", "--show-toplevel"}, error);
  if (!top) {
    err << fmt::format("greslint: diff --git: {} is not in a git work tree: {}\n", conf, error);
    return nullptr;
  }
  const std::string repo = real_path(trim_newline(*top));
  auto commit = run_program({"git", "-C", repo, "rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"}, error);
  if (!commit) {
    err << fmt::format("greslint: diff --git: {} names no commit in {}\n", rev, repo);
    return nullptr;
  }
  std::unique_ptr<RevisionTree> tree(new RevisionTree());
  std::string tmpl = join_path(std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp",
                               "greslint-diff-XXXXXX");
  if (!::mkdtemp(tmpl.data())) {
    err << fmt::format("greslint: diff --git: cannot create a temporary directory: {}\n", std::strerror(errno));
    return nullptr;
  }
  tree->temp_dir_ = tmpl;
  // The whole tree, not only slurm.conf's folder: an Include may reach anywhere in it.
  const std::string archive = join_path(tree->temp_dir_, "revision.tar");
  const std::string root = join_path(tree->temp_dir_, "tree");
  if (!run_program({"git", "-C", repo, "archive", "--format=tar", "-o", archive, trim_newline(*commit)}, error) ||
      ::mkdir(root.c_str(), 0700) != 0 ||
      !run_program({"tar", "-xf", archive, "-C", root, "--no-same-owner", "--no-same-permissions"}, error)) {
    err << fmt::format("greslint: diff --git: cannot read {} from git: {}\n", rev, error);
    return nullptr;
  }
  ::unlink(archive.c_str());
  std::string relative = conf_path.size() > repo.size() ? conf_path.substr(repo.size() + 1) : conf_path;
  tree->slurm_conf_ = join_path(root, relative);
  tree->repo_dir_ = relative.find('/') == std::string::npos ? "" : dirname_of(relative);
  return tree;
}

bool RevisionTree::exists() const {
  struct stat st {};
  return ::stat(slurm_conf_.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

RevisionTree::~RevisionTree() {
  if (!temp_dir_.empty()) ::nftw(temp_dir_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace greslint::diff
