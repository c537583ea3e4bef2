// SPDX-License-Identifier: Apache-2.0
// Findings as data: what is wrong, where, for which nodes, and what Slurm will do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/source.hpp"

namespace greslint {

enum class Severity : std::uint8_t { note, warning, error };
/// What Slurm does about it.
/// rejected and pends are about jobs (greslint job): slurmctld refuses the job at submission,
/// or accepts it and it never starts.
enum class Effect : std::uint8_t { none, fatal, drain, degraded, advice, rejected, pends };
enum class Daemon : std::uint8_t { none, slurmctld, slurmd };

std::string_view to_string(Severity s) noexcept;
std::string_view to_string(Effect e) noexcept;
std::string_view to_string(Daemon d) noexcept;
std::optional<Severity> parse_severity(std::string_view s) noexcept;

/// Another location that explains the finding (usually in the other file).
struct Related {
  Span span;
  std::string message;
  /// Another place that says the same as the finding (another line with the same mistake),
  /// not a place that explains it: a suppression there silences the finding for that place.
  bool same = false;
  /// Further places that say the same, counted here rather than named (the message says
  /// "; N more lines say the same"): the text output sums them when it folds the notes.
  std::uint32_t more = 0;
  /// A note about another place the finding stands for (another node's line, and what
  /// explains that line), not about the finding's own line. The text output folds these
  /// into one line when a finding has several; JSON and SARIF list each.
  bool echo = false;
};

struct Edit {
  Span span;
  std::string replacement;
};

struct Fix {
  std::string title;
  std::vector<Edit> edits;
};

/// Static description of a rule; every finding points at one.
struct RuleInfo {
  std::string_view id;       ///< "GRS301"
  std::string_view name;     ///< kebab-case, stable
  Severity severity;         ///< default severity
  Effect effect;             ///< what Slurm does
  Daemon daemon;             ///< who does it
  std::string_view summary;  ///< one line
};

struct Diagnostic {
  const RuleInfo* rule = nullptr;
  Severity severity = Severity::error;
  Span span;  ///< primary location (may be invalid for file-less findings)
  std::string message;
  std::string nodes;  ///< folded hostlist of affected nodes, empty when file-wide
  Effect effect = Effect::none;
  Daemon daemon = Daemon::none;
  std::string slurm_message;  ///< the exact line Slurm logs, when one exists
  /// For a finding whose nodes drain: the Reason scontrol shows for them, the same one
  /// `greslint nodes` gives (for the finding's first drained node, when Slurm's reason
  /// names the node; Slurm leaves some empty). Nullopt when none of its nodes drains.
  std::optional<std::string> reason;
  /// What the quoted reason leaves out, e.g. that each node's reason names that node.
  std::string reason_note;
  std::vector<Related> related;
  std::string help;
  std::optional<Fix> fix;
};

}  // namespace greslint
