// SPDX-License-Identifier: Apache-2.0
// Every rule greslint has: its RuleInfo and its check function(s), sorted by id. Each rule
// file defines what it declares here; registry.cpp lists the rules and runs the checks in
// the step of Slurm's processing they belong to (check.hpp describes the interface).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "greslint/diagnostic.hpp"
#include "rules/check.hpp"
#include "rules/views.hpp"
#include "rules/job_view.hpp"

namespace greslint::rules {

// GRS0xx: the reader (lexical, Include and hostlist problems) and the suppression pass.
extern const RuleInfo GRS001;  // parse-error
extern const RuleInfo GRS002;  // unknown-key
extern const RuleInfo GRS003;  // invalid-value
extern const RuleInfo GRS004;  // duplicate-key
extern const RuleInfo GRS005;  // include-failed
extern const RuleInfo GRS006;  // empty-value-takes-next-token
extern const RuleInfo GRS007;  // continuation-joins-tokens
extern const RuleInfo GRS008;  // unreadable-input
extern const RuleInfo GRS009;  // unknown-suppression
extern const RuleInfo GRS010;  // unused-suppression
extern const RuleInfo GRS011;  // include-outside-checkout

// GRS1xx: slurm.conf.
extern const RuleInfo GRS101;  // node-topology-reset
Outcome check_grs101(const NodeNameLineView&, Findings&);
extern const RuleInfo GRS102;  // duplicate-node-name
Outcome check_grs102(const NodeNameLineView&, Findings&);
extern const RuleInfo GRS103;  // reserved-node-name
Outcome check_grs103(const SlurmConfView&, Findings&);
extern const RuleInfo GRS104;  // address-on-default-node
Outcome check_grs104(const SlurmConfView&, Findings&);
extern const RuleInfo GRS105;  // invalid-node-hostlist
Outcome check_grs105(const NodeNameLineView&, Findings&);
Outcome check_grs105_address(const NodeAddressView&, Findings&);
extern const RuleInfo GRS106;  // node-address-count-mismatch
Outcome check_grs106(const NodeAddressView&, Findings&);
extern const RuleInfo GRS107;  // invalid-node-state
Outcome check_grs107(const NodeNameLineView&, Findings&);
extern const RuleInfo GRS108;  // partition-unknown-node
Outcome check_grs108(const PartitionView&, Findings&);
extern const RuleInfo GRS110;  // gres-not-in-grestypes
Outcome check_grs110(const NodeGresView&, Findings&);
extern const RuleInfo GRS111;  // shared-gres-without-gpu
Outcome check_grs111(const GresTypesView&, Findings&);
extern const RuleInfo GRS112;  // duplicate-grestypes-entry
Outcome check_grs112(const GresTypesView&, Findings&);
extern const RuleInfo GRS113;  // grestypes-hash-collision
Outcome check_grs113(const GresTypesView&, Findings&);
extern const RuleInfo GRS114;  // shared-gres-without-cons-tres
Outcome check_grs114(const GresTypesView&, Findings&);
extern const RuleInfo GRS115;  // bad-gres-count
Outcome check_grs115(const NodeGresView&, Findings&);
extern const RuleInfo GRS116;  // mixed-typed-untyped-gres
Outcome check_grs116(const GresLoadView&, Findings&);

extern const RuleInfo GRS117;  // shared-gres-count-without-gpu
Outcome check_grs117(const NodeGresView&, Findings&);
extern const RuleInfo GRS120;  // required-setting-missing
Outcome check_grs120_cluster_name(const SlurmConfView&, Findings&);
Outcome check_grs120_controller(const SlurmConfView&, Findings&);
extern const RuleInfo GRS121;  // removed-option
Outcome check_grs121_fast_schedule(const SlurmConfView&, Findings&);
Outcome check_grs121_accounting_storage_type(const SlurmConfView&, Findings&);
Outcome check_grs121_accounting_storage_loc(const SlurmConfView&, Findings&);
Outcome check_grs121_accounting_store_job_comment(const SlurmConfView&, Findings&);
Outcome check_grs121_salloc_default_command(const SlurmConfView&, Findings&);
extern const RuleInfo GRS122;  // obsolete-setting-ignored
Outcome check_grs122_controller_legacy_keys(const SlurmConfView&, Findings&);
Outcome check_grs122_sbcast_parameters(const SlurmConfView&, Findings&);
Outcome check_grs122_def_mem(const SlurmConfView&, Findings&);
Outcome check_grs122_fast_schedule(const SlurmConfView&, Findings&);
Outcome check_grs122_keep_alive_time(const SlurmConfView&, Findings&);
Outcome check_grs122_max_mem(const SlurmConfView&, Findings&);
Outcome check_grs122_mpi_default(const SlurmConfView&, Findings&);
Outcome check_grs122_reconfig_flags(const SlurmConfView&, Findings&);
Outcome check_grs122_enforce_without_slurmdbd(const SlurmConfView&, Findings&);
extern const RuleInfo GRS123;  // invalid-startup-value
Outcome check_grs123_debug_flags(const SlurmConfView&, Findings&);
Outcome check_grs123_enforce_part_limits(const SlurmConfView&, Findings&);
Outcome check_grs123_first_job_id(const SlurmConfView&, Findings&);
Outcome check_grs123_max_dbd_msgs(const SlurmConfView&, Findings&);
Outcome check_grs123_max_job_count(const SlurmConfView&, Findings&);
Outcome check_grs123_max_step_count(const SlurmConfView&, Findings&);
Outcome check_grs123_accounting_storage_enforce(const SlurmConfView&, Findings&);
Outcome check_grs123_preempt_exempt_time(const SlurmConfView&, Findings&);
Outcome check_grs123_preempt_mode(const SlurmConfView&, Findings&);
Outcome check_grs123_priority_times(const SlurmConfView&, Findings&);
Outcome check_grs123_prolog_flags(const SlurmConfView&, Findings&);
Outcome check_grs123_propagate_prio_process(const SlurmConfView&, Findings&);
Outcome check_grs123_propagate_resource_limits(const SlurmConfView&, Findings&);
Outcome check_grs123_select_type_parameters(const SlurmConfView&, Findings&);
Outcome check_grs123_slurmctld_log_levels(const SlurmConfView&, Findings&);
Outcome check_grs123_slurmd_debug(const SlurmConfView&, Findings&);
Outcome check_grs123_slurmd_syslog_debug(const SlurmConfView&, Findings&);
Outcome check_grs123_task_plugin_param(const SlurmConfView&, Findings&);
extern const RuleInfo GRS124;  // conflicting-startup-settings
Outcome check_grs124_job_acct_gather_params(const SlurmConfView&, Findings&);
Outcome check_grs124_launch_parameters(const SlurmConfView&, Findings&);
Outcome check_grs124_first_job_id_above_max(const SlurmConfView&, Findings&);
Outcome check_grs124_mcs(const SlurmConfView&, Findings&);
Outcome check_grs124_preempt_type(const SlurmConfView&, Findings&);
Outcome check_grs124_max_node_count(const SlurmConfView&, Findings&);
Outcome check_grs124_linear_with_topology_tree(const SlurmConfView&, Findings&);
extern const RuleInfo GRS125;  // select-plugin-missing
Outcome check_grs125_select_plugin(const SelectPluginView&, Findings&);
extern const RuleInfo GRS126;  // select-parameters-for-plugin
Outcome check_grs126_linear_select_parameters(const SelectPluginView&, Findings&);
Outcome check_grs126_cons_select_parameters(const NodeTableView&, Findings&);
extern const RuleInfo GRS127;  // max-node-count-exceeded
Outcome check_grs127_max_node_count(const NodeTableView&, Findings&);
extern const RuleInfo GRS128;  // no-partition
Outcome check_grs128_no_partition(const NodeTableView&, Findings&);
extern const RuleInfo GRS129;  // no-default-partition
Outcome check_grs129_no_default_partition(const NodeTableView&, Findings&);
extern const RuleInfo GRS130;  // cpus-not-cores-or-threads
Outcome check_grs130_cpus_not_cores_or_threads(const NodeTableView&, Findings&);
extern const RuleInfo GRS131;  // duplicate-partition
Outcome check_grs131_duplicate_partition(const NodeTableView&, Findings&);
extern const RuleInfo GRS132;  // invalid-priority-weight-tres
Outcome check_grs132_priority_weight_tres(const SlurmConfView&, Findings&);
extern const RuleInfo GRS133;  // partition-bad-value
Outcome check_grs133_partition_values(const SlurmConfView&, Findings&);
extern const RuleInfo GRS134;  // invalid-licenses
Outcome check_grs134_invalid_licenses(const SlurmConfView&, Findings&);
extern const RuleInfo GRS135;  // invalid-accounting-tres
Outcome check_grs135(const SlurmConfView&, Findings&);
/// Why _init_tres exits at TRES `tres` whatever the accounting storage, if it does.
std::optional<std::string> init_tres_refuses(std::string_view tres, const VersionProfile& profile);
/// Where `word` (lower-case) is in AccountingStorageTRES's value; the whole value if not found.
Span tres_word_span(const KeyValue& tres, std::string_view word);
// cgroup.conf (GRS16x).
extern const RuleInfo GRS136;  // partition-preempt-gang-ignored
Outcome check_grs136(const SlurmConfView&, Findings&);
extern const RuleInfo GRS137;  // bad-slurmctld-host
Outcome check_grs137(const SlurmConfView&, Findings&);
extern const RuleInfo GRS138;  // nodeset-named-like-node
Outcome check_grs138(const SlurmConfView&, Findings&);
extern const RuleInfo GRS139;  // control-machine-without-addr
Outcome check_grs139(const SlurmConfView&, Findings&);
extern const RuleInfo GRS140;  // backup-addr-without-controller
Outcome check_grs140(const SlurmConfView&, Findings&);
extern const RuleInfo GRS141;  // duplicate-slurmctld-host
Outcome check_grs141(const SlurmConfView&, Findings&);
extern const RuleInfo GRS142;  // bcast-exclude-relative-path
Outcome check_grs142(const SlurmConfView&, Findings&);
extern const RuleInfo GRS143;  // ip-versions-disabled
Outcome check_grs143(const SlurmConfView&, Findings&);
extern const RuleInfo GRS144;  // namespace-needs-prolog-contain
Outcome check_grs144(const SlurmConfView&, Findings&);
extern const RuleInfo GRS145;  // max-script-size-too-large
Outcome check_grs145(const SlurmConfView&, Findings&);
extern const RuleInfo GRS146;  // invalid-slurmctld-port
Outcome check_grs146(const SlurmConfView&, Findings&);
extern const RuleInfo GRS147;  // sched-log-level-without-file
Outcome check_grs147(const SlurmConfView&, Findings&);
extern const RuleInfo GRS148;  // defunct-no-addr-cache
Outcome check_grs148(const SlurmConfView&, Findings&);
extern const RuleInfo GRS149;  // defunct-cloud-reg-addrs
Outcome check_grs149(const SlurmConfView&, Findings&);
extern const RuleInfo GRS150;  // no-nodes
Outcome check_grs150(const NodeTableView&, Findings&);
extern const RuleInfo GRS151;  // invalid-node-tres-weights
Outcome check_grs151(const NodeNameLineView&, Findings&);
extern const RuleInfo GRS152;  // invalid-partition-billing-weights
Outcome check_grs152(const NodeTableView&, Findings&);
extern const RuleInfo GRS153;  // invalid-bcast-addr-list
Outcome check_grs153(const NodeAddressView&, Findings&);
extern const RuleInfo GRS154;  // bcast-addr-count-mismatch
Outcome check_grs154(const NodeAddressView&, Findings&);
extern const RuleInfo GRS155;  // memory-enforced-twice
Outcome check_grs155(const SlurmConfView&, Findings&);
extern const RuleInfo GRS156;  // stepmgr-without-contain
Outcome check_grs156(const SlurmConfView&, Findings&);
extern const RuleInfo GRS157;  // max-submit-line-size-too-large
Outcome check_grs157(const SlurmConfView&, Findings&);
extern const RuleInfo GRS160;  // cgroup-removed-option
Outcome check_grs160_cgroup_release_agent_dir(const CgroupConfView&, Findings&);
extern const RuleInfo GRS161;  // cgroup-setting-ignored
Outcome check_grs161_cgroup_adjusted_values(const CgroupConfView&, Findings&);

// GRS2xx: gres.conf.
extern const RuleInfo GRS201;  // gres-conf-name-not-in-grestypes
Outcome check_grs201(const GresRecordView&, Findings&);
extern const RuleInfo GRS202;  // gres-conf-line-without-name
Outcome check_grs202(const GresRecordView&, Findings&);
extern const RuleInfo GRS203;  // inline-autodetect-on-name-line
Outcome check_grs203(const GresRecordView&, Findings&);
extern const RuleInfo GRS204;  // unknown-autodetect
Outcome check_grs204_global(const GresLoadView&, Findings&);
Outcome check_grs204_line(const GresRecordView&, Findings&);
extern const RuleInfo GRS205;  // no-gpu-env-with-other-env
Outcome check_grs205(const GresRecordView&, Findings&);
extern const RuleInfo GRS206;  // flags-mismatch
Outcome check_grs206(const GresRecordView&, Findings&);
extern const RuleInfo GRS207;  // conflicting-node-autodetect
Outcome check_grs207(const GresRecordView&, Findings&);
extern const RuleInfo GRS208;  // cores-out-of-range
Outcome check_grs208(const GresRecordView&, Findings&);
extern const RuleInfo GRS209;  // file-and-multiplefiles
Outcome check_grs209(const GresRecordView&, Findings&);
extern const RuleInfo GRS210;  // multiplefiles-single-file
Outcome check_grs210(const GresRecordView&, Findings&);
extern const RuleInfo GRS211;  // invalid-count
Outcome check_grs211_unreadable(const GresRecordView&, Findings&);
Outcome check_grs211_too_large(const GresRecordView&, Findings&);
extern const RuleInfo GRS212;  // count-differs-from-files
Outcome check_grs212(const GresRecordView&, Findings&);
extern const RuleInfo GRS213;  // glued-device-path
Outcome check_grs213(const GresRecordView&, Findings&);
extern const RuleInfo GRS214;  // invalid-links
Outcome check_grs214(const GresRecordView&, Findings&);
extern const RuleInfo GRS215;  // invalid-file-hostlist
Outcome check_grs215(const GresRecordView&, Findings&);
extern const RuleInfo GRS216;  // invalid-gres-nodename
Outcome check_grs216(const GresConfLineView&, Findings&);
extern const RuleInfo GRS217;  // mixed-file-records
Outcome check_grs217(const GresNameView&, Findings&);
extern const RuleInfo GRS218;  // mixed-type-records
Outcome check_grs218(const GresNameView&, Findings&);
extern const RuleInfo GRS219;  // duplicate-untyped-records
Outcome check_grs219(const GresNameView&, Findings&);
extern const RuleInfo GRS220;  // duplicate-device-file
Outcome check_grs220(const GresPluginView&, Findings&);
extern const RuleInfo GRS221;  // global-device-line
Outcome check_grs221(const GresLoadView&, Findings&);
extern const RuleInfo GRS222;  // autodetect-unverifiable
Outcome check_grs222(const RegistrationView&, Findings&);
extern const RuleInfo GRS223;  // autodetect-on-cloud-node
Outcome check_grs223(const GresLoadView&, Findings&);

// GRS3xx: slurm.conf against gres.conf.
extern const RuleInfo GRS301;  // count-lower-than-configured
Outcome check_grs301(const RegistrationView&, Findings&);
extern const RuleInfo GRS302;  // gres-conf-excess-ignored
Outcome check_grs302(const GresNameView&, Findings&);
extern const RuleInfo GRS303;  // invalid-cores-invalidates-node
Outcome check_grs303(const RegistrationView&, Findings&);
extern const RuleInfo GRS304;  // per-type-count-too-low
Outcome check_grs304(const RegistrationView&, Findings&);
extern const RuleInfo GRS305;  // type-not-configured
Outcome check_grs305(const RegistrationView&, Findings&);
extern const RuleInfo GRS306;  // name-case-mismatch
Outcome check_grs306(const RegistrationView&, Findings&);
extern const RuleInfo GRS310;  // gres-conf-unknown-node
Outcome check_grs310(const UnknownNodesView&, Findings&);
extern const RuleInfo GRS311;  // cores-split-socket
Outcome check_grs311(const RegistrationView&, Findings&);
/// Whether slurmctld's socket-boundary check (24.11+) rejects this record's Cores=.
bool splits_socket(const GresRecord& r, const RegistrationView& v);
extern const RuleInfo GRS312;  // links-longer-than-gpus
Outcome check_grs312(const RegistrationView&, Findings&);
extern const RuleInfo GRS313;  // shared-file-unmatched
Outcome check_grs313(const GresPluginView&, Findings&);
extern const RuleInfo GRS314;  // shared-gres-without-gpu-files
Outcome check_grs314(const GresPluginView&, Findings&);
extern const RuleInfo GRS315;  // cores-on-some-records
Outcome check_grs315(const RegistrationView&, Findings&);

extern const RuleInfo GRS316;  // gres-record-lacks-file
Outcome check_grs316(const RegistrationView&, Findings&);

// GRS4xx: cluster policy (Slurm starts, the GPU pool misbehaves).
extern const RuleInfo GRS401;  // gpu-not-accounted
Outcome check_grs401(const PolicyView&, Findings&);
extern const RuleInfo GRS402;  // typed-gpu-tres-only
Outcome check_grs402(const PolicyView&, Findings&);
extern const RuleInfo GRS403;  // gpu-limits-not-enforced
Outcome check_grs403(const PolicyView&, Findings&);
extern const RuleInfo GRS404;  // tres-needs-slurmdbd
Outcome check_grs404(const SlurmConfView&, Findings&);
/// Whether AccountingStorageType is slurmdbd (slurm_with_slurmdbd).
bool uses_slurmdbd(const Settings& settings);
/// Whether TRES `tres` needs an id from slurmdbd (every type but the fixed cpu, mem, energy,
/// node, billing, fs/disk, vmem and pages).
bool tres_needs_slurmdbd(std::string_view tres);
extern const RuleInfo GRS405;  // gpus-without-cons-tres
Outcome check_grs405(const PolicyView&, Findings&);
extern const RuleInfo GRS406;  // gpus-not-isolated
Outcome check_grs406(const PolicyView&, Findings&);
extern const RuleInfo GRS407;  // gpu-partition-without-gpus
Outcome check_grs407(const GpuPartitionView&, Findings&);
extern const RuleInfo GRS408;  // gpu-node-in-no-partition
Outcome check_grs408(const PolicyView&, Findings&);
extern const RuleInfo GRS410;  // autodetect-needs-library
Outcome check_grs410(const PolicyView&, Findings&);

// GRS5xx: the configuration against the node's hardware (greslint node-check).
extern const RuleInfo GRS501;  // device-file-missing
extern const RuleInfo GRS502;  // gpu-not-configured
extern const RuleInfo GRS503;  // gpu-count-drains-node
extern const RuleInfo GRS504;  // cores-not-gpu-local
extern const RuleInfo GRS505;  // cpu-ids-as-core-ids
extern const RuleInfo GRS506;  // node-topology-differs
extern const RuleInfo GRS507;  // type-not-in-model-name
extern const RuleInfo GRS508;  // autodetect-affinity-splits-socket

// GRS6xx: job scripts against the cluster (greslint job; src/job/, JobView).
extern const RuleInfo GRS600;  // job-placement
JobOutcome check_grs600(const JobView&, Reporter&);
extern const RuleInfo GRS601;  // job-gres-invalid
JobOutcome check_grs601(const JobView&, Reporter&);
extern const RuleInfo GRS602;  // job-no-node-fits
JobOutcome check_grs602(const JobView&, Reporter&);
extern const RuleInfo GRS603;  // job-gpu-type-unknown
JobOutcome check_grs603(const JobView&, Reporter&);
extern const RuleInfo GRS604;  // job-never-starts
JobOutcome check_grs604(const JobView&, Reporter&);
extern const RuleInfo GRS605;  // job-mixes-gres-and-gpus
JobOutcome check_grs605(const JobView&, Reporter&);
extern const RuleInfo GRS606;  // job-sets-visible-devices
JobOutcome check_grs606(const JobView&, Reporter&);
extern const RuleInfo GRS607;  // job-invalid-partition
JobOutcome check_grs607(const JobView&, Reporter&);
extern const RuleInfo GRS608;  // job-invalid-feature
JobOutcome check_grs608(const JobView&, Reporter&);
extern const RuleInfo GRS609;  // job-gpus-per-task-without-tasks
JobOutcome check_grs609(const JobView&, Reporter&);
extern const RuleInfo GRS610;  // job-invalid-gres-flags
JobOutcome check_grs610(const JobView&, Reporter&);
extern const RuleInfo GRS611;  // job-conflicting-options
JobOutcome check_grs611(const JobView&, Reporter&);
extern const RuleInfo GRS612;  // step-exceeds-job-gpus
JobOutcome check_grs612(const JobView&, Reporter&);

}  // namespace greslint::rules
