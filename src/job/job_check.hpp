// SPDX-License-Identifier: Apache-2.0
// One job script against the cluster: the submission checks in slurmctld's order, then the
// script's own (src/rules/registry.cpp, kJobSubmission and kJobScript).
#pragma once

#include "greslint/report.hpp"
#include "greslint/version.hpp"
#include "job/job_model.hpp"
#include "rules/job_view.hpp"

namespace greslint::rules {
struct JobLimits;
}

namespace greslint::job {

/// Reports the findings of `script` to `out` and returns what slurmctld does with the job;
/// with `limits`, also what the QOS and association limits do to it (GRS44x).
rules::JobOutcome check_job(const JobScript& script, const JobCluster& cluster, SlurmVersion version,
                            Reporter& out, const rules::JobLimits* limits = nullptr);

}  // namespace greslint::job
