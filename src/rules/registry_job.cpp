// SPDX-License-Identifier: Apache-2.0
// The registry's job lists (greslint job, docs/job.md): the checks of a job's submission and
// of its script, in the order slurmctld and the job take them. registry.cpp places them
// beside the configuration's stages.
#include <iterator>

#include "rules/limits_rules.hpp"
#include "rules/rules.hpp"
#include "rules/stages.hpp"

namespace greslint::rules {
namespace {

// ----- A job script (greslint job) -----------------------------------------------------

// sbatch validates its options (slurm_opt.c:validate_options) before it submits; then
// job_mgr.c:_job_create takes the partition, the GRES request and the features in this
// order, and select_nodes tests the job against the partitions' nodes. GRS600, last, says
// where an accepted job can run.
constexpr JobCheck<JobView> kJobSubmission[] = {
    {&GRS610, check_grs610, "slurm_opt.c:arg_set_gres_flags"},
    {&GRS611, check_grs611, "slurm_opt.c:validate_options"},
    {&GRS609, check_grs609, "gres.c:gres_job_state_validate"},
    {&GRS607, check_grs607, "job_mgr.c:_get_job_parts"},
    {&GRS601, check_grs601, "gres.c:gres_job_state_validate"},
    {&GRS608, check_grs608, "job_mgr.c:build_feature_list"},
    {&GRS603, check_grs603, "job_mgr.c:select_nodes"},
    {&GRS604, check_grs604, "job_mgr.c:_valid_job_part"},
    {&GRS602, check_grs602, "job_mgr.c:select_nodes"},
    {&GRS600, check_grs600, "job_mgr.c:select_nodes"},
};

// With --limits: the association and QOS lookups of _job_create after the partitions,
// acct_policy_validate after the GRES request, and the scheduler's limits once the job would
// otherwise be placed (each entry runs right after the kJobSubmission check it names).
constexpr JobLimitsCheck kJobLimits[] = {
    {&GRS441, check_grs441, &GRS607, "assoc_mgr.c:assoc_mgr_fill_in_assoc"},
    {&GRS442, check_grs442, &GRS607, "job_mgr.c:_determine_and_validate_qos"},
    {&GRS443, check_grs443, &GRS601, "acct_policy.c:acct_policy_validate"},
    {&GRS440, check_grs440, &GRS602, "acct_policy.c:acct_policy_job_runnable_post_select"},
};

// What the request and the script do once the job runs.
constexpr JobCheck<JobView> kJobScript[] = {
    {&GRS605, check_grs605, "gres.c:gres_job_state_validate"},
    {&GRS606, check_grs606, "gres_gpu.c:gpu_p_job_set_env"},
    {&GRS612, check_grs612, "step_mgr.c:step_create"},
};

}  // namespace

const JobLimitsStage kJobLimitsStage{"job limits", kJobLimits, std::size(kJobLimits)};
const JobStage kJobSubmissionStage{"job submission", kJobSubmission};
const JobStage kJobScriptStage{"job script", kJobScript};

}  // namespace greslint::rules
