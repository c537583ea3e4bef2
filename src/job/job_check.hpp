// SPDX-License-Identifier: Apache-2.0
// One job script against the cluster: the submission checks in slurmctld's order, then the
// script's own (src/rules/registry.cpp, kJobSubmission and kJobScript).
#pragma once

#include "greslint/report.hpp"
#include "greslint/version.hpp"
#include "job/job_model.hpp"
#include "rules/job_view.hpp"

namespace greslint::job {

/// Reports the findings of `script` to `out` and returns what slurmctld does with the job.
rules::JobOutcome check_job(const JobScript& script, const JobCluster& cluster, SlurmVersion version,
                            Reporter& out);

}  // namespace greslint::job
