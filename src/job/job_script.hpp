// SPDX-License-Identifier: Apache-2.0
// A job script as sbatch reads it: the #SBATCH directives (sbatch/opt.c:_opt_batch_script),
// the sbatch command line given with --args, the options of srun/salloc lines, and the
// lines that set the GPU visibility variables Slurm sets for the job.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/source.hpp"

namespace greslint::job {

/// Where an option was written.
enum class Origin : std::uint8_t { directive, command_line, step };

/// One option, its long name as sbatch knows it ("gres", "gpus-per-node"), however it was
/// spelt (-G, --gpus, --gp, an abbreviation getopt_long accepts).
struct JobOption {
  std::string name;
  std::string value;
  bool has_value = false;
  Span span;        ///< the option as written (name and value)
  Span value_span;  ///< the value alone (the option's span when it has none)
  Origin origin = Origin::directive;
};

/// A word of a command line that is no option sbatch knows (sbatch would stop there).
struct UnknownOption {
  std::string text;
  Span span;
};

/// A shell line that sets a variable Slurm sets to confine the job to its GPUs.
struct VisibilityWrite {
  std::string variable;
  Span span;
};

/// One srun or salloc line: its options (the job step's request).
struct StepLine {
  std::string command;  ///< "srun" or "salloc"
  Span span;
  std::vector<JobOption> options;
};

struct JobScript {
  FileId file;
  bool has_shebang = false;
  /// sbatch's options: the #SBATCH lines in order, then the command line (--args), which
  /// wins where both give one (sbatch reads the script first, the command line last).
  std::vector<JobOption> options;
  std::vector<UnknownOption> unknown;
  std::vector<StepLine> steps;
  std::vector<VisibilityWrite> visibility_writes;

  /// The last value of option `name` (the one sbatch keeps), or null.
  const JobOption* last(std::string_view name) const;
};

/// Reads the script in `file` (already in `sources`); `args`, when valid, is a file holding
/// the sbatch command line that precedes the script.
JobScript read_job_script(const SourceManager& sources, FileId file, FileId args);

/// The options of one command line starting at `begin` of `text` (a #SBATCH line, the
/// --args text, a srun line), split into words as sbatch's get_argument does (quotes group,
/// a backslash escapes, an unquoted '#' starts a comment).
void read_options(std::string_view text, FileId file, std::uint32_t begin, Origin origin,
                  std::vector<JobOption>& options, std::vector<UnknownOption>& unknown);

}  // namespace greslint::job
