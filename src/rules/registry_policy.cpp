// SPDX-License-Identifier: Apache-2.0
// The registry's lists for the cluster as a whole: the GPU pool's policy (GRS4xx), once every
// node class is replayed, and the QOS and association limits (greslint limits, lint --limits).
// registry.cpp places them beside the configuration's stages.
#include <iterator>

#include "rules/limits_rules.hpp"
#include "rules/rules.hpp"
#include "rules/stages.hpp"

namespace greslint::rules {
namespace {

// ----- The cluster as a whole: policy (GRS4xx) ----------------------------------------------

// Once every node class is replayed, when GresTypes has gpu and a node line gives GPUs.
constexpr Check<PolicyView> kClusterPolicy[] = {
    {&GRS405, check_grs405, "select.c:select_g_init"},
    {&GRS401, check_grs401, "controller.c:_init_tres"},
    {&GRS402, check_grs402, "controller.c:_init_tres"},
    {&GRS403, check_grs403, "read_config.c:_validate_and_set_defaults AccountingStorageEnforce"},
    {&GRS406, check_grs406, "task_cgroup.c:init"},
};

// Each partition as the model walks them (their Nodes=, NodeSets and ALL resolved).
constexpr Check<GpuPartitionView> kGpuPartition[] = {
    {&GRS407, check_grs407, "slurmctld/read_config.c:_build_bitmaps_pre_select"},
};

// Once the partitions are walked.
constexpr Check<PolicyView> kClusterPolicyNodes[] = {
    {&GRS408, check_grs408, "slurmctld/read_config.c:_build_bitmaps_pre_select"},
    {&GRS410, check_grs410, "gpu.c:_get_gpu_type"},
};

// ----- QOS and association limits (greslint limits, lint --limits) --------------------------

// slurmctld loads the associations and QOS from slurmdbd (assoc_mgr_init) once its TRES are
// known (controller.c:_init_tres), and checks its partitions' QOS= as it builds them.
constexpr Check<LimitsView> kLimits[] = {
    {&GRS420, check_grs420, "assoc_mgr.c:assoc_mgr_set_tres_cnt_array"},
    {&GRS421, check_grs421, "acct_policy.c:acct_policy_validate"},
    {&GRS422, check_grs422, "assoc_mgr.c:assoc_mgr_find_tres_pos"},
    {&GRS425, check_grs425, "slurmctld/read_config.c:_build_single_partitionline_info"},
    {&GRS426, check_grs426, "job_mgr.c:_determine_and_validate_qos"},
    {&GRS423, check_grs423, "acct_policy.c:acct_policy_job_runnable_post_select"},
    {&GRS424, check_grs424, "acct_policy.c:_qos_job_runnable_post_select"},
};

}  // namespace

const Stage<PolicyView> kClusterPolicyStage{"cluster policy", kClusterPolicy};
const Stage<GpuPartitionView> kGpuPartitionStage{"cluster policy: a partition", kGpuPartition};
const Stage<PolicyView> kClusterPolicyNodesStage{"cluster policy: nodes", kClusterPolicyNodes};
const LimitsStage kLimitsStage{"QOS and association limits", kLimits, std::size(kLimits)};

}  // namespace greslint::rules
