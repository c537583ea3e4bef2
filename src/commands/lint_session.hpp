// SPDX-License-Identifier: Apache-2.0
// What lint and nodes share before they report: .greslint.conf, the chosen release,
// the analysis of one configuration, --nodes and --select/--ignore.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "greslint/environment.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/lint.hpp"
#include "greslint/model.hpp"
#include "greslint/report.hpp"

namespace greslint {

/// --nodes: the hosts findings and rows are restricted to; false (with a message) if invalid.
bool parse_node_filter(const std::string& nodes, SlurmVersion v, std::optional<Hostlist>& only, std::ostream& err);

/// A rule by id or name in any case, as every option naming rules takes them.
const RuleInfo* find_rule_any_case(std::string_view id_or_name);

/// --select and --ignore: whether findings of `r` are reported.
bool rule_selected(const RuleInfo& r, const LintOptions& o);

/// Set by the command line, whose process ends once lint has reported: the analysis is then
/// left for the exit to reclaim instead of being torn down string by string and vector by
/// vector (3% of a per-node run). In-process callers (tests, benchmarks, fuzzing) free it.
void end_process_after_report(bool yes);
/// Frees `analysis`, or keeps it reachable until the process exits (end_process_after_report).
void finish_with(std::unique_ptr<Analysis> analysis);

/// One analyzed configuration.
struct Run {
  SourceManager sources;
  Reporter reporter;
  Cluster cluster;
  ResolvedVersion version;
  std::string slurm_conf;
  std::vector<std::string> inputs;
};

/// --nodes that names no node of `cluster` is a usage error (false, with a message); hosts
/// that are not nodes get a note.
bool check_node_filter(const std::optional<Hostlist>& only, const std::string& text, const Cluster& cluster,
                       std::ostream& err);

/// An input file could not be read (GRS008): the run ends with exit 2 whatever the
/// filters, since nothing can be said about that file.
bool input_unreadable(const Run& run);

/// Resolves the release, finds slurm.conf and analyzes it; nullptr (with a message) when
/// either fails.
std::unique_ptr<Run> analyze_paths(const LintOptions& o, std::ostream& err);

/// slurmctld refuses to start when the model's start-up replay ends in a fatal (an invalid
/// NodeName= hostlist leaves no node to list) or when a node class's replay ends in its
/// fatal (a CLOUD node's gres.conf, which slurmctld loads itself).
ClusterVerdict cluster_verdict(const Run& run);

using SeverityOverrides = std::vector<std::pair<const RuleInfo*, Severity>>;

/// --severity ID=LEVEL items; nullopt (with a message) when one is malformed.
std::optional<SeverityOverrides> parse_severity_overrides(const std::vector<std::string>& items, std::ostream& err);

/// False (with a message) when --select or --ignore names no rule.
bool check_rule_names(const LintOptions& o, std::ostream& err);

/// Which findings a command makes: lint and nodes check the configuration, node-check the
/// configuration against the hardware. Suppressions of the other kind's rules are not
/// reported unused there.
enum class RuleScope { configuration, hardware };

/// The report stage lint and node-check share: suppressions (and their own findings,
/// GRS009/GRS010), severity overrides, --select/--ignore, --nodes, then file order.
std::vector<Diagnostic> report_stage(std::vector<Diagnostic> found, const Run& run, const LintOptions& o,
                                     const SeverityOverrides& overrides, const std::optional<Hostlist>& only,
                                     RuleScope scope);

}  // namespace greslint
