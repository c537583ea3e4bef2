// SPDX-License-Identifier: Apache-2.0
// Include: %c, the base directory each release resolves against, cycles, limits, and the
// recovery read that keeps a failed Include's nodes visible to later checks.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

#include "config/reader.hpp"
#include "rules/rules.hpp"

namespace greslint::config_detail {

namespace {

/// Include's %c: each "%c" becomes the cluster name.
std::string expand_cluster_name(const std::string& name, const std::string& cluster) {
  std::string path;
  for (std::size_t k = 0; k < name.size(); ++k) {
    if (name[k] == '%' && k + 1 < name.size() && name[k + 1] == 'c') {
      path += cluster;
      ++k;
    } else {
      path.push_back(name[k]);
    }
  }
  return path;
}

}  // namespace

void Reader::handle_include(FileId file, const LogicalLine& l, ConfigFile& result, int depth) {
  std::string_view s = l.text;
  std::size_t i = 7;
  while (i < s.size() && is_space(s[i])) ++i;
  std::size_t fn_begin = i;
  while (i < s.size() && !is_space(s[i])) ++i;
  std::size_t fn_end = i;
  Span name_span = span_of(file, l, fn_begin, fn_end);
  std::string name(s.substr(fn_begin, fn_end - fn_begin));
  auto fail = [&](std::string message, std::string slurm, std::string help) {
    out_.report(rules::GRS005, name_span, std::move(message))
        .slurm(std::move(slurm))
        .effect(Effect::fatal, daemon_for(options_.table))
        .help(std::move(help));
    result.failed = true;
  };
  const std::string failed_line =
      fmt::format("\"Include\" failed in file {} line {}", sources_.path(file), l.first_line);
  // %c is replaced by ClusterName in lower case; it must have been read already.
  const bool uses_cluster = name.find("%c") != std::string::npos;
  result.include_used_cluster_name = result.include_used_cluster_name || uses_cluster;
  if (uses_cluster && cluster_name_.empty()) {
    fail("Include uses %c but ClusterName is not set before this line",
         "_parse_for_format: Did not get ClusterName for include path", "set ClusterName= above the Include line");
    return;
  }
  const std::string path = uses_cluster ? expand_cluster_name(name, cluster_name_) : name;
  if (profile_.include_glob_is_error() && path.find('*') != std::string::npos) {
    fail(fmt::format("Slurm {} does not expand '*' in Include {}", profile_.version().str(), name), failed_line,
         "list each included file on its own Include line");
    return;
  }
  std::string base =
      profile_.include_relative_to_including_file() ? dirname_of(sources_.path(file)) : options_.slurm_conf_dir;
  const std::string as_slurm_reads = path.empty() || path[0] == '/' ? path : join_path(base, path);
  std::string full = map_prefix(as_slurm_reads, options_.prefix_map);
  // Findings name the file greslint read; the path Slurm reads is said where it differs.
  std::string mapped = full == as_slurm_reads ? std::string() : fmt::format(" (for {}, by the prefix map)", as_slurm_reads);
  if (full == as_slurm_reads && reads_checkout_of(path) && !read_from_checkout(path, name_span, full, mapped))
    return;
  if (!only_space(s.substr(fn_end))) parse_error(file, l, fn_end, result);
  if (include_refused(name, full, [&](std::string message, std::string help) {
        fail(std::move(message), failed_line, std::move(help));
      }))
    return;
  if (past_limits(name, name_span, depth, result)) return;
  FileText text;
  std::string error;
  // Read first, and asked why only when that fails: a stat before every read was a quarter
  // of the system calls of a configuration written one Include per rack (6,250 files).
  if (!read_included(full, text, error)) {
    struct stat st {};
    if (::stat(full.c_str(), &st) != 0) {
      const int stat_errno = errno;
      if (stat_errno != ENOENT && stat_errno != ENOTDIR) {
        // A symlink loop, a path too long, a directory we may not search: not "missing".
        fail(fmt::format("included file {}{} cannot be read: {}", full, mapped, std::strerror(stat_errno)),
             failed_line, "point the Include at a readable regular file");
        return;
      }
      if (!path.empty() && path[0] != '/') {
        // The other releases' base directory: what the admin probably meant.
        std::string other = join_path(
            profile_.include_relative_to_including_file() ? options_.slurm_conf_dir : dirname_of(sources_.path(file)),
            path);
        if (::stat(other.c_str(), &st) == 0) recover(other, result, depth);
        else if (full == as_slurm_reads && !reads_live_config())
          return warn_not_in_checkout(full, name_span, "add the file to the checkout");
      }
      fail(fmt::format("included file {}{} does not exist", full, mapped), failed_line, missing_include_help(path));
      return;
    }
    fail(fmt::format("included file {}{} cannot be read: {}", full, mapped, error),
         fmt::format("s_p_parse_file: unable to read \"{}\": {}", full, error), "make the file readable");
    return;
  }
  if (text.empty()) return;  // Slurm: "file is empty", success
  FileId inc = sources_.add(full, std::move(text));
  parse_included(inc, result, depth + 1);
}

bool Reader::read_included(const std::string& full, FileText& text, std::string& error) {
  // A file large enough to have its later lines read on another core: the kept thread starts
  // once its size is known, while this one copies the file, rather than when the reading
  // asks for it.
  const auto start_helper = [this](std::uint64_t size) {
    if (!kSplitEveryFile && options_.cores && size >= options_.later_lines_from_bytes) options_.cores->start_helper();
  };
  return read_file_to_parse(full, text, error, start_helper);
}

/// An absolute Include of a checkout (reads_checkout_of): points `full` at the checkout's copy
/// with a note, or warns that the file is not checked and returns false (the line is then
/// passed over, as if the checkout were the cluster's files without it).
bool Reader::read_from_checkout(const std::string& path, Span name_span, std::string& full, std::string& mapped) {
  const CheckoutCopy copy = checkout_copy(path);
  if (copy.path.empty()) {
    warn_not_in_checkout(path, name_span,
                         fmt::format("add the file to the checkout, or say where it is: --prefix-map {}=DIR "
                                     "(PrefixMap= in .greslint.conf)",
                                     dirname_of(path)));
    return false;
  }
  out_.report(rules::GRS011, name_span,
              fmt::format("read {} for included file {}: slurm.conf is not in {}, so its folder is taken as a "
                          "checkout of that one",
                          copy.path, path, copy.site_folder))
      .severity(Severity::note)
      .effect(Effect::advice, Daemon::none)
      .help(fmt::format("to say so explicitly: --prefix-map {}={} (PrefixMap= in .greslint.conf)", copy.site_folder,
                        options_.slurm_conf_dir));
  mapped = fmt::format(" (for {}, found in the checkout)", path);
  full = copy.path;
  return true;
}

/// An included file this checkout does not have: greslint goes on without it (as Slurm would
/// if the line were not there) and says that it did.
void Reader::warn_not_in_checkout(const std::string& path, Span name_span, const std::string& fix) {
  out_.report(rules::GRS011, name_span,
              fmt::format("greslint does not check included file {}: this checkout has no copy of it", path))
      .effect(Effect::advice, Daemon::none)
      .help(fmt::format("{}; on the cluster, {} exits if the file is missing there", fix,
                        to_string(daemon_for(options_.table))));
}

/// Whether slurm.conf is the one Slurm on this machine reads: $SLURM_CONF's folder, or a folder
/// Slurm's builds read by default. There a missing Include is missing for Slurm too (GRS005);
/// anywhere else greslint reads a checkout, which may leave out files written on the cluster.
bool Reader::reads_live_config() const {
  const std::string own = real_path(options_.slurm_conf_dir);
  if (const char* env = std::getenv("SLURM_CONF"); env && *env && own == real_path(dirname_of(env))) return true;
  for (const char* folder : {"/etc/slurm", "/etc/slurm-llnl", "/usr/local/etc", "/usr/local/etc/slurm", "/opt/slurm/etc"})
    if (own == real_path(folder)) return true;
  return false;
}

/// Whether an absolute Include that names no file here is a site path of a checkout: it is
/// not under slurm.conf's folder. Slurm on the cluster reads the site path; greslint, linting
/// a copy somewhere else, cannot tell a missing file from one the copy left out. Under
/// slurm.conf's folder (greslint reading the cluster's own files), a missing file is Slurm's
/// GRS005 fatal.
bool Reader::reads_checkout_of(const std::string& path) const {
  if (path.size() < 2 || path[0] != '/' || reads_live_config()) return false;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 || (errno != ENOENT && errno != ENOTDIR)) return false;
  const std::string own = real_path(options_.slurm_conf_dir);
  // The deepest folder of the path that exists, resolved: the Include may name a folder
  // that is missing too.
  std::string folder = dirname_of(path);
  while (folder != "/" && ::stat(folder.c_str(), &st) != 0) folder = dirname_of(folder);
  const std::string resolved = real_path(folder);
  const bool under_own = resolved == own || own == "/" ||
                         (resolved.size() > own.size() && resolved.compare(0, own.size(), own) == 0 &&
                          resolved[own.size()] == '/');
  return !under_own;
}

/// The checkout's copy of a site path: the longest tail of the path that names a regular file
/// under slurm.conf's folder (/etc/slurm/nodes.d/gpu.conf: nodes.d/gpu.conf, then gpu.conf),
/// with the site folder that tail leaves (/etc/slurm); none when the checkout has no copy.
Reader::CheckoutCopy Reader::checkout_copy(const std::string& path) const {
  for (std::size_t slash = 0; slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string candidate = join_path(options_.slurm_conf_dir, path.substr(slash + 1));
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      return {candidate, slash == 0 ? std::string("/") : path.substr(0, slash)};
  }
  return {};
}

/// What to do about an Include naming no file. An absolute path whose file sits beside
/// slurm.conf is most likely a checkout of the real /etc/slurm: say how to map it.
std::string Reader::missing_include_help(const std::string& path) const {
  if (!path.empty() && path[0] == '/') {
    const std::string beside = join_path(options_.slurm_conf_dir, path.substr(path.find_last_of('/') + 1));
    struct stat st {};
    if (::stat(beside.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      return fmt::format("if this is a checkout of {}, read it from here: --prefix-map {}={} (or PrefixMap= in "
                         ".greslint.conf)",
                         dirname_of(path), dirname_of(path), options_.slurm_conf_dir);
  }
  return profile_.include_relative_to_including_file()
             ? "Slurm 22.05 resolves a relative Include against the folder of the file that holds it"
             : "Slurm 23.02+ resolves a relative Include against the folder of slurm.conf";
}

/// An Include of a file already on the include stack: Slurm would recurse until it runs out
/// of file descriptors. Reports through `fail` (message, help).
bool Reader::include_refused(const std::string& name, const std::string& full,
                             const std::function<void(std::string, std::string)>& fail) const {
  if (std::find(stack_.begin(), stack_.end(), full) != stack_.end()) {
    fail(fmt::format("Include {} includes itself (directly or through other files)", name),
         "remove the cycle of Include lines");
    return true;
  }
  return false;
}

/// greslint's own stops: a chain deeper than kMaxIncludeDepth, or past the run's file and byte
/// limits. Slurm has neither, so greslint says that it stopped (GRS008) instead of predicting
/// that the Include fails, and marks the file truncated: no verdicts are modelled.
bool Reader::past_limits(const std::string& name, Span where, int depth, ConfigFile& result) {
  std::string message, help;
  if (depth >= kMaxIncludeDepth) {
    message = fmt::format("greslint stops reading here: Include {} is nested more than {} files deep, greslint's limit",
                          name, kMaxIncludeDepth);
    help = "flatten the chain of Include lines";
  } else if (!within_read_limits(sources_.file_count(), sources_.text_bytes())) {
    message = fmt::format("greslint stops reading here: Include {} would take it past {} files or {} MiB read in one "
                          "run, greslint's limit",
                          name, kMaxSourceFiles, kMaxSourceBytes >> 20);
    help = "include each file once (an Include that fans out is read again each time)";
  } else {
    return false;
  }
  out_.report(rules::GRS008, where, std::move(message)).effect(Effect::none, Daemon::none).help(std::move(help));
  stopped_ = true;
  result.truncated = true;
  return true;
}

/// Reads `path` for its directives only (no findings) into result.recovered.
void Reader::recover(const std::string& path, ConfigFile& result, int depth) {
  if (depth >= 4 || std::find(stack_.begin(), stack_.end(), path) != stack_.end()) return;
  if (!within_read_limits(sources_.file_count(), sources_.text_bytes())) return;
  FileText text;
  std::string error;
  if (!read_file_to_parse(path, text, error) || text.empty()) return;
  Reporter quiet;
  ConfigFile side;  // made before the reader, which waits for what it writes into it when it goes
  Reader inner(options_, profile_, sources_, quiet);
  inner.cluster_name_ = cluster_name_;
  inner.stack_ = stack_;
  inner.parse(sources_.add(path, std::move(text)), side, depth + 1);
  result.include_used_cluster_name = result.include_used_cluster_name || side.include_used_cluster_name;
  for (Directive& d : side.directives) result.recovered.push_back(std::move(d));
  for (Directive& d : side.recovered) result.recovered.push_back(std::move(d));
}

}  // namespace greslint::config_detail

namespace greslint {

bool within_read_limits(std::size_t files, std::size_t bytes) noexcept {
  return files < config_detail::kMaxSourceFiles && bytes <= config_detail::kMaxSourceBytes;
}

std::string map_prefix(const std::string& path, const std::vector<std::pair<std::string, std::string>>& map) {
  // "/etc/slurm/" and "/etc/slurm" name the same prefix; "/" maps everything.
  auto trimmed = [](std::string_view old) {
    while (old.size() > 1 && old.back() == '/') old.remove_suffix(1);
    return old;
  };
  auto matches = [&](std::string_view old) {
    return path.compare(0, old.size(), old) == 0 &&
           (old == "/" || path.size() == old.size() || path[old.size()] == '/');
  };
  const std::pair<std::string, std::string>* best = nullptr;
  for (const auto& entry : map)
    if (matches(trimmed(entry.first)) && (!best || trimmed(entry.first).size() > trimmed(best->first).size()))
      best = &entry;
  if (!best) return path;
  std::string rest = path.substr(trimmed(best->first).size());
  while (!rest.empty() && rest.front() == '/') rest.erase(0, 1);
  return rest.empty() ? best->second : join_path(best->second, rest);
}

}  // namespace greslint
