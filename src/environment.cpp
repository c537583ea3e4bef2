// SPDX-License-Identifier: Apache-2.0
// The installed Slurm's release and the default slurm.conf (include/greslint/environment.hpp).
#include "greslint/environment.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <vector>

#include "greslint/emit.hpp"
#include "util.hpp"

extern char** environ;

namespace greslint {

namespace {

/// What tells one scontrol binary from another without running it.
struct BinaryIdentity {
  std::string path;
  std::string stamp;  ///< "inode size mtime" (a rebuilt or upgraded binary gets a new one)
};

std::optional<BinaryIdentity> find_on_path(const char* name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const std::size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    std::string candidate = join_path(dir.empty() ? "." : dir, name);
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return BinaryIdentity{candidate, fmt::format("{}:{} {} {}.{:09}", st.st_dev, st.st_ino, st.st_size,
                                                   st.st_mtim.tv_sec, st.st_mtim.tv_nsec)};
    if (colon == std::string_view::npos) return std::nullopt;
    dirs.remove_prefix(colon + 1);
  }
}

/// Runs `scontrol --version` and returns what it printed. scontrol reads a slurm.conf even
/// for --version and exits 1 without one ("Could not establish a configuration source"), so
/// it gets a two-line one of greslint's own, in memory. Not the linted slurm.conf: scontrol
/// stops on the mistakes greslint exists to report (no ClusterName), and waits 60 s for a
/// missing Include.
std::optional<std::string> run_scontrol_version(const std::string& scontrol) {
  const int conf = ::memfd_create("greslint-slurm.conf", 0);  // inherited: no MFD_CLOEXEC
  if (conf < 0) return std::nullopt;
  static constexpr std::string_view kMinimalConf = "ClusterName=greslint\nSlurmctldHost=localhost\n";
  if (::write(conf, kMinimalConf.data(), kMinimalConf.size()) != ssize_t(kMinimalConf.size())) {
    ::close(conf);
    return std::nullopt;
  }
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "SLURM_CONF=", 11) != 0) env_strings.emplace_back(*e);
  env_strings.push_back(fmt::format("SLURM_CONF=/proc/self/fd/{}", conf));
  std::vector<char*> env;
  for (std::string& s : env_strings) env.push_back(s.data());
  env.push_back(nullptr);

  // Performance: scontrol is started directly, not through popen's /bin/sh.
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(conf);
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::string program = scontrol;
  char flag[] = "--version";
  char* argv[] = {program.data(), flag, nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, env.data());
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ::close(conf);
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
  return text;
}

std::string cache_file() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') return join_path(xdg, "greslint/scontrol-version");
  if (const char* home = std::getenv("HOME"); home && *home == '/') return join_path(home, ".cache/greslint/scontrol-version");
  return {};
}

/// The cache: one line per scontrol seen, "path\tstamp\tanswer". Small, so it is read whole.
std::vector<std::array<std::string, 3>> read_cache(const std::string& file) {
  std::vector<std::array<std::string, 3>> entries;
  std::ifstream in(file);
  std::string line;
  while (entries.size() < 64 && std::getline(in, line)) {
    const std::size_t a = line.find('\t');
    const std::size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) continue;
    entries.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return entries;
}

/// Best effort: a cache that cannot be written is no cache. Concurrent runs each write a
/// whole file of their own and rename it into place, so a reader never sees half of one.
void write_cache(const std::string& file, const BinaryIdentity& id, const std::string& answer) {
  if (id.path.find_first_of("\t\n") != std::string::npos) return;
  std::string dir = dirname_of(file);
  ::mkdir(dirname_of(dir).c_str(), 0700);
  ::mkdir(dir.c_str(), 0700);
  std::string text = fmt::format("{}\t{}\t{}\n", id.path, id.stamp, answer);
  for (const auto& e : read_cache(file))
    if (e[0] != id.path) text += fmt::format("{}\t{}\t{}\n", e[0], e[1], e[2]);
  std::string tmp = file + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return;
  const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  ::close(fd);
  if (!written || ::rename(tmp.c_str(), file.c_str()) != 0) ::unlink(tmp.c_str());
}

/// "22.05.8" (what scontrol printed, trimmed), "" when it printed nothing, "not on PATH".
struct ProbeResult {
  std::optional<SlurmVersion> version;
  std::string reported;
};

ProbeResult probe_installed_slurm() {
  auto id = find_on_path("scontrol");
  if (!id) return {std::nullopt, "no scontrol on PATH"};
  // Performance: starting scontrol costs more than all of a 10-node lint; its answer is kept
  // per binary (path, inode, size, mtime) until the binary changes.
  const std::string cache = cache_file();
  std::optional<std::string> answer;
  if (!cache.empty())
    for (const auto& e : read_cache(cache))
      if (e[0] == id->path && e[1] == id->stamp) answer = e[2];
  if (!answer) {
    std::string text = run_scontrol_version(id->path).value_or("");
    const std::size_t end = text.find_first_of("\r\n");
    answer = sanitize_for_output(text.substr(0, std::min<std::size_t>(end, 80)));
    if (!cache.empty() && !answer->empty()) write_cache(cache, *id, *answer);  // a failure is retried
  }
  if (answer->empty()) return {std::nullopt, id->path + " --version printed no version"};
  auto v = parse_slurm_version(*answer);
  return {v, v ? *answer : fmt::format("{} reports '{}', a release greslint does not model", id->path, *answer)};
}

}  // namespace

std::optional<SlurmVersion> installed_slurm_version() { return probe_installed_slurm().version; }

std::optional<ResolvedVersion> resolve_slurm_version(const VersionPin& pin, std::ostream& err) {
  if (!pin.version.empty()) {
    auto v = parse_slurm_version(pin.version);
    if (!v) {
      std::string known;
      for (SlurmVersion k : known_versions()) known += (known.empty() ? "" : ", ") + k.str();
      err << fmt::format("greslint: unknown Slurm version '{}' (known: {})\n", sanitize_for_output(pin.version), known);
      return std::nullopt;
    }
    return ResolvedVersion{*v, pin.source.empty() ? "--slurm-version" : pin.source};
  }
  ProbeResult installed = probe_installed_slurm();
  if (installed.version) return ResolvedVersion{*installed.version, "scontrol --version"};
  const SlurmVersion assumed = known_versions().back();
  err << fmt::format(
      "greslint: note: no Slurm release to model ({}); assuming {}, the newest greslint knows. "
      "Pin the cluster's release with --slurm-version X.Y or SlurmVersion=X.Y in .greslint.conf\n",
      installed.reported, assumed.str());
  return ResolvedVersion{assumed, "default"};
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
