// SPDX-License-Identifier: Apache-2.0
// The check functions of the start-up rules (GRS120-GRS131, GRS160-GRS161), one per step
// of Slurm's start-up they follow; rules/registry.cpp lists them in Slurm's order.
#pragma once

#include <string>

#include "rules/check.hpp"
#include "rules/startup_views.hpp"

namespace greslint::rules {

/// What every daemon logs last when slurm.conf's parse or a value check failed.
inline constexpr std::string_view kUnableToProcess = "Unable to process configuration file";

// read_config.c:_validate_and_set_defaults, in its order.
Outcome check_grs120_cluster_name(const SlurmConfView&, Findings&);
Outcome check_grs120_controller(const SlurmConfView&, Findings&);
Outcome check_grs122_controller_legacy_keys(const SlurmConfView&, Findings&);
Outcome check_grs122_sbcast_parameters(const SlurmConfView&, Findings&);
Outcome check_grs122_def_mem(const SlurmConfView&, Findings&);
Outcome check_grs123_debug_flags(const SlurmConfView&, Findings&);
Outcome check_grs123_enforce_part_limits(const SlurmConfView&, Findings&);
Outcome check_grs121_fast_schedule(const SlurmConfView&, Findings&);
Outcome check_grs122_fast_schedule(const SlurmConfView&, Findings&);
Outcome check_grs123_first_job_id(const SlurmConfView&, Findings&);
Outcome check_grs124_job_acct_gather_params(const SlurmConfView&, Findings&);
Outcome check_grs122_keep_alive_time(const SlurmConfView&, Findings&);
Outcome check_grs124_launch_parameters(const SlurmConfView&, Findings&);
Outcome check_grs123_max_dbd_msgs(const SlurmConfView&, Findings&);
Outcome check_grs123_max_job_count(const SlurmConfView&, Findings&);
Outcome check_grs124_first_job_id_above_max(const SlurmConfView&, Findings&);
Outcome check_grs122_max_mem(const SlurmConfView&, Findings&);
Outcome check_grs123_max_step_count(const SlurmConfView&, Findings&);
Outcome check_grs124_mcs(const SlurmConfView&, Findings&);
Outcome check_grs122_mpi_default(const SlurmConfView&, Findings&);
Outcome check_grs121_accounting_storage_type(const SlurmConfView&, Findings&);
Outcome check_grs123_accounting_storage_enforce(const SlurmConfView&, Findings&);
Outcome check_grs121_accounting_storage_loc(const SlurmConfView&, Findings&);
Outcome check_grs121_accounting_store_job_comment(const SlurmConfView&, Findings&);
Outcome check_grs123_preempt_mode(const SlurmConfView&, Findings&);
Outcome check_grs124_preempt_type(const SlurmConfView&, Findings&);
Outcome check_grs123_prolog_flags(const SlurmConfView&, Findings&);
Outcome check_grs123_propagate_prio_process(const SlurmConfView&, Findings&);
Outcome check_grs122_reconfig_flags(const SlurmConfView&, Findings&);
Outcome check_grs121_salloc_default_command(const SlurmConfView&, Findings&);
Outcome check_grs124_max_node_count(const SlurmConfView&, Findings&);
Outcome check_grs123_select_type_parameters(const SlurmConfView&, Findings&);
Outcome check_grs123_log_levels(const SlurmConfView&, Findings&);
Outcome check_grs123_task_plugin_param(const SlurmConfView&, Findings&);
Outcome check_grs124_linear_with_topology_tree(const SlurmConfView&, Findings&);
// controller.c:main, after the values.
Outcome check_grs122_enforce_without_slurmdbd(const SlurmConfView&, Findings&);

// select.c:select_g_init.
Outcome check_grs125_select_plugin(const SelectPluginView&, Findings&);
Outcome check_grs126_linear_select_parameters(const SelectPluginView&, Findings&);

// read_config.c:read_slurm_conf, cgroup.conf first.
Outcome check_grs160_cgroup_release_agent_dir(const CgroupConfView&, Findings&);
Outcome check_grs161_cgroup_adjusted_values(const CgroupConfView&, Findings&);

// read_slurm_conf after the NodeName lines: nodes, partitions, select node init.
Outcome check_grs127_max_node_count(const NodeTableView&, Findings&);
Outcome check_grs131_duplicate_partition(const NodeTableView&, Findings&);
Outcome check_grs128_no_partition(const NodeTableView&, Findings&);
Outcome check_grs129_no_default_partition(const NodeTableView&, Findings&);
Outcome check_grs126_cons_select_parameters(const NodeTableView&, Findings&);
Outcome check_grs130_cpus_not_cores_or_threads(const NodeTableView&, Findings&);

/// The SelectType slurmctld loads: SelectType= as written, or the release's default.
std::string effective_select_type(const Settings& settings, const VersionProfile& profile);

}  // namespace greslint::rules
