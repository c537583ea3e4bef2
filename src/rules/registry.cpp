// SPDX-License-Identifier: Apache-2.0
// The registry: every rule, and the checks of each step of Slurm's processing in the order
// Slurm takes them. To add a rule: one line in kRules, one line in the stage list of the
// step its check follows (CONTRIBUTING.md; scripts/new_rule.py writes both). The job
// checks (greslint job) are listed in registry_job.cpp, the cluster policy and the QOS and
// association limits in registry_policy.cpp.
#include "greslint/registry.hpp"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "rules/limits_rules.hpp"
#include "rules/node_registration_rules.hpp"
#include "rules/rules.hpp"
#include "rules/stages.hpp"

namespace greslint {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_rule_docs();

namespace rules {
namespace {

struct RuleEntry {
  std::string_view id;  ///< repeats rule->id, which the compiler cannot see from here
  const RuleInfo* rule;
};

/// Every rule, sorted by id.
constexpr RuleEntry kRules[] = {
    {"GRS001", &GRS001},
    {"GRS002", &GRS002},
    {"GRS003", &GRS003},
    {"GRS004", &GRS004},
    {"GRS005", &GRS005},
    {"GRS006", &GRS006},
    {"GRS007", &GRS007},
    {"GRS008", &GRS008},
    {"GRS009", &GRS009},
    {"GRS010", &GRS010},
    {"GRS011", &GRS011},
    {"GRS101", &GRS101},
    {"GRS102", &GRS102},
    {"GRS103", &GRS103},
    {"GRS104", &GRS104},
    {"GRS105", &GRS105},
    {"GRS106", &GRS106},
    {"GRS107", &GRS107},
    {"GRS108", &GRS108},
    {"GRS110", &GRS110},
    {"GRS111", &GRS111},
    {"GRS112", &GRS112},
    {"GRS113", &GRS113},
    {"GRS114", &GRS114},
    {"GRS115", &GRS115},
    {"GRS116", &GRS116},
    {"GRS117", &GRS117},
    {"GRS120", &GRS120},
    {"GRS121", &GRS121},
    {"GRS122", &GRS122},
    {"GRS123", &GRS123},
    {"GRS124", &GRS124},
    {"GRS125", &GRS125},
    {"GRS126", &GRS126},
    {"GRS127", &GRS127},
    {"GRS128", &GRS128},
    {"GRS129", &GRS129},
    {"GRS130", &GRS130},
    {"GRS131", &GRS131},
    {"GRS132", &GRS132},
    {"GRS133", &GRS133},
    {"GRS134", &GRS134},
    {"GRS135", &GRS135},
    {"GRS136", &GRS136},
    {"GRS137", &GRS137},
    {"GRS138", &GRS138},
    {"GRS139", &GRS139},
    {"GRS140", &GRS140},
    {"GRS141", &GRS141},
    {"GRS142", &GRS142},
    {"GRS143", &GRS143},
    {"GRS144", &GRS144},
    {"GRS145", &GRS145},
    {"GRS146", &GRS146},
    {"GRS147", &GRS147},
    {"GRS148", &GRS148},
    {"GRS149", &GRS149},
    {"GRS150", &GRS150},
    {"GRS151", &GRS151},
    {"GRS152", &GRS152},
    {"GRS153", &GRS153},
    {"GRS154", &GRS154},
    {"GRS155", &GRS155},
    {"GRS156", &GRS156},
    {"GRS157", &GRS157},
    {"GRS160", &GRS160},
    {"GRS161", &GRS161},
    {"GRS162", &GRS162},
    {"GRS201", &GRS201},
    {"GRS202", &GRS202},
    {"GRS203", &GRS203},
    {"GRS204", &GRS204},
    {"GRS205", &GRS205},
    {"GRS206", &GRS206},
    {"GRS207", &GRS207},
    {"GRS208", &GRS208},
    {"GRS209", &GRS209},
    {"GRS210", &GRS210},
    {"GRS211", &GRS211},
    {"GRS212", &GRS212},
    {"GRS213", &GRS213},
    {"GRS214", &GRS214},
    {"GRS215", &GRS215},
    {"GRS216", &GRS216},
    {"GRS217", &GRS217},
    {"GRS218", &GRS218},
    {"GRS219", &GRS219},
    {"GRS220", &GRS220},
    {"GRS221", &GRS221},
    {"GRS222", &GRS222},
    {"GRS223", &GRS223},
    {"GRS301", &GRS301},
    {"GRS302", &GRS302},
    {"GRS303", &GRS303},
    {"GRS304", &GRS304},
    {"GRS305", &GRS305},
    {"GRS306", &GRS306},
    {"GRS310", &GRS310},
    {"GRS311", &GRS311},
    {"GRS312", &GRS312},
    {"GRS313", &GRS313},
    {"GRS314", &GRS314},
    {"GRS315", &GRS315},
    {"GRS316", &GRS316},
    {"GRS317", &GRS317},
    {"GRS401", &GRS401},
    {"GRS402", &GRS402},
    {"GRS403", &GRS403},
    {"GRS404", &GRS404},
    {"GRS405", &GRS405},
    {"GRS406", &GRS406},
    {"GRS407", &GRS407},
    {"GRS408", &GRS408},
    {"GRS410", &GRS410},
    {"GRS420", &GRS420},
    {"GRS421", &GRS421},
    {"GRS422", &GRS422},
    {"GRS423", &GRS423},
    {"GRS424", &GRS424},
    {"GRS425", &GRS425},
    {"GRS426", &GRS426},
    {"GRS440", &GRS440},
    {"GRS441", &GRS441},
    {"GRS442", &GRS442},
    {"GRS443", &GRS443},
    {"GRS501", &GRS501},
    {"GRS502", &GRS502},
    {"GRS503", &GRS503},
    {"GRS504", &GRS504},
    {"GRS505", &GRS505},
    {"GRS506", &GRS506},
    {"GRS507", &GRS507},
    {"GRS508", &GRS508},
    {"GRS600", &GRS600},
    {"GRS601", &GRS601},
    {"GRS602", &GRS602},
    {"GRS603", &GRS603},
    {"GRS604", &GRS604},
    {"GRS605", &GRS605},
    {"GRS606", &GRS606},
    {"GRS607", &GRS607},
    {"GRS608", &GRS608},
    {"GRS609", &GRS609},
    {"GRS610", &GRS610},
    {"GRS611", &GRS611},
    {"GRS612", &GRS612},
};

constexpr bool sorted_and_unique(const RuleEntry* first, const RuleEntry* last) {
  for (const RuleEntry* e = first; e + 1 < last; ++e)
    if (!(e[0].id < e[1].id)) return false;
  return true;
}
static_assert(sorted_and_unique(std::begin(kRules), std::end(kRules)), "kRules must be sorted by id, each id once");

// ----- Start-up: slurm.conf, as slurmctld reads it (slurmd reads the same) ------------------

// read_config.c's record handlers, while s_p_parse_file reads slurm.conf: a record they
// reject makes the parse fail (the generic fatal), and _validate_and_set_defaults still runs;
// NodeName=ALL is a fatal() at once, which no later error replaces (a06, gm51).
constexpr Check<SlurmConfView> kSlurmConfRecords[] = {
    {&GRS104, check_grs104, "read_config.c:_parse_nodename"},
    {&GRS103, check_grs103, "read_config.c:_parse_nodename"},
    {&GRS133, check_grs133_partition_values, "read_config.c:_parse_partitionname"},
    {&GRS136, check_grs136, "read_config.c:_parse_partitionname"},
    {&GRS137, check_grs137, "read_config.c:_parse_slurmctld_host"},
};

// read_config.c:_validate_and_set_defaults, once slurm.conf is parsed: in Slurm's order, which
// interleaves the rules (a rule appears once per key it checks). It returns at its first
// failure, so the first fatal entry decides (Analyzer::check_slurm_conf_values).
constexpr Check<SlurmConfView> kSlurmConfValues[] = {
    {&GRS120, check_grs120_cluster_name, "read_config.c:_validate_and_set_defaults ClusterName"},
    {&GRS138, check_grs138, "read_config.c:_validate_conf_nodeset_vs_nodenames"},
    {&GRS120, check_grs120_controller, "read_config.c:_load_slurmctld_host"},
    {&GRS122, check_grs122_controller_legacy_keys, "read_config.c:_load_slurmctld_host"},
    {&GRS139, check_grs139, "read_config.c:_load_slurmctld_host ControlAddr"},
    {&GRS140, check_grs140, "read_config.c:_load_slurmctld_host BackupAddr"},
    {&GRS141, check_grs141, "read_config.c:_load_slurmctld_host"},
    {&GRS122, check_grs122_sbcast_parameters, "read_config.c:_validate_and_set_defaults SbcastParameters"},
    {&GRS142, check_grs142, "read_config.c:_validate_bcast_exclude"},
    {&GRS148, check_grs148, "read_config.c:_validate_and_set_defaults CommunicationParameters"},
    {&GRS143, check_grs143, "read_config.c:_validate_and_set_defaults CommunicationParameters"},
    {&GRS122, check_grs122_def_mem, "read_config.c:_validate_and_set_defaults DefMemPerCPU"},
    {&GRS123, check_grs123_debug_flags, "read_config.c:_validate_and_set_defaults DebugFlags"},
    {&GRS123, check_grs123_enforce_part_limits, "read_config.c:_validate_and_set_defaults EnforcePartLimits"},
    {&GRS122, check_grs122_fast_schedule, "read_config.c:_validate_and_set_defaults FastSchedule"},
    {&GRS121, check_grs121_fast_schedule, "read_config.c:_validate_and_set_defaults FastSchedule"},
    {&GRS123, check_grs123_first_job_id, "read_config.c:_validate_and_set_defaults FirstJobId"},
    {&GRS124, check_grs124_job_acct_gather_params, "read_config.c:_validate_and_set_defaults JobAcctGatherParams"},
    {&GRS122, check_grs122_keep_alive_time, "read_config.c:_validate_and_set_defaults KeepAliveTime"},
    {&GRS124, check_grs124_launch_parameters, "read_config.c:_validate_and_set_defaults LaunchParameters"},
    {&GRS123, check_grs123_max_dbd_msgs, "read_config.c:_validate_and_set_defaults MaxDBDMsgs"},
    {&GRS123, check_grs123_max_job_count, "read_config.c:_validate_and_set_defaults MaxJobCount"},
    {&GRS124, check_grs124_first_job_id_above_max, "read_config.c:_validate_and_set_defaults MaxJobId"},
    {&GRS122, check_grs122_max_mem, "read_config.c:_validate_and_set_defaults MaxMemPerCPU"},
    {&GRS123, check_grs123_max_step_count, "read_config.c:_validate_and_set_defaults MaxStepCount"},
    {&GRS124, check_grs124_mcs, "read_config.c:_validate_and_set_defaults MCSPlugin"},
    {&GRS122, check_grs122_mpi_default, "read_config.c:_validate_and_set_defaults MpiDefault"},
    {&GRS121, check_grs121_accounting_storage_type, "read_config.c:_validate_and_set_defaults AccountingStorageType"},
    {&GRS123, check_grs123_accounting_storage_enforce, "read_config.c:_validate_and_set_defaults AccountingStorageEnforce"},
    {&GRS121, check_grs121_accounting_storage_loc, "read_config.c:_validate_and_set_defaults AccountingStorageLoc"},
    {&GRS121, check_grs121_accounting_store_job_comment, "read_config.c:_validate_and_set_defaults AccountingStoreJobComment"},
    {&GRS123, check_grs123_preempt_exempt_time, "read_config.c:_validate_and_set_defaults PreemptExemptTime"},
    {&GRS123, check_grs123_preempt_mode, "read_config.c:_validate_and_set_defaults PreemptMode"},
    {&GRS124, check_grs124_preempt_type, "read_config.c:_validate_and_set_defaults PreemptType"},
    {&GRS123, check_grs123_priority_times, "read_config.c:_validate_and_set_defaults PriorityDecayHalfLife"},
    {&GRS123, check_grs123_prolog_flags, "read_config.c:_validate_and_set_defaults PrologFlags"},
    {&GRS144, check_grs144, "read_config.c:_validate_and_set_defaults JobContainerType"},
    {&GRS123, check_grs123_propagate_prio_process, "read_config.c:_validate_and_set_defaults PropagatePrioProcess"},
    {&GRS123, check_grs123_propagate_resource_limits, "read_config.c:_validate_and_set_defaults PropagateResourceLimits"},
    {&GRS122, check_grs122_reconfig_flags, "read_config.c:_validate_and_set_defaults ReconfigFlags"},
    {&GRS121, check_grs121_salloc_default_command, "read_config.c:_validate_and_set_defaults SallocDefaultCommand"},
    {&GRS145, check_grs145, "read_config.c:_validate_and_set_defaults SchedulerParameters"},
    {&GRS157, check_grs157, "read_config.c:_validate_and_set_defaults SchedulerParameters"},
    {&GRS124, check_grs124_max_node_count, "read_config.c:_validate_and_set_defaults MaxNodeCount"},
    {&GRS123, check_grs123_select_type_parameters, "read_config.c:_validate_and_set_defaults SelectTypeParameters"},
    {&GRS123, check_grs123_slurmctld_log_levels, "read_config.c:_validate_and_set_defaults SlurmctldDebug"},
    {&GRS146, check_grs146, "read_config.c:_validate_and_set_defaults SlurmctldPort"},
    {&GRS149, check_grs149, "read_config.c:_validate_and_set_defaults SlurmctldParameters"},
    {&GRS123, check_grs123_slurmd_debug, "read_config.c:_validate_and_set_defaults SlurmdDebug"},
    {&GRS147, check_grs147, "read_config.c:_validate_and_set_defaults SlurmSchedLogLevel"},
    {&GRS123, check_grs123_slurmd_syslog_debug, "read_config.c:_validate_and_set_defaults SlurmdSyslogDebug"},
    {&GRS123, check_grs123_task_plugin_param, "read_config.c:_validate_and_set_defaults TaskPluginParam"},
    {&GRS124, check_grs124_linear_with_topology_tree, "read_config.c:_validate_and_set_defaults TopologyPlugin"},
    {&GRS122, check_grs122_enforce_without_slurmdbd, "controller.c:main"},
};

// controller.c:_init_tres (ctld_assoc_mgr_init): after the plugins, before read_slurm_conf
// in every release.
constexpr Check<SlurmConfView> kAccountingTres[] = {
    {&GRS135, check_grs135, "controller.c:_init_tres"},
    {&GRS404, check_grs404, "controller.c:_init_tres"},
};

// controller.c: priority_g_init loads the priority plugin, after ctld_assoc_mgr_init and
// before read_slurm_conf from 23.02 (22.05: after read_slurm_conf; Analyzer::run places it).
// licenses.c:license_init: before select_g_init up to 24.05, after gres_init from 25.05.
constexpr Check<SlurmConfView> kLicenseInit[] = {
    {&GRS134, check_grs134_invalid_licenses, "licenses.c:license_init"},
};

constexpr Check<SlurmConfView> kPriorityInit[] = {
    {&GRS132, check_grs132_priority_weight_tres, "priority_multifactor.c:_internal_setup"},
};

// select.c:select_g_init, before gres_init (so before kGresTypes).
constexpr Check<SelectPluginView> kSelectPlugin[] = {
    {&GRS125, check_grs125_select_plugin, "select.c:select_g_init"},
    {&GRS126, check_grs126_linear_select_parameters, "select.c:select_g_init"},
};

constexpr Check<GresTypesView> kGresTypes[] = {
    {&GRS112, check_grs112, "gres.c:gres_init"},
    {&GRS111, check_grs111, "gres.c:gres_init"},
    {&GRS113, check_grs113, "gres.c:gres_init"},
    {&GRS114, check_grs114, "gres.c:gres_init"},
};

// Each NodeName line on its own, with the DEFAULT lines before it. The model checks these,
// and kNodeAddress and kNodeAddressCount, before it adds any line's names to the node table
// (Analyzer::build_nodes, two cores at once): their views have no duplicates and no node
// table. A check that needs the names before the line belongs in kNodeNames.
constexpr Check<NodeNameLineView> kNodeNameLine[] = {
    {&GRS101, check_grs101, "read_config.c:_parse_nodename"},
    {&GRS151, check_grs151, "node_conf.c:config_record_from_conf_node"},
    {&GRS105, check_grs105, "node_conf.c:expand_nodeline_info"},
    {&GRS107, check_grs107, "node_conf.c:expand_nodeline_info"},
};

// After kNodeNameLine, for each NodeAddr=, BcastAddr= and NodeHostname= list of a line that
// names nodes, in that order: expand_nodeline_info makes every list before it counts any.
constexpr Check<NodeAddressView> kNodeAddress[] = {
    {&GRS105, check_grs105_address, "node_conf.c:expand_nodeline_info"},
    {&GRS153, check_grs153, "node_conf.c:expand_nodeline_info"},
};

// Then the count of each list against the names, in the same order.
constexpr Check<NodeAddressView> kNodeAddressCount[] = {
    {&GRS106, check_grs106, "node_conf.c:expand_nodeline_info"},
    {&GRS154, check_grs154, "node_conf.c:expand_nodeline_info"},
};

// Then the line's nodes one by one: expand_nodeline_info checks the address counts before it
// hands each node to its callback, so a count that does not fit stops slurmctld before the
// line's node that repeats an earlier one (s2030 m1220, gm56).
constexpr Check<NodeNameLineView> kNodeNames[] = {
    {&GRS102, check_grs102, "node_conf.c:_check_callback"},
};

constexpr Check<PartitionView> kPartition[] = {
    {&GRS108, check_grs108, "slurmctld/read_config.c:_build_bitmaps_pre_select"},
};

// slurmctld/read_config.c:read_slurm_conf reads cgroup.conf before the NodeName lines.
constexpr Check<CgroupConfView> kCgroupConf[] = {
    {&GRS160, check_grs160_cgroup_release_agent_dir, "cgroup.c:_read_slurm_cgroup_conf"},
    {&GRS161, check_grs161_cgroup_adjusted_values, "cgroup.c:_read_slurm_cgroup_conf"},
};

// read_slurm_conf once cgroup.conf is read, before the NodeName lines.
constexpr Check<SlurmConfView> kReadSlurmConf[] = {
    {&GRS155, check_grs155, "slurmctld/read_config.c:read_slurm_conf"},
    {&GRS156, check_grs156, "slurmctld/read_config.c:read_slurm_conf"},
};

// read_slurm_conf after the NodeName lines: the node table, then the partitions.
constexpr Check<NodeTableView> kNodeTable[] = {
    {&GRS127, check_grs127_max_node_count, "node_conf.c:create_node_record_at"},
    {&GRS152, check_grs152, "partition_mgr.c:set_partition_billing_weights"},
    {&GRS131, check_grs131_duplicate_partition, "slurmctld/read_config.c:_build_single_partitionline_info"},
    {&GRS128, check_grs128_no_partition, "slurmctld/read_config.c:_build_all_partitionline_info"},
    {&GRS129, check_grs129_no_default_partition, "slurmctld/read_config.c:read_slurm_conf"},
    {&GRS150, check_grs150, "slurmctld/read_config.c:read_slurm_conf"},
};

// The select plugin's node init, after the partitions' node lists (kPartition).
constexpr Check<NodeTableView> kSelectNodeInit[] = {
    {&GRS126, check_grs126_cons_select_parameters, "cons_common.c:select_p_node_init"},
    {&GRS130, check_grs130_cpus_not_cores_or_threads, "cons_common.c:select_p_node_init"},
};

// ----- gres.conf as the model reads it, before any node class -------------------------------

// Each NodeName= record line: slurmd makes a hostlist of it to find its own name in.
constexpr Check<GresConfLineView> kGresConfNodeName[] = {
    {&GRS216, check_grs216, "gres.c:_parse_gres_config NodeName"},
};

// Once every line's names are matched to slurm.conf's nodes: names no slurmd has.
constexpr Check<UnknownNodesView> kGresConfUnknownNodes[] = {
    {&GRS310, check_grs310, "gres.c:_parse_gres_config NodeName"},
};

// ----- A node class's slurm.conf Gres= ------------------------------------------------------

constexpr Check<NodeGresView> kNodeGres[] = {
    {&GRS110, check_grs110, "gres.c:gres_name_filter"},
    {&GRS115, check_grs115, "gres.c:_get_gres_cnt"},
    {&GRS117, check_grs117, "gres.c:gres_init_node_config"},
};

// ----- slurmd reads gres.conf for a node class (gres.c:gres_g_node_config_load) -----------

// gres.conf's AutoDetect= line, which gres_g_node_config_load takes once s_p_parse_file has
// read every record (_handle_global_autodetect), unless a NodeName= line set the node's own.
constexpr Check<GresLoadView> kGresConfAutoDetect[] = {
    {&GRS204, check_grs204_global, "gres.c:_parse_gres_config AutoDetect"},
};

// Each record line the node reads, in file order: _parse_gres_config's keys in its order,
// up to File=, which the model then expands (kGresRecordAfterFiles goes on from there).
constexpr Check<GresRecordView> kGresRecord[] = {
    {&GRS203, check_grs203, "gres.c:_parse_gres_config AutoDetect"},
    {&GRS204, check_grs204_line, "gres.c:_parse_gres_config AutoDetect"},
    {&GRS207, check_grs207, "gres.c:_parse_gres_config AutoDetect"},
    {&GRS202, check_grs202, "gres.c:_parse_gres_config Name"},
    {&GRS208, check_grs208, "gres.c:_parse_gres_config Cores"},
    {&GRS209, check_grs209, "gres.c:_parse_gres_config File"},
    {&GRS215, check_grs215, "gres.c:_parse_gres_config File"},
    {&GRS213, check_grs213, "gres.c:_validate_file"},
};

constexpr Check<GresRecordView> kGresRecordAfterFiles[] = {
    {&GRS210, check_grs210, "gres.c:_parse_gres_config MultipleFiles"},
    {&GRS205, check_grs205, "gres.c:_parse_gres_config Flags"},
    {&GRS206, check_grs206, "gres.c:_parse_gres_config Flags"},
    {&GRS214, check_grs214, "gres.c:_parse_gres_config Links"},
    {&GRS211, check_grs211_unreadable, "gres.c:_parse_gres_config Count"},
    {&GRS212, check_grs212, "gres.c:_parse_gres_config Count"},
    {&GRS211, check_grs211_too_large, "gres.c:_parse_gres_config Count value"},
    {&GRS201, check_grs201, "gres.c:_parse_gres_config Name"},
};

// The node's records once the file is read (Name= records first, then NodeName= ones).
constexpr Check<GresLoadView> kGresNodeRecords[] = {
    {&GRS221, check_grs221, "gres.c:_parse_gres_config File"},
    {&GRS223, check_grs223, "gres.c:gres_g_node_config_load"},
    {&GRS116, check_grs116, "gres.c:_foreach_slurm_conf"},
};

// Each GRES name in context order: the node's records of the name checked against each other
// and slurm.conf, before slurmd merges them with the slurm.conf counts.
constexpr Check<GresNameView> kGresName[] = {
    {&GRS217, check_grs217, "gres.c:_validate_gres_conf"},
    {&GRS218, check_grs218, "gres.c:_validate_gres_conf"},
    {&GRS219, check_grs219, "gres.c:_validate_gres_conf"},
    {&GRS302, check_grs302, "gres.c:_check_conf_mismatch"},
};

// Each name's plugin loads the merged records, in context order (gpu before mps and shard).
constexpr Check<GresPluginView> kGresPluginLoad[] = {
    {&GRS220, check_grs220, "gres.c:gres_node_config_load"},
    {&GRS314, check_grs314, "gres_c_s.c:gres_c_s_init_share_devices"},
    {&GRS313, check_grs313, "gres_c_s.c:_delete_leftovers"},
};

// ----- Registration: slurmctld validates what slurmd reports, per GRES name ---------------

constexpr Check<RegistrationView> kRegistrationCount[] = {
    {&GRS306, check_grs306, "gres.c:gres_node_config_unpack"},
    {&GRS316, check_grs316, "gres.c:gres_node_config_unpack"},
    {&GRS222, check_grs222, "gres.c:_node_config_validate"},
    {&GRS301, check_grs301, "gres.c:_node_config_validate"},
};

// Then, for names slurmctld tracks per device (device files with Type= or Cores=).
// _foreach_rebuild_topo walks the records once, each one's Cores= then Links=, and (24.11+)
// stops at a Cores= it cannot read or that splits a socket (RegistrationView::walk_end): the
// checks of the records before that one come first, then the one that stops it.
constexpr Check<RegistrationView> kRegistrationTopology[] = {
    {&GRS315, check_grs315, "gres.c:_foreach_rebuild_topo"},
    {&GRS312, check_grs312, "gres.c:_links_str2array"},
    {&GRS303, check_grs303, "gres.c:_foreach_rebuild_topo"},
    {&GRS311, check_grs311, "gres.c:_foreach_rebuild_topo"},
    {&GRS304, check_grs304, "gres.c:_valid_gres_type"},
    {&GRS305, check_grs305, "gres.c:_valid_gres_type"},
};

// node_mgr.c:validate_node_specs, once gres_node_config_validate has taken the node's GRES:
// the node's state decides whether the registration returns it to service.
constexpr Check<NodeRegistrationView> kRegistrationNode[] = {
    {&GRS317, check_grs317, "node_mgr.c:_set_gpu_spec"},
    {&GRS162, check_grs162, "node_mgr.c:validate_node_specs"},
};

// ----- Reported outside the stage lists -----------------------------------------------------

/// The reader reports these while it reads a file (config_reader.cpp, hostlist.cpp); GRS008
/// also where the model stops at its limits.
constexpr const RuleInfo* kReader[] = {&GRS001, &GRS002, &GRS003, &GRS004, &GRS005, &GRS006, &GRS007, &GRS008, &GRS011};
/// The suppression pass reports these over every other finding (suppress.cpp).
constexpr const RuleInfo* kSuppressions[] = {&GRS009, &GRS010};
/// node-check compares the model's per-node lines with the hardware (hardware/node_checker.cpp,
/// autodetect_check.cpp).
constexpr const RuleInfo* kHardware[] = {&GRS501, &GRS502, &GRS503, &GRS504, &GRS505, &GRS506, &GRS507, &GRS508};

template <class View>
void place(std::vector<Placement>& out, std::string_view step, const Stage<View>& stage) {
  for (const Check<View>& c : stage) out.push_back(Placement{step, stage.name(), c.rule, c.follows});
}
void place(std::vector<Placement>& out, std::string_view step, const JobStage& stage) {
  for (const JobCheck<JobView>& c : stage) out.push_back(Placement{step, stage.name(), c.rule, c.follows});
}
template <std::size_t N>
void place(std::vector<Placement>& out, std::string_view step, const RuleInfo* const (&rules)[N]) {
  for (const RuleInfo* r : rules) out.push_back(Placement{step, {}, r, {}});
}

}  // namespace

const Stage<SlurmConfView> kSlurmConfValuesStage{"slurm.conf values", kSlurmConfValues};
const Stage<SelectPluginView> kSelectPluginStage{"SelectType plugin", kSelectPlugin};
const Stage<SlurmConfView> kSlurmConfRecordsStage{"slurm.conf records", kSlurmConfRecords};
const Stage<SlurmConfView> kAccountingTresStage{"AccountingStorageTRES", kAccountingTres};
const Stage<SlurmConfView> kLicenseInitStage{"license init", kLicenseInit};
const Stage<SlurmConfView> kPriorityInitStage{"priority plugin init", kPriorityInit};
const Stage<CgroupConfView> kCgroupConfStage{"cgroup.conf", kCgroupConf};
const Stage<SlurmConfView> kReadSlurmConfStage{"read_slurm_conf", kReadSlurmConf};
const Stage<NodeTableView> kNodeTableStage{"node table and partitions", kNodeTable};
const Stage<NodeTableView> kSelectNodeInitStage{"select plugin node init", kSelectNodeInit};
const Stage<GresTypesView> kGresTypesStage{"GresTypes", kGresTypes};
const Stage<NodeNameLineView> kNodeNameLineStage{"NodeName line", kNodeNameLine};
const Stage<NodeAddressView> kNodeAddressStage{"NodeAddr/BcastAddr/NodeHostname list", kNodeAddress};
const Stage<NodeAddressView> kNodeAddressCountStage{"NodeAddr/BcastAddr/NodeHostname count", kNodeAddressCount};
const Stage<NodeNameLineView> kNodeNamesStage{"NodeName line, node by node", kNodeNames};
const Stage<PartitionView> kPartitionStage{"PartitionName line", kPartition};
const Stage<GresConfLineView> kGresConfNodeNameStage{"gres.conf NodeName= line", kGresConfNodeName};
const Stage<UnknownNodesView> kGresConfUnknownNodesStage{"gres.conf names slurm.conf lacks", kGresConfUnknownNodes};
const Stage<NodeGresView> kNodeGresStage{"node Gres=", kNodeGres};
const Stage<GresLoadView> kGresConfAutoDetectStage{"gres.conf AutoDetect=", kGresConfAutoDetect};
const Stage<GresRecordView> kGresRecordStage{"gres.conf record", kGresRecord};
const Stage<GresRecordView> kGresRecordAfterFilesStage{"gres.conf record, File= expanded", kGresRecordAfterFiles};
const Stage<GresLoadView> kGresNodeRecordsStage{"the node's gres.conf records", kGresNodeRecords};
const Stage<GresNameView> kGresNameStage{"gres.conf records of a GRES name", kGresName};
const Stage<GresPluginView> kGresPluginLoadStage{"GRES plugin load", kGresPluginLoad};
const Stage<RegistrationView> kRegistrationCountStage{"registration: counts", kRegistrationCount};
const Stage<RegistrationView> kRegistrationTopologyStage{"registration: per-device topology", kRegistrationTopology};
const Stage<NodeRegistrationView> kRegistrationNodeStage{"registration: node state", kRegistrationNode};

std::vector<Placement> placements() {
  std::vector<Placement> out;
  place(out, "reader", kReader);
  place(out, "suppressions", kSuppressions);
  place(out, "slurm.conf start-up", kSlurmConfValuesStage);
  place(out, "slurm.conf start-up", kLicenseInitStage);
  place(out, "slurm.conf start-up", kSelectPluginStage);
  place(out, "slurm.conf start-up", kGresTypesStage);
  place(out, "slurm.conf start-up", kSlurmConfRecordsStage);
  place(out, "slurm.conf start-up", kAccountingTresStage);
  place(out, "slurm.conf start-up", kPriorityInitStage);
  place(out, "slurm.conf start-up", kCgroupConfStage);
  place(out, "slurm.conf start-up", kReadSlurmConfStage);
  place(out, "slurm.conf start-up", kNodeNameLineStage);
  place(out, "slurm.conf start-up", kNodeAddressStage);
  place(out, "slurm.conf start-up", kNodeAddressCountStage);
  place(out, "slurm.conf start-up", kNodeNamesStage);
  place(out, "slurm.conf start-up", kNodeTableStage);
  place(out, "slurm.conf start-up", kPartitionStage);
  place(out, "slurm.conf start-up", kSelectNodeInitStage);
  place(out, "gres.conf read", kGresConfNodeNameStage);
  place(out, "gres.conf read", kGresConfUnknownNodesStage);
  place(out, "node Gres=", kNodeGresStage);
  place(out, "gres.conf load", kGresConfAutoDetectStage);
  place(out, "gres.conf load", kGresRecordStage);
  place(out, "gres.conf load", kGresRecordAfterFilesStage);
  place(out, "gres.conf load", kGresNodeRecordsStage);
  place(out, "gres.conf load", kGresNameStage);
  place(out, "gres.conf load", kGresPluginLoadStage);
  place(out, "registration", kRegistrationCountStage);
  place(out, "registration", kRegistrationTopologyStage);
  place(out, "registration", kRegistrationNodeStage);
  place(out, "cluster policy", kClusterPolicyStage);
  place(out, "cluster policy", kGpuPartitionStage);
  place(out, "cluster policy", kClusterPolicyNodesStage);
  for (const Check<LimitsView>& c : kLimitsStage) out.push_back(Placement{"limits", kLimitsStage.name, c.rule, c.follows});
  for (const JobLimitsCheck& c : kJobLimitsStage) out.push_back(Placement{"job", kJobLimitsStage.name, c.rule, c.follows});
  place(out, "hardware", kHardware);
  place(out, "job", kJobSubmissionStage);
  place(out, "job", kJobScriptStage);
  return out;
}

std::vector<std::pair<std::string_view, const RuleInfo*>> registry_rows() {
  std::vector<std::pair<std::string_view, const RuleInfo*>> out;
  for (const RuleEntry& e : kRules) out.emplace_back(e.id, e.rule);
  return out;
}

}  // namespace rules

bool is_hardware_rule(const RuleInfo& rule) {
  return std::find(std::begin(rules::kHardware), std::end(rules::kHardware), &rule) != std::end(rules::kHardware);
}

const std::vector<const RuleInfo*>& all_rules() {
  static const std::vector<const RuleInfo*> rules = [] {
    std::vector<const RuleInfo*> v;
    for (const rules::RuleEntry& e : rules::kRules) v.push_back(e.rule);
    return v;
  }();
  return rules;
}

const RuleInfo* find_rule(std::string_view id_or_name) {
  for (const RuleInfo* r : all_rules())
    if (r->id == id_or_name || r->name == id_or_name) return r;
  return nullptr;
}

std::string_view rule_doc(std::string_view id) {
  for (const auto& [doc_id, text] : embedded_rule_docs())
    if (doc_id == id) return text;
  return {};
}

}  // namespace greslint
