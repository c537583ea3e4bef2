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
  std::string source;  ///< "--slurm-version", "scontrol --version" or "default"
};

/// `requested` (from --slurm-version or .greslint.conf) when given; else the release of the
/// Slurm installed here (`scontrol --version` on PATH: an admin on the head node gets the
/// right rules without thinking); else the newest modelled release. Nullopt, with a message
/// on `err`, for a version greslint does not model.
std::optional<ResolvedVersion> resolve_slurm_version(const std::string& requested, std::ostream& err);

/// The release `scontrol --version` prints, or nullopt when there is no scontrol on PATH or
/// it prints no version greslint models.
std::optional<SlurmVersion> installed_slurm_version();

/// The slurm.conf to read for `given` (a slurm.conf file or a directory holding one; when
/// empty, $SLURM_CONF, else /etc/slurm/slurm.conf). Nullopt, with a message naming the path
/// on `err`, when there is none.
std::optional<std::string> locate_slurm_conf(const std::string& given, std::ostream& err);

}  // namespace greslint
