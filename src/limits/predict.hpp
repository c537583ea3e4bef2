// SPDX-License-Identifier: Apache-2.0
// What the QOS and association limits do to one job (greslint job --limits): slurmctld's
// association and QOS lookup at submission (job_mgr.c:_job_create), the strict checks of
// acct_policy_validate (a DenyOnLimit QOS refuses the job) and the scheduler's
// acct_policy_job_runnable_post_select (the job pends with the limit's Reason).
#pragma once

#include <string>

#include "greslint/source.hpp"
#include "rules/limits_rules.hpp"

namespace greslint::limits {

struct Prediction {
  enum class Kind : std::uint8_t { none, invalid_account, invalid_qos, denied, pends };
  Kind kind = Kind::none;
  std::string reason;   ///< pends: the Reason squeue shows
  std::string message;  ///< what greslint says about it
  std::string help;
  Span limit;           ///< the limit (or the association) responsible, in its file
  std::string limit_note;
};

Prediction predict(const rules::JobLimitsView& v);

}  // namespace greslint::limits
