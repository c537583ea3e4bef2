// SPDX-License-Identifier: Apache-2.0
// The limits rules (docs/limits.md): what a check of the QOS and association limits sees, and
// the rules themselves. GRS42x check the limits files against the configuration (greslint
// limits, lint --limits; kLimitsStage); GRS44x tell what the limits do to a job (greslint job
// --limits; kJobLimitsStage, run inside the job's submission checks). Kept apart from
// views.hpp and rules.hpp, which every rule includes: only the limits code needs these.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "greslint/version.hpp"
#include "rules/check.hpp"
#include "rules/job_view.hpp"

namespace greslint::limits {
struct LimitsDb;
struct Pool;
struct Usage;
}  // namespace greslint::limits

namespace greslint::rules {

/// The limits files read (sacctmgr dump, show qos|assoc -P) against what slurmctld makes of
/// them with this configuration (src/limits/): which TRES it tracks, what it enforces, the
/// GPUs of the nodes and partitions. Checked once, after start-up, as slurmctld loads the
/// associations and QOS from slurmdbd (assoc_mgr_init).
struct LimitsView {
  const VersionProfile& profile;
  const limits::LimitsDb& db;
  const limits::Pool& pool;
};

/// The QOS and association limits a job meets (greslint job --limits).
struct JobLimits {
  const limits::LimitsDb& db;
  const limits::Pool& pool;
  std::string user;     ///< the submitting user (--user, else the files' first user)
  std::string account;  ///< --account given to greslint; the job's own --account wins
  const limits::Usage* usage = nullptr;  ///< what running jobs use (--running); null: nothing runs
};

/// A job check that also sees the limits.
struct JobLimitsView {
  const JobView& job;
  const JobLimits& limits;
};

/// One limits check of a job, run right after the kJobSubmission check of `after` accepts
/// the job: where slurmctld makes it among the other submission checks.
struct JobLimitsCheck {
  const RuleInfo* rule;
  JobOutcome (*run)(const JobLimitsView&, Reporter&);
  const RuleInfo* after;
  std::string_view follows;
};

/// The checks of kLimits (registry.cpp), in order.
struct LimitsStage {
  std::string_view name;
  const Check<LimitsView>* first;
  std::size_t size;
  const Check<LimitsView>* begin() const { return first; }
  const Check<LimitsView>* end() const { return first + size; }
};
struct JobLimitsStage {
  std::string_view name;
  const JobLimitsCheck* first;
  std::size_t size;
  const JobLimitsCheck* begin() const { return first; }
  const JobLimitsCheck* end() const { return first + size; }
};
extern const LimitsStage kLimitsStage;
extern const JobLimitsStage kJobLimitsStage;

/// Slurm's messages, as sbatch prints them after "Batch job submission failed: ".
inline constexpr std::string_view kInvalidAccount = "Invalid account or account/partition combination specified";
inline constexpr std::string_view kInvalidQos = "Invalid qos specification";
inline constexpr std::string_view kAccountingPolicy =
    "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)";

// GRS42x: the limits files against the configuration.
extern const RuleInfo GRS420;  // limit-tres-not-tracked
Outcome check_grs420(const LimitsView&, Findings&);
extern const RuleInfo GRS421;  // limits-not-enforced
Outcome check_grs421(const LimitsView&, Findings&);
extern const RuleInfo GRS422;  // limit-gpu-type-unknown
Outcome check_grs422(const LimitsView&, Findings&);
extern const RuleInfo GRS423;  // limit-blocks-gpu-jobs
Outcome check_grs423(const LimitsView&, Findings&);
extern const RuleInfo GRS424;  // min-tres-unsatisfiable
Outcome check_grs424(const LimitsView&, Findings&);
extern const RuleInfo GRS425;  // partition-qos-unknown
Outcome check_grs425(const LimitsView&, Findings&);
extern const RuleInfo GRS426;  // assoc-qos-unknown
Outcome check_grs426(const LimitsView&, Findings&);

// GRS44x: what the limits do to a job.
extern const RuleInfo GRS440;  // job-held-by-limit
JobOutcome check_grs440(const JobLimitsView&, Reporter&);
extern const RuleInfo GRS441;  // job-invalid-account
JobOutcome check_grs441(const JobLimitsView&, Reporter&);
extern const RuleInfo GRS442;  // job-invalid-qos
JobOutcome check_grs442(const JobLimitsView&, Reporter&);
extern const RuleInfo GRS443;  // job-denied-by-limit
JobOutcome check_grs443(const JobLimitsView&, Reporter&);

}  // namespace greslint::rules
