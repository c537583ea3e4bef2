// SPDX-License-Identifier: Apache-2.0
// The installed Slurm's release and the default slurm.conf (include/greslint/environment.hpp).
#include "greslint/environment.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

#include "greslint/emit.hpp"
#include "util.hpp"

extern char** environ;

namespace greslint {

std::optional<SlurmVersion> installed_slurm_version() {
  // Performance: scontrol is started directly, not through popen's /bin/sh. The shell was a
  // third of what the probe added to every run without --slurm-version.
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  char program[] = "scontrol";
  char flag[] = "--version";
  char* argv[] = {program, flag, nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, program, &actions, nullptr, argv, environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  std::string text;
  if (spawned == 0) {
    char buf[256];
    while (text.size() < 4096) {  // "slurm 22.05.8\n"; anything longer is not a version
      const ssize_t n = ::read(out[0], buf, sizeof buf);
      if (n > 0) text.append(buf, std::size_t(n));
      else if (n < 0 && errno == EINTR) continue;
      else break;
    }
  }
  ::close(out[0]);
  if (spawned != 0) return std::nullopt;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return parse_slurm_version(text);
}

std::optional<ResolvedVersion> resolve_slurm_version(const std::string& requested, std::ostream& err) {
  if (!requested.empty()) {
    auto v = parse_slurm_version(requested);
    if (!v) {
      std::string known;
      for (SlurmVersion k : known_versions()) known += (known.empty() ? "" : ", ") + k.str();
      err << fmt::format("greslint: unknown Slurm version '{}' (known: {})\n", sanitize_for_output(requested), known);
      return std::nullopt;
    }
    return ResolvedVersion{*v, "--slurm-version"};
  }
  if (auto v = installed_slurm_version()) return ResolvedVersion{*v, "scontrol --version"};
  return ResolvedVersion{known_versions().back(), "default"};
}

std::optional<std::string> locate_slurm_conf(const std::string& given, std::ostream& err) {
  std::string path = given;
  if (path.empty()) {
    const char* env = std::getenv("SLURM_CONF");
    path = env ? env : "/etc/slurm/slurm.conf";
  }
  struct stat st {};
  // Paths are echoed sanitised: a directory name can hold a terminal escape too.
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    err << fmt::format("greslint: {}: {}\n", sanitize_for_output(path),
                       e == ENOENT ? "no such file or directory" : std::strerror(e));
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    std::string conf = join_path(path, "slurm.conf");
    if (::stat(conf.c_str(), &st) != 0) {
      const int e = errno;
      if (e == ENOENT || e == ENOTDIR)
        err << fmt::format("greslint: {} holds no slurm.conf\n", sanitize_for_output(path));
      else  // e.g. a slurm.conf that is a symlink loop
        err << fmt::format("greslint: {}: {}\n", sanitize_for_output(conf), std::strerror(e));
      return std::nullopt;
    }
    return conf;
  }
  return path;
}

}  // namespace greslint
