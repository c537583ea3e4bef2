// SPDX-License-Identifier: Apache-2.0
// What the QOS and association limits do to one job (greslint job --limits): slurmctld's
// association and QOS lookup at submission (job_mgr.c:_job_create), the strict checks of
// acct_policy_validate (a DenyOnLimit QOS refuses the job) and the scheduler's
// acct_policy_job_runnable_post_select (the job pends with the limit's Reason).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "greslint/source.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::limits {

struct Assoc;

struct Prediction {
  enum class Kind : std::uint8_t { none, invalid_account, invalid_qos, denied, pends };
  Kind kind = Kind::none;
  std::string reason;   ///< pends: the Reason squeue shows
  std::string message;  ///< what greslint says about it
  std::string help;
  Span limit;           ///< the limit (or the association) responsible, in its file
  std::string limit_note;
  bool until_jobs_end = false;  ///< pends only because of the running jobs
};

/// What the running jobs (greslint job --running) already use: per QOS (and per QOS and user
/// or account) and per association with its parents, per TRES (lower-case name).
struct Usage {
  std::map<std::pair<std::string, std::string>, std::uint64_t> qos_grp, qos_run_mins;
  std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t> qos_user, qos_account;
  std::map<std::pair<const Assoc*, std::string>, std::uint64_t> assoc_grp, assoc_run_mins, assoc_none;
  std::size_t jobs = 0;
};

/// Counts a running job (on `nodes`, indexes into the cluster's nodes) into `usage`, as
/// acct_policy_job_begin adds it to its QOS and to its association and each parent.
void add_running(Usage& usage, const job::JobScript& script, const job::JobRequest& job,
                 const job::JobCluster& cluster, const rules::JobLimits& limits, const std::string& user,
                 const std::vector<std::uint32_t>& nodes);

Prediction predict(const rules::JobLimitsView& v);

}  // namespace greslint::limits
