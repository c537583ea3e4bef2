// SPDX-License-Identifier: Apache-2.0
// Which keys each Slurm release accepts in slurm.conf, its records, gres.conf and cgroup.conf.
//
// The rows were read from the s_p_options_t arrays of SchedMD/slurm at the newest patch tag of
// each release (22.05.11, 23.02.8, 23.11.11, 24.05.8, 24.11.7, 25.05.8, 25.11.7, 26.05.3) and
// at master 284c3b95f08a (26.11 in development); docs/slurm-keys.md says where and how to
// refresh them. A key is looked up once per key=value pair of a 100,000-node configuration, so
// the tables are sorted at compile time and searched without allocating.
#include "greslint/keys.hpp"

#include <algorithm>
#include <array>
#include <iterator>

namespace greslint {
namespace {

constexpr ValueType Str = ValueType::string;
constexpr ValueType U16 = ValueType::uint16;
constexpr ValueType U32 = ValueType::uint32;
constexpr ValueType U64 = ValueType::uint64;
constexpr ValueType Arr = ValueType::array;
constexpr ValueType Bool = ValueType::boolean;
constexpr ValueType Flt = ValueType::float_;

constexpr SlurmVersion k2205 = kSlurm2205;
constexpr SlurmVersion k2302 = kSlurm2302;
constexpr SlurmVersion k2311 = kSlurm2311;
constexpr SlurmVersion k2405 = kSlurm2405;
constexpr SlurmVersion k2411 = kSlurm2411;
constexpr SlurmVersion k2505 = kSlurm2505;
constexpr SlurmVersion k2511 = kSlurm2511;
constexpr SlurmVersion k2605 = kSlurm2605;
constexpr SlurmVersion kNext = kSlurmNext;
constexpr SlurmVersion kStill{};  // `until` of a row no release has ended

constexpr KeySpec key(std::string_view name, ValueType type, SlurmVersion since = k2205,
                      SlurmVersion until = kStill) noexcept {
  return {name, type, since, until, false};
}

// Slurm swaps the value handler for one that only logs "The option ... is defunct", so the
// value of such a key is never converted: CgroupAutomount=maybe is accepted as well.
constexpr KeySpec defunct(std::string_view name, ValueType type, SlurmVersion since,
                          SlurmVersion until = kStill) noexcept {
  return {name, type, since, until, true};
}

constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

// Slurm hashes keys lower-cased and compares them with xstrcasecmp; ASCII folding matches it.
constexpr int compare_ci(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto ca = static_cast<unsigned char>(ascii_lower(a[i]));
    const auto cb = static_cast<unsigned char>(ascii_lower(b[i]));
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// ---- slurm.conf, top level (read_config.c: slurm_conf_options) ----
// DownNodes, FrontendName, NodeName, NodeSet, PartitionName, PowerAction and SlurmctldHost are
// S_P_ARRAY keys whose handler parses the rest of the line (see kRecordKeys); other Arr keys
// are plain repeatable values.
constexpr std::array kSlurmConf{
    key("AccountingStorageBackupHost", Str),
    key("AccountingStorageEnforce", Str),
    key("AccountingStorageExternalHost", Str),
    key("AccountingStorageHost", Str),
    key("AccountingStorageLoc", Str, k2205, k2511),
    key("AccountingStorageParameters", Str),
    key("AccountingStoragePass", Str),
    key("AccountingStoragePort", U16),
    key("AccountingStorageTRES", Str),
    key("AccountingStorageType", Str),
    key("AccountingStorageUser", Str, k2205, k2511),
    defunct("AccountingStorageUser", Str, k2511),
    key("AccountingStoreFlags", Str),
    key("AccountingStoreJobComment", Bool),
    key("AcctGatherEnergyType", Str),
    key("AcctGatherFilesystemType", Str),
    key("AcctGatherInfinibandType", Str),
    key("AcctGatherInterconnectType", Str),
    key("AcctGatherNodeFreq", U16),
    key("AcctGatherProfileType", Str),
    key("AllowSpecResourcesUsage", Bool),
    key("AuthAltParameters", Str),
    key("AuthAltTypes", Str),
    key("AuthInfo", Str),
    key("AuthType", Str),
    key("BackupAddr", Str),
    key("BackupController", Str),
    key("BatchStartTimeout", U16),
    key("BcastExclude", Str),
    key("BcastParameters", Str),
    key("BurstBufferParameters", Str),
    key("BurstBufferType", Str),
    key("CertgenParameters", Str, k2505),
    key("CertgenType", Str, k2505),
    key("CertmgrParameters", Str, k2411),
    key("CertmgrType", Str, k2411),
    key("CliFilterParameters", Str, k2511),
    key("CliFilterPlugins", Str),
    key("ClusterName", Str),
    key("CommunicationParameters", Str),
    key("CompleteWait", U16),
    key("ControlAddr", Str),
    key("ControlMachine", Str),
    key("CoreSpecPlugin", Str, k2205, k2405),
    defunct("CoreSpecPlugin", Str, k2405),
    key("CpuFreqDef", Str),
    key("CpuFreqGovernors", Str),
    key("CredType", Str),
    key("CryptoType", Str),
    key("DataParserParameters", Str, k2411),
    key("DebugFlags", Str),
    key("DefCPUPerGPU", U64),
    key("DefMemPerCPU", U64),
    key("DefMemPerGPU", U64),
    key("DefMemPerNode", U64),
    key("DefRuntimePlugin", Str, kNext),  // kNext rows: master only, unknown to 26.05
    key("DependencyParameters", Str),
    key("DisableRootJobs", Bool),
    key("DownNodes", Arr),
    key("EioTimeout", U16),
    key("EnforcePartLimits", Str),
    // Before 24.05 a second script line replaced the first ("specified more than once");
    // from 24.05 each line adds a script. Same for EpilogSlurmctld, Prolog, PrologSlurmctld.
    key("Epilog", Str, k2205, k2405),
    key("Epilog", Arr, k2405),
    key("EpilogMsgTime", U32),
    key("EpilogSlurmctld", Str, k2205, k2405),
    key("EpilogSlurmctld", Arr, k2405),
    key("EpilogTimeout", U16, k2505),
    key("ExtSensorsFreq", U16, k2205, k2311),
    defunct("ExtSensorsFreq", U16, k2311),
    key("ExtSensorsType", Str, k2205, k2311),
    defunct("ExtSensorsType", Str, k2311),
    key("FairShareDampeningFactor", U16),
    key("FastSchedule", U16),
    key("FederationParameters", Str),
    key("FirstJobId", U32),
    key("FrontendName", Arr, k2205, k2505),  // front-end mode was dropped in 25.05
    key("GetEnvTimeout", U16, k2205, k2505),
    defunct("GetEnvTimeout", U16, k2505),
    key("GpuFreqDef", Str),
    key("GresTypes", Str),
    key("GroupUpdateForce", U16),
    key("GroupUpdateTime", U16),
    key("HashPlugin", Str, k2405),
    key("HealthCheckInterval", U16),
    key("HealthCheckNodeState", Str),
    key("HealthCheckProgram", Str),
    key("HealthCheckTimeout", U16, k2605),
    key("HttpParserType", Str, k2511),
    key("InactiveLimit", U16),
    key("InteractiveStepOptions", Str),
    key("JobAcctGatherFrequency", Str),
    key("JobAcctGatherParams", Str),
    key("JobAcctGatherType", Str),
    key("JobCompHost", Str),
    key("JobCompLoc", Str),
    key("JobCompParams", Str),
    key("JobCompPass", Str),
    key("JobCompPassScript", Str, k2511),
    key("JobCompPort", U32),
    key("JobCompType", Str),
    key("JobCompUser", Str),
    key("JobContainerType", Str),
    key("JobCredentialPrivateKey", Str, k2205, k2311),
    defunct("JobCredentialPrivateKey", Str, k2311),
    key("JobCredentialPublicCertificate", Str, k2205, k2311),
    defunct("JobCredentialPublicCertificate", Str, k2311),
    key("JobFileAppend", U16),
    key("JobRequeue", U16),
    key("JobSubmitPlugins", Str),
    key("KeepAliveTime", U32),
    key("KillOnBadExit", U16),
    key("KillWait", U16),
    key("LaunchParameters", Str),
    key("LaunchType", Str),
    key("LicenseParameters", Str, k2605),
    key("Licenses", Str),
    key("LogTimeFormat", Str),
    key("MailDomain", Str),
    key("MailProg", Str),
    key("MaxArraySize", U32),
    key("MaxBatchRequeue", U32, k2302),
    key("MaxDBDMsgs", U32),
    key("MaxJobCount", U32),
    key("MaxJobId", U32),
    key("MaxMemPerCPU", U64),
    key("MaxMemPerNode", U64),
    key("MaxNodeCount", U32),
    key("MaxStepCount", U32),
    key("MaxTasksPerNode", U16),
    key("MCSParameters", Str),
    key("MCSPlugin", Str),
    key("MessageTimeout", U16),
    key("MetricsAuthUsers", Str, k2605),
    key("MetricsParameters", Str, k2605),
    key("MetricsType", Str, k2511),
    key("MinJobAge", U32),
    key("MpiDefault", Str),
    key("MpiParams", Str),
    key("NamespaceType", Str, k2511),
    key("NodeFeaturesPlugins", Str),
    key("NodeName", Arr),
    key("NodeSet", Arr),
    key("OverTimeLimit", U16),
    key("PartitionName", Arr),
    key("PluginDir", Str),
    key("PlugStackConfig", Str),
    key("PowerAction", Arr, k2605),
    key("PowerParameters", Str, k2205, k2405),
    defunct("PowerParameters", Str, k2405),
    key("PowerPlugin", Str, k2205, k2405),
    defunct("PowerPlugin", Str, k2405),
    key("PreemptExemptTime", Str),
    key("PreemptMode", Str),
    key("PreemptParameters", Str, k2302),
    key("PreemptType", Str),
    key("PrEpParameters", Str),
    key("PrEpPlugins", Str),
    key("PriorityCalcPeriod", Str),
    key("PriorityDecayHalfLife", Str),
    key("PriorityFavorSmall", Bool),
    key("PriorityFlags", Str),
    key("PriorityMaxAge", Str),
    key("PriorityParameters", Str),
    key("PrioritySiteFactorParameters", Str),
    key("PrioritySiteFactorPlugin", Str),
    key("PriorityType", Str),
    key("PriorityUsageResetPeriod", Str),
    key("PriorityWeightAge", U32),
    key("PriorityWeightAssoc", U32),
    key("PriorityWeightFairshare", U32),
    key("PriorityWeightJobSize", U32),
    key("PriorityWeightPartition", U32),
    key("PriorityWeightQOS", U32),
    key("PriorityWeightTRES", Str),
    key("PrivateData", Str),
    key("ProctrackType", Str),
    key("Prolog", Str, k2205, k2405),
    key("Prolog", Arr, k2405),
    key("PrologEpilogTimeout", U16),
    key("PrologFlags", Str),
    key("PrologSlurmctld", Str, k2205, k2405),
    key("PrologSlurmctld", Arr, k2405),
    key("PrologTimeout", U16, k2505),
    key("PropagatePrioProcess", U16),
    key("PropagateResourceLimits", Str),
    key("PropagateResourceLimitsExcept", Str),
    key("RebootProgram", Str),
    key("ReconfigFlags", Str),
    key("RequeueExit", Str),
    key("RequeueExitHold", Str),
    key("ResumeFailProgram", Str),
    key("ResumeProgram", Str),
    key("ResumeRate", U16),
    key("ResumeTimeout", U16),
    key("ResvEpilog", Str),
    key("ResvOverRun", U16),
    key("ResvProlog", Str),
    key("ReturnToService", U16),
    key("RoutePlugin", Str),
    key("SallocDefaultCommand", Str),
    key("SbcastParameters", Str),
    defunct("SchedulerAuth", Str, k2205, k2405),
    key("SchedulerParameters", Str),
    key("SchedulerTimeSlice", U16),
    key("SchedulerType", Str),
    key("ScronParameters", Str),
    key("SelectType", Str),
    key("SelectTypeParameters", Str),
    key("SerializerParameters", Str, kNext),
    key("SerializerPlugins", Str, kNext),
    key("SlurmctldAddr", Str),
    key("SlurmctldDebug", Str),
    key("SlurmctldHost", Arr),
    key("SlurmctldHttpAuthParameters", Str, k2605),
    key("SlurmctldLogFile", Str),
    key("SlurmctldParameters", Str),
    key("SlurmctldPidFile", Str),
    key("SlurmctldPlugstack", Str, k2205, k2302),
    key("SlurmctldPort", Str),
    key("SlurmctldPrimaryOffProg", Str),
    key("SlurmctldPrimaryOnProg", Str),
    key("SlurmctldSyslogDebug", Str),
    key("SlurmctldTimeout", U16),
    key("SlurmdDebug", Str),
    key("SlurmdHttpAuthParameters", Str, k2605),
    key("SlurmdLogFile", Str),
    key("SlurmdParameters", Str),
    key("SlurmdPidFile", Str),
    key("SlurmdPort", U32),
    key("SlurmdSpoolDir", Str),
    key("SlurmdSyslogDebug", Str),
    key("SlurmdTimeout", U16),
    key("SlurmdUser", Str),
    key("SlurmrestdHttpAuthParameters", Str, kNext),
    key("SlurmrestdParameters", Str, kNext),
    key("SlurmSchedLogFile", Str),
    key("SlurmSchedLogLevel", U16),
    key("SlurmstepdParameters", Str, kNext),
    key("SlurmUser", Str),
    key("SrunEpilog", Str),
    key("SrunPortRange", Str),
    key("SrunProlog", Str),
    key("StateSaveLocation", Str),
    key("SuspendExcNodes", Str),
    key("SuspendExcParts", Str),
    key("SuspendExcStates", Str, k2302),
    key("SuspendProgram", Str),
    key("SuspendRate", U16),
    key("SuspendTime", Str),
    key("SuspendTimeout", U16),
    key("SwitchParameters", Str),
    key("SwitchType", Str),
    key("TaskEpilog", Str),
    key("TaskPlugin", Str),
    key("TaskPluginParam", Str),
    key("TaskProlog", Str),
    key("TCPTimeout", U16),
    key("TLSParameters", Str, k2405),
    key("TLSType", Str, k2405),
    key("TmpFS", Str),
    key("TopologyParam", Str),
    key("TopologyPlugin", Str),
    key("TrackWCKey", Bool),
    key("TreeWidth", U16),
    key("UnkillableStepProgram", Str),
    key("UnkillableStepTimeout", U16),
    key("UrlParserType", Str, k2511),
    key("UsePAM", Bool),
    key("VSizeFactor", U16),
    key("WaitTime", U16),
    key("X11Parameters", Str),
};

// ---- inside NodeName= (read_config.c: _parse_nodename) ----
constexpr std::array kNodeName{
    key("BcastAddr", Str),
    key("Boards", U16),
    key("CoreSpecCount", U16),
    key("CoresPerSocket", U16),
    key("CpuBind", Str),
    key("CPUs", U16),
    key("CPUSpecList", Str),
    key("Feature", Str),
    key("Features", Str),
    key("Gres", Str),
    key("GresConf", Str, k2511),
    key("MemSpecLimit", U64),
    key("NodeAddr", Str),
    key("NodeHostname", Str),
    key("Parameters", Str, k2511),
    key("Port", Str),
    key("Procs", U16),
    key("RealMemory", U64),
    key("Reason", Str),
    key("RestrictedCoresPerGPU", U16, k2405),
    key("Sockets", U16),
    key("SocketsPerBoard", U16),
    key("State", Str),
    key("SuspendTime", Str, k2605),
    key("ThreadsPerCore", U16),
    key("TmpDisk", U32),
    key("Topology", Str, k2505),
    key("TRESWeights", Str),
    key("Weight", U32),
};

// ---- inside PartitionName= (read_config.c: _parse_partitionname) ----
constexpr std::array kPartitionName{
    key("AllocNodes", Str),
    key("AllowAccounts", Str),
    key("AllowGroups", Str),
    key("AllowQos", Str),
    key("Alternate", Str),
    key("CpuBind", Str),
    key("Default", Bool),
    key("DefaultTime", Str),
    key("DefCPUPerGPU", U64),
    key("DefMemPerCPU", U64),
    key("DefMemPerGPU", U64),
    key("DefMemPerNode", U64),
    key("DenyAccounts", Str),
    key("DenyQos", Str),
    key("DisableRootJobs", Bool),
    key("Exclusive", Str, k2605),
    key("ExclusiveTopo", Bool, k2405),
    key("ExclusiveUser", Bool),
    key("GraceTime", U32),
    key("Hidden", Bool),
    key("LLN", Bool),
    key("MaxCPUsPerNode", U32),
    key("MaxCPUsPerSocket", U32, k2302),
    key("MaxMemPerCPU", U64),
    key("MaxMemPerNode", U64),
    key("MaxNodes", U32),
    key("MaxTime", Str),
    key("MinNodes", U32),
    key("Nodes", Str),
    key("OverSubscribe", Str),
    key("OverTimeLimit", Str),
    key("PowerDownOnIdle", Bool, k2302),
    key("PreemptMode", Str),
    key("Priority", U16),
    key("PriorityJobFactor", U16),
    key("PriorityTier", U16),
    key("QOS", Str),
    key("ReqResv", Bool),
    key("ResumeTimeout", U16),
    key("RootOnly", Bool),
    key("SelectTypeParameters", Str),
    key("Shared", Str),
    key("State", Str),
    // 22.05.0 to 22.05.6 typed it uint32 (SuspendTime=NONE failed there); like every row,
    // this follows the newest patch of the release.
    key("SuspendTime", Str),
    key("SuspendTimeout", U16),
    key("Topology", Str, k2505),
    key("TRESBillingWeights", Str),
};

// ---- inside NodeSet= (read_config.c: _parse_nodeset) ----
constexpr std::array kNodeSet{
    key("Feature", Str),
    key("Nodes", Str),
};

// ---- inside DownNodes= (read_config.c: _parse_downnodes) ----
constexpr std::array kDownNodes{
    key("Reason", Str),
    key("State", Str),
};

// ---- inside SlurmctldHost= (read_config.c: _parse_slurmctld_host) ----
// Every release parses the rest of the line with an empty table, so any key after the host
// (SlurmctldHost=a Port=1) is a parse error.
constexpr std::array<KeySpec, 0> kSlurmctldHost{};

// ---- inside FrontendName= (read_config.c: _parse_frontend, removed in 25.05) ----
constexpr std::array kFrontendName{
    key("AllowGroups", Str, k2205, k2505),
    key("AllowUsers", Str, k2205, k2505),
    key("DenyGroups", Str, k2205, k2505),
    key("DenyUsers", Str, k2205, k2505),
    key("FrontendAddr", Str, k2205, k2505),
    key("Port", U16, k2205, k2505),
    key("Reason", Str, k2205, k2505),
    key("State", Str, k2205, k2505),
};

// ---- inside PowerAction= (read_config.c: _parse_power_action, 26.05+) ----
constexpr std::array kPowerAction{
    key("Location", Str, k2605),
    key("Program", Str, k2605),
};

// ---- gres.conf, top level (gres.c: gres_g_node_config_load up to 25.11,
//      _parse_gres_conf_locked from 26.05; AutoDetect must be alone on its line) ----
constexpr std::array kGresConf{
    key("AutoDetect", Str),
    key("Name", Arr),
    key("NodeName", Arr),
};

// ---- inside gres.conf Name= / NodeName= (gres.c: _gres_options, unchanged 22.05 to 26.05) ----
// Every value is a string; gres.c converts Count, Cores and Links itself. NodeName is not in
// this table: "Name=gpu NodeName=n1" fails on the record's NodeName.
constexpr std::array kGresRecord{
    key("AutoDetect", Str),
    key("Cores", Str),
    key("Count", Str),
    key("CPUs", Str),
    key("File", Str),
    key("Files", Str),
    key("Flags", Str),
    key("Link", Str),
    key("Links", Str),
    key("MultipleFiles", Str),
    key("Name", Str),
    key("Type", Str),
};

// ---- .greslint.conf: greslint's own settings, read with Slurm's syntax (same in every release) ----
constexpr std::array kGreslintConf{
    key("FailLevel", Str),
    key("Format", Str),
    key("Ignore", Str),
    key("MinSeverity", Str),
    key("PrefixMap", Str),
    key("Select", Str),
    key("Severity", Str),
    key("SlurmVersion", Str),
};

// ---- cgroup.conf (cgroup.c: _read_slurm_cgroup_conf; src/common in 22.05,
//      src/interfaces from 23.02) ----
constexpr std::array kCgroupConf{
    key("AllowedDevicesFile", Str),
    key("AllowedKmemSpace", Flt, k2205, k2311),
    key("AllowedRAMSpace", Flt),
    key("AllowedSwapSpace", Flt),
    key("CgroupAutomount", Bool, k2205, k2311),
    defunct("CgroupAutomount", Bool, k2311),
    key("CgroupJobIdPaths", Bool, k2605),  // from 26.05.2; 26.05.0 and .1 reject it
    key("CgroupMountpoint", Str),
    key("CgroupPlugin", Str),
    key("CgroupReleaseAgentDir", Str, k2205, k2511),
    key("CgroupSlice", Str, k2511),
    key("ConstrainCores", Bool),
    key("ConstrainDevices", Bool),
    key("ConstrainKmemSpace", Bool, k2205, k2311),
    key("ConstrainRAMSpace", Bool),
    key("ConstrainSwapSpace", Bool),
    key("EnableControllers", Bool, k2302),  // from 23.02.1; 23.02.0 rejects it
    key("EnableExtraControllers", Str, k2505),
    key("IgnoreSystemd", Bool),
    key("IgnoreSystemdOnFailure", Bool),
    key("MaxKmemPercent", Flt, k2205, k2311),
    key("MaxRAMPercent", Flt),
    key("MaxSwapPercent", Flt),
    key("MemoryLimitEnforcement", Bool),
    key("MemoryLimitThreshold", Flt),
    key("MemorySwappiness", U64),
    key("MinKmemSpace", U64, k2205, k2311),
    key("MinRAMSpace", U64),
    key("RootOwnedCgroups", Bool, k2302, k2311),
    key("SignalChildrenProcesses", Bool, k2311),
    key("SystemdTimeout", U64, k2405),
};

// Rows must be sorted by (name, since) with a key's rows never overlapping, or the binary
// search and the "one accepted row per release" rule of find_key break.
template <std::size_t N>
constexpr bool well_formed(const std::array<KeySpec, N>& rows) noexcept {
  for (std::size_t i = 0; i < N; ++i) {
    const KeySpec& r = rows[i];
    if (r.name.empty()) return false;
    if (r.until != kStill && !(r.since < r.until)) return false;
    if (i == 0) continue;
    const KeySpec& p = rows[i - 1];
    const int order = compare_ci(p.name, r.name);
    if (order > 0) return false;
    if (order == 0 && (p.until == kStill || r.since < p.until)) return false;
  }
  return true;
}

static_assert(well_formed(kSlurmConf));
static_assert(well_formed(kNodeName));
static_assert(well_formed(kGreslintConf));
static_assert(well_formed(kPartitionName));
static_assert(well_formed(kNodeSet));
static_assert(well_formed(kDownNodes));
static_assert(well_formed(kSlurmctldHost));
static_assert(well_formed(kFrontendName));
static_assert(well_formed(kPowerAction));
static_assert(well_formed(kGresConf));
static_assert(well_formed(kGresRecord));
static_assert(well_formed(kCgroupConf));

template <std::size_t N>
constexpr KeyRange range_of(const std::array<KeySpec, N>& rows) noexcept {
  return {rows.data(), rows.data() + N};
}

struct RecordKey {
  KeyTable parent;
  std::string_view name;
  KeyTable child;
};

// The S_P_ARRAY keys whose handler parses the rest of the line with its own table.
constexpr RecordKey kRecordKeys[] = {
    {KeyTable::slurm_conf, "DownNodes", KeyTable::down_nodes},
    {KeyTable::slurm_conf, "FrontendName", KeyTable::frontend_name},
    {KeyTable::slurm_conf, "NodeName", KeyTable::node_name},
    {KeyTable::slurm_conf, "NodeSet", KeyTable::node_set},
    {KeyTable::slurm_conf, "PartitionName", KeyTable::partition_name},
    {KeyTable::slurm_conf, "PowerAction", KeyTable::power_action},
    {KeyTable::slurm_conf, "SlurmctldHost", KeyTable::slurmctld_host},
    {KeyTable::gres_conf, "Name", KeyTable::gres_record},
    {KeyTable::gres_conf, "NodeName", KeyTable::gres_record},
};

// Longer than any key Slurm has; bounds the stack rows of the edit distance.
constexpr std::size_t kMaxKeyLength = 64;

// Optimal string alignment distance (Levenshtein plus swapping two neighbours), ASCII
// case-insensitive. Gives up with limit + 1 once every alignment is over the limit, which keeps
// a scan over the 250-odd slurm.conf keys cheap.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) noexcept {
  const std::size_t n = a.size(), m = b.size();
  if (n > kMaxKeyLength || m > kMaxKeyLength) return limit + 1;
  if ((n > m ? n - m : m - n) > limit) return limit + 1;
  std::array<std::size_t, kMaxKeyLength + 1> before{}, prev{}, cur{};
  for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    std::size_t row_min = cur[0];
    const char ai = ascii_lower(a[i - 1]);
    for (std::size_t j = 1; j <= m; ++j) {
      const char bj = ascii_lower(b[j - 1]);
      std::size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai == bj ? 0 : 1)});
      if (i > 1 && j > 1 && ai == ascii_lower(b[j - 2]) && ascii_lower(a[i - 2]) == bj)
        d = std::min(d, before[j - 2] + 1);
      cur[j] = d;
      row_min = std::min(row_min, d);
    }
    if (row_min > limit) return limit + 1;
    before = prev;
    prev = cur;
  }
  return prev[m];
}

// Every table's rows, in KeyTable order: table_rows(), and the 16-bit ids' tables.
constexpr KeyRange kTables[] = {
    range_of(kSlurmConf),    // slurm_conf
    range_of(kNodeName),     // node_name
    range_of(kPartitionName),  // partition_name
    range_of(kNodeSet),      // node_set
    range_of(kDownNodes),    // down_nodes
    range_of(kSlurmctldHost),  // slurmctld_host
    range_of(kFrontendName),  // frontend_name
    range_of(kPowerAction),  // power_action
    range_of(kGresConf),     // gres_conf
    range_of(kGresRecord),   // gres_record
    range_of(kCgroupConf),   // cgroup_conf
    range_of(kGreslintConf),  // greslint_conf
};
static_assert(std::size(kTables) == std::size_t(KeyTable::greslint_conf) + 1, "a KeyTable is missing here");
static_assert(std::size(kTables) <= (std::size_t(1) << (16 - kKeySpecRowBits)), "too many tables for 16-bit ids");
constexpr bool rows_fit_ids() {
  for (const KeyRange& rows : kTables)
    if (rows.size() >= (std::size_t(1) << kKeySpecRowBits)) return false;
  return true;
}
static_assert(rows_fit_ids(), "a table too long for 16-bit ids");

}  // namespace

KeyRange table_rows(KeyTable table) noexcept {
  const auto i = std::size_t(table);
  return i < std::size(kTables) ? kTables[i] : KeyRange{};
}

// Constant-initialized: the tables' first rows, in KeyTable order.
const KeySpec* const kKeyTableRows[] = {
    kTables[0].first, kTables[1].first, kTables[2].first, kTables[3].first,  kTables[4].first,  kTables[5].first,
    kTables[6].first, kTables[7].first, kTables[8].first, kTables[9].first, kTables[10].first, kTables[11].first,
};
static_assert(std::size(kKeyTableRows) == std::size(kTables), "a table's first row is missing here");

std::uint16_t key_spec_id(const KeySpec* spec) noexcept {
  if (!spec) return kNoKeySpecId;
  for (std::size_t table = 0; table < std::size(kTables); ++table)
    if (spec >= kTables[table].first && spec < kTables[table].last)
      return std::uint16_t((table << kKeySpecRowBits) | std::size_t(spec - kTables[table].first));
  return kNoKeySpecId;
}

KeyRange key_history(KeyTable table, std::string_view key) noexcept {
  const KeyRange all = table_rows(table);
  if (key.empty() || key.size() > kMaxKeyLength) return {};
  const KeySpec* lo = std::lower_bound(
      all.first, all.last, key,
      [](const KeySpec& row, std::string_view k) { return compare_ci(row.name, k) < 0; });
  const KeySpec* hi = lo;
  while (hi != all.last && compare_ci(hi->name, key) == 0) ++hi;
  return {lo, hi};
}

const KeySpec* find_key(KeyTable table, std::string_view key, SlurmVersion v) noexcept {
  for (const KeySpec& row : key_history(table, key))
    if (accepted_in(row, v)) return &row;
  return nullptr;
}

std::string_view closest_key(KeyTable table, std::string_view key, SlurmVersion v) noexcept {
  // Short keys are within two edits of too many unrelated keys to make a useful suggestion.
  const std::size_t limit = key.size() <= 4 ? 1 : 2;
  std::string_view best;
  std::size_t best_distance = limit + 1;
  for (const KeySpec& row : table_rows(table)) {
    // Pointing someone at a key Slurm only tolerates as defunct would not help them.
    if (row.defunct || !accepted_in(row, v)) continue;
    const std::size_t d = edit_distance(key, row.name, best_distance - 1);
    // Strictly smaller, so ties go to the alphabetically first key and the answer is stable.
    if (d < best_distance) {
      best_distance = d;
      best = row.name;
      if (d == 0) break;
    }
  }
  return best;
}

std::optional<KeyTable> record_table(KeyTable table, std::string_view key) noexcept {
  for (const RecordKey& r : kRecordKeys)
    if (r.parent == table && compare_ci(r.name, key) == 0) return r.child;
  return std::nullopt;
}

std::string_view table_name(KeyTable table) noexcept {
  switch (table) {
    case KeyTable::slurm_conf: return "slurm.conf";
    case KeyTable::node_name: return "slurm.conf NodeName= record";
    case KeyTable::partition_name: return "slurm.conf PartitionName= record";
    case KeyTable::node_set: return "slurm.conf NodeSet= record";
    case KeyTable::down_nodes: return "slurm.conf DownNodes= record";
    case KeyTable::slurmctld_host: return "slurm.conf SlurmctldHost= record";
    case KeyTable::frontend_name: return "slurm.conf FrontendName= record";
    case KeyTable::power_action: return "slurm.conf PowerAction= record";
    case KeyTable::gres_conf: return "gres.conf";
    case KeyTable::gres_record: return "gres.conf record";
    case KeyTable::cgroup_conf: return "cgroup.conf";
    case KeyTable::greslint_conf: return ".greslint.conf";
  }
  return "";
}

}  // namespace greslint
