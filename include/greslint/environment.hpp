// SPDX-License-Identifier: Apache-2.0
// What greslint takes from the machine it runs on when the command line does not say:
// the Slurm release (from the installed scontrol) and where slurm.conf is.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "greslint/version.hpp"

namespace greslint {

/// The Slurm profile of a run and where it came from, as the report's first line says it.
struct ResolvedVersion {
  SlurmVersion version;
  std::string source;  ///< "--slurm-version", ".greslint.conf", "scontrol --version" or "default"
};

/// A release asked for by name, and who asked: "--slurm-version" or ".greslint.conf".
struct VersionPin {
  std::string version;  ///< empty: none
  std::string source;
};

/// The pinned release when there is one; else the release of the Slurm installed here
/// (`scontrol --version`: an admin on the head node gets the right rules without thinking);
/// else the newest modelled release, with a note on `err` saying why and how to pin one.
/// Nullopt, with a message on `err`, for a pinned version greslint does not model.
std::optional<ResolvedVersion> resolve_slurm_version(const VersionPin& pin, std::ostream& err);

/// The release the scontrol on PATH reports, or nullopt when there is none or it reports a
/// release greslint does not model. The answer is cached per scontrol binary (path, inode,
/// size, mtime) in $XDG_CACHE_HOME/greslint (default ~/.cache/greslint).
std::optional<SlurmVersion> installed_slurm_version();

/// The slurm.conf to read for `given` (a slurm.conf file or a directory holding one; when
/// empty, $SLURM_CONF, else /etc/slurm/slurm.conf). Nullopt, with a message naming the path
/// on `err`, when there is none.
std::optional<std::string> locate_slurm_conf(const std::string& given, std::ostream& err);

}  // namespace greslint
