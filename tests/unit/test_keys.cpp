// SPDX-License-Identifier: Apache-2.0
// Per-release key tables: what each Slurm release accepts, and the "did you mean" helper.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "greslint/keys.hpp"
#include "greslint/version.hpp"

using greslint::closest_key;
using greslint::find_key;
using greslint::key_history;
using greslint::KeyTable;
using greslint::known_versions;
using greslint::record_table;
using greslint::SlurmVersion;
using greslint::table_rows;
using greslint::ValueType;

namespace {

constexpr SlurmVersion kAlways{0, 0};  // marks "no end" in the tables below

struct Lifetime {
  KeyTable table;
  const char* key;
  SlurmVersion since;
  SlurmVersion until;  // kAlways: still accepted by 26.05
};

bool expected_in(const Lifetime& l, SlurmVersion v) {
  return v >= l.since && (l.until == kAlways || v < l.until);
}

std::size_t accepted_count(KeyTable table, SlurmVersion v) {
  std::size_t n = 0;
  for (const auto& row : table_rows(table))
    if (greslint::accepted_in(row, v)) ++n;
  return n;
}

}  // namespace

TEST_CASE("keys: when each key is accepted, release by release", "[keys]") {
  const std::vector<Lifetime> cases{
      // In every modelled release.
      {KeyTable::slurm_conf, "GresTypes", greslint::kSlurm2205, kAlways},
      {KeyTable::slurm_conf, "NodeName", greslint::kSlurm2205, kAlways},
      {KeyTable::node_name, "Gres", greslint::kSlurm2205, kAlways},
      {KeyTable::node_name, "CoresPerSocket", greslint::kSlurm2205, kAlways},
      {KeyTable::partition_name, "Nodes", greslint::kSlurm2205, kAlways},
      {KeyTable::node_set, "Feature", greslint::kSlurm2205, kAlways},
      {KeyTable::down_nodes, "Reason", greslint::kSlurm2205, kAlways},
      {KeyTable::gres_conf, "AutoDetect", greslint::kSlurm2205, kAlways},
      {KeyTable::gres_record, "MultipleFiles", greslint::kSlurm2205, kAlways},
      {KeyTable::cgroup_conf, "ConstrainDevices", greslint::kSlurm2205, kAlways},
      // New after 22.05, so a fatal "unrecognized key" there.
      {KeyTable::node_name, "RestrictedCoresPerGPU", greslint::kSlurm2405, kAlways},
      {KeyTable::node_name, "Topology", greslint::kSlurm2505, kAlways},
      {KeyTable::node_name, "Parameters", greslint::kSlurm2511, kAlways},
      {KeyTable::node_name, "GresConf", greslint::kSlurm2511, kAlways},
      {KeyTable::node_name, "SuspendTime", greslint::kSlurm2605, kAlways},
      {KeyTable::partition_name, "MaxCPUsPerSocket", greslint::kSlurm2302, kAlways},
      {KeyTable::partition_name, "Exclusive", greslint::kSlurm2605, kAlways},
      {KeyTable::slurm_conf, "TLSType", greslint::kSlurm2405, kAlways},
      {KeyTable::slurm_conf, "PowerAction", greslint::kSlurm2605, kAlways},
      {KeyTable::power_action, "Program", greslint::kSlurm2605, kAlways},
      {KeyTable::cgroup_conf, "SignalChildrenProcesses", greslint::kSlurm2311, kAlways},
      {KeyTable::cgroup_conf, "CgroupSlice", greslint::kSlurm2511, kAlways},
      // Removed: fatal from that release on.
      {KeyTable::slurm_conf, "SlurmctldPlugstack", greslint::kSlurm2205, greslint::kSlurm2302},
      {KeyTable::slurm_conf, "SchedulerAuth", greslint::kSlurm2205, greslint::kSlurm2405},
      {KeyTable::slurm_conf, "FrontendName", greslint::kSlurm2205, greslint::kSlurm2505},
      {KeyTable::slurm_conf, "AccountingStorageLoc", greslint::kSlurm2205, greslint::kSlurm2511},
      {KeyTable::frontend_name, "FrontendAddr", greslint::kSlurm2205, greslint::kSlurm2505},
      {KeyTable::cgroup_conf, "ConstrainKmemSpace", greslint::kSlurm2205, greslint::kSlurm2311},
      {KeyTable::cgroup_conf, "RootOwnedCgroups", greslint::kSlurm2302, greslint::kSlurm2311},
      {KeyTable::cgroup_conf, "CgroupReleaseAgentDir", greslint::kSlurm2205, greslint::kSlurm2511},
      // Only SchedMD master has these; no modelled release accepts them.
      {KeyTable::slurm_conf, "SlurmstepdParameters", greslint::kSlurmNext, kAlways},
  };
  for (const Lifetime& l : cases) {
    for (SlurmVersion v : known_versions()) {
      CAPTURE(l.key, v.str());
      CHECK((find_key(l.table, l.key, v) != nullptr) == expected_in(l, v));
    }
  }
}

TEST_CASE("keys: lookups ignore case like Slurm's xstrcasecmp", "[keys]") {
  const auto v = greslint::kSlurm2205;
  const auto* a = find_key(KeyTable::slurm_conf, "gRESTYPES", v);
  REQUIRE(a != nullptr);
  CHECK(a->name == "GresTypes");
  CHECK(find_key(KeyTable::slurm_conf, "nodename", v) == find_key(KeyTable::slurm_conf, "NodeName", v));
  CHECK(find_key(KeyTable::gres_record, "COREs", v) != nullptr);
  CHECK(find_key(KeyTable::cgroup_conf, "cgroupplugin", v) != nullptr);
  // Near misses are not matches.
  CHECK(find_key(KeyTable::slurm_conf, "GresType", v) == nullptr);
  CHECK(find_key(KeyTable::slurm_conf, "GresTypesX", v) == nullptr);
  CHECK(find_key(KeyTable::slurm_conf, "", v) == nullptr);
  CHECK(find_key(KeyTable::slurm_conf, "Gres Types", v) == nullptr);
}

TEST_CASE("keys: value types follow Slurm's tables", "[keys]") {
  struct Typed {
    KeyTable table;
    const char* key;
    ValueType type;
  };
  const auto v = greslint::kSlurm2605;
  const std::vector<Typed> cases{
      {KeyTable::slurm_conf, "NodeName", ValueType::array},
      {KeyTable::slurm_conf, "PartitionName", ValueType::array},
      {KeyTable::slurm_conf, "NodeSet", ValueType::array},
      {KeyTable::slurm_conf, "DownNodes", ValueType::array},
      {KeyTable::slurm_conf, "SlurmctldHost", ValueType::array},
      {KeyTable::slurm_conf, "PowerAction", ValueType::array},
      {KeyTable::slurm_conf, "SlurmdPort", ValueType::uint32},
      {KeyTable::slurm_conf, "MaxMemPerNode", ValueType::uint64},
      {KeyTable::slurm_conf, "TrackWCKey", ValueType::boolean},
      {KeyTable::node_name, "Boards", ValueType::uint16},
      {KeyTable::node_name, "CPUs", ValueType::uint16},
      {KeyTable::node_name, "TmpDisk", ValueType::uint32},
      {KeyTable::node_name, "Weight", ValueType::uint32},
      {KeyTable::node_name, "RealMemory", ValueType::uint64},
      {KeyTable::node_name, "MemSpecLimit", ValueType::uint64},
      {KeyTable::node_name, "Port", ValueType::string},
      {KeyTable::node_name, "RestrictedCoresPerGPU", ValueType::uint16},
      {KeyTable::gres_conf, "Name", ValueType::array},
      {KeyTable::gres_conf, "NodeName", ValueType::array},
      {KeyTable::gres_record, "Count", ValueType::string},
      {KeyTable::cgroup_conf, "AllowedRAMSpace", ValueType::float_},
      {KeyTable::cgroup_conf, "MinRAMSpace", ValueType::uint64},
  };
  for (const Typed& t : cases) {
    CAPTURE(t.key);
    const auto* spec = find_key(t.table, t.key, v);
    REQUIRE(spec != nullptr);
    CHECK(spec->type == t.type);
  }
  // Frontend records keep the front-end port as a number, unlike NodeName's Port.
  const auto* fe_port = find_key(KeyTable::frontend_name, "Port", greslint::kSlurm2411);
  REQUIRE(fe_port != nullptr);
  CHECK(fe_port->type == ValueType::uint16);
}

TEST_CASE("keys: the NodeName record of 22.05 is exactly the spec's list", "[keys]") {
  const std::vector<std::string> expected{
      "BcastAddr", "Boards", "CoreSpecCount", "CoresPerSocket", "CPUs", "CPUSpecList",
      "CpuBind", "Feature", "Features", "Gres", "MemSpecLimit", "NodeAddr", "NodeHostname",
      "Port", "Procs", "RealMemory", "Reason", "Sockets", "SocketsPerBoard", "State",
      "ThreadsPerCore", "TmpDisk", "TRESWeights", "Weight"};
  for (const auto& k : expected) {
    CAPTURE(k);
    CHECK(find_key(KeyTable::node_name, k, greslint::kSlurm2205) != nullptr);
  }
  CHECK(accepted_count(KeyTable::node_name, greslint::kSlurm2205) == expected.size());
}

TEST_CASE("keys: a type or defunct change picks the row of the release", "[keys]") {
  const auto* old_epilog = find_key(KeyTable::slurm_conf, "Epilog", greslint::kSlurm2311);
  const auto* new_epilog = find_key(KeyTable::slurm_conf, "Epilog", greslint::kSlurm2405);
  REQUIRE(old_epilog != nullptr);
  REQUIRE(new_epilog != nullptr);
  CHECK(old_epilog->type == ValueType::string);
  CHECK(new_epilog->type == ValueType::array);
  CHECK(key_history(KeyTable::slurm_conf, "epilog").size() == 2);
  CHECK(key_history(KeyTable::slurm_conf, "NoSuchKey").empty());

  struct Defunct {
    KeyTable table;
    const char* key;
    SlurmVersion from;
  };
  const std::vector<Defunct> cases{
      {KeyTable::slurm_conf, "ExtSensorsType", greslint::kSlurm2311},
      {KeyTable::slurm_conf, "JobCredentialPrivateKey", greslint::kSlurm2311},
      {KeyTable::slurm_conf, "CoreSpecPlugin", greslint::kSlurm2405},
      {KeyTable::slurm_conf, "PowerPlugin", greslint::kSlurm2405},
      {KeyTable::slurm_conf, "GetEnvTimeout", greslint::kSlurm2505},
      {KeyTable::slurm_conf, "AccountingStorageUser", greslint::kSlurm2511},
      {KeyTable::cgroup_conf, "CgroupAutomount", greslint::kSlurm2311},
  };
  for (const Defunct& d : cases) {
    for (SlurmVersion v : known_versions()) {
      CAPTURE(d.key, v.str());
      const auto* spec = find_key(d.table, d.key, v);
      REQUIRE(spec != nullptr);  // defunct keys stay accepted
      CHECK(spec->defunct == (v >= d.from));
    }
  }
  // 22.05 already tolerated SchedulerAuth only as defunct.
  const auto* auth = find_key(KeyTable::slurm_conf, "SchedulerAuth", greslint::kSlurm2205);
  REQUIRE(auth != nullptr);
  CHECK(auth->defunct);
}

TEST_CASE("keys: gres.conf top-level and record keys", "[keys]") {
  const std::vector<const char*> record{"File",  "Files", "MultipleFiles", "Count", "Cores", "CPUs",
                                        "Links", "Link",  "Flags",         "Type",  "AutoDetect",
                                        "Name"};
  for (SlurmVersion v : known_versions()) {
    for (const char* k : record) {
      CAPTURE(k, v.str());
      const auto* spec = find_key(KeyTable::gres_record, k, v);
      REQUIRE(spec != nullptr);
      CHECK(spec->type == ValueType::string);
    }
    CHECK(accepted_count(KeyTable::gres_record, v) == record.size());
    for (const char* k : {"AutoDetect", "Name", "NodeName"})
      CHECK(find_key(KeyTable::gres_conf, k, v) != nullptr);
    CHECK(accepted_count(KeyTable::gres_conf, v) == 3);
  }
  // NodeName only starts a record; inside one it is an unrecognized key.
  CHECK(find_key(KeyTable::gres_record, "NodeName", greslint::kSlurm2605) == nullptr);
  // Keys of the record are not top-level keys: "Type=a100" alone on a line is a parse error.
  CHECK(find_key(KeyTable::gres_conf, "Type", greslint::kSlurm2605) == nullptr);
  CHECK(find_key(KeyTable::gres_conf, "File", greslint::kSlurm2205) == nullptr);
}

TEST_CASE("keys: cgroup.conf keys", "[keys]") {
  for (SlurmVersion v : known_versions()) {
    for (const char* k : {"CgroupPlugin", "ConstrainCores", "ConstrainDevices", "ConstrainRAMSpace",
                          "ConstrainSwapSpace", "AllowedDevicesFile", "IgnoreSystemd",
                          "CgroupMountpoint", "MemorySwappiness"}) {
      CAPTURE(k, v.str());
      CHECK(find_key(KeyTable::cgroup_conf, k, v) != nullptr);
    }
  }
  CHECK(find_key(KeyTable::cgroup_conf, "EnableControllers", greslint::kSlurm2205) == nullptr);
  CHECK(find_key(KeyTable::cgroup_conf, "EnableControllers", greslint::kSlurm2302) != nullptr);
  CHECK(find_key(KeyTable::cgroup_conf, "GresTypes", greslint::kSlurm2302) == nullptr);
}

TEST_CASE("keys: record keys name the table their line is parsed with", "[keys]") {
  CHECK(record_table(KeyTable::slurm_conf, "NodeName") == KeyTable::node_name);
  CHECK(record_table(KeyTable::slurm_conf, "partitionname") == KeyTable::partition_name);
  CHECK(record_table(KeyTable::slurm_conf, "NodeSet") == KeyTable::node_set);
  CHECK(record_table(KeyTable::slurm_conf, "DownNodes") == KeyTable::down_nodes);
  CHECK(record_table(KeyTable::slurm_conf, "SlurmctldHost") == KeyTable::slurmctld_host);
  CHECK(record_table(KeyTable::slurm_conf, "FrontendName") == KeyTable::frontend_name);
  CHECK(record_table(KeyTable::slurm_conf, "PowerAction") == KeyTable::power_action);
  CHECK(record_table(KeyTable::gres_conf, "Name") == KeyTable::gres_record);
  CHECK(record_table(KeyTable::gres_conf, "NODENAME") == KeyTable::gres_record);
  // Repeatable but one value per line.
  CHECK_FALSE(record_table(KeyTable::slurm_conf, "Epilog").has_value());
  CHECK_FALSE(record_table(KeyTable::gres_conf, "AutoDetect").has_value());
  CHECK_FALSE(record_table(KeyTable::gres_record, "Name").has_value());
  // A SlurmctldHost record takes no further keys in any release.
  CHECK(table_rows(KeyTable::slurmctld_host).empty());
  CHECK(greslint::table_name(KeyTable::gres_conf) == "gres.conf");
}

TEST_CASE("keys: accepted keys per table and release", "[keys]") {
  struct Counts {
    KeyTable table;
    std::vector<std::size_t> per_release;  // 22.05, 23.02, 23.11, 24.05, 24.11, 25.05, 25.11, 26.05
  };
  // Counted from the s_p_options_t arrays at the newest patch tag of each release.
  const std::vector<Counts> cases{
      {KeyTable::slurm_conf, {226, 228, 228, 230, 233, 236, 241, 248}},
      {KeyTable::node_name, {24, 24, 24, 25, 25, 26, 28, 29}},
      {KeyTable::partition_name, {42, 44, 44, 45, 45, 46, 46, 47}},
      {KeyTable::node_set, {2, 2, 2, 2, 2, 2, 2, 2}},
      {KeyTable::down_nodes, {2, 2, 2, 2, 2, 2, 2, 2}},
      {KeyTable::slurmctld_host, {0, 0, 0, 0, 0, 0, 0, 0}},
      {KeyTable::frontend_name, {8, 8, 8, 8, 8, 0, 0, 0}},
      {KeyTable::power_action, {0, 0, 0, 0, 0, 0, 0, 2}},
      {KeyTable::gres_conf, {3, 3, 3, 3, 3, 3, 3, 3}},
      {KeyTable::gres_record, {12, 12, 12, 12, 12, 12, 12, 12}},
      {KeyTable::cgroup_conf, {23, 25, 21, 22, 22, 23, 23, 24}},
  };
  const auto& versions = known_versions();
  REQUIRE(versions.size() == 8);
  for (const Counts& c : cases) {
    for (std::size_t i = 0; i < versions.size(); ++i) {
      CAPTURE(greslint::table_name(c.table), versions[i].str());
      CHECK(accepted_count(c.table, versions[i]) == c.per_release[i]);
    }
  }
}

TEST_CASE("keys: closest_key suggests an accepted key within a small edit distance", "[keys]") {
  struct Suggestion {
    KeyTable table;
    const char* typed;
    SlurmVersion v;
    const char* expected;  // "" = no suggestion
  };
  const std::vector<Suggestion> cases{
      {KeyTable::gres_record, "Fille", greslint::kSlurm2205, "File"},
      {KeyTable::gres_record, "fiel", greslint::kSlurm2205, "File"},  // swapped neighbours
      {KeyTable::gres_record, "Cors", greslint::kSlurm2205, "Cores"},
      {KeyTable::gres_record, "Typ", greslint::kSlurm2205, "Type"},
      {KeyTable::gres_record, "Coutn", greslint::kSlurm2205, "Count"},
      {KeyTable::gres_record, "NodeName", greslint::kSlurm2205, ""},
      {KeyTable::gres_record, "Xy", greslint::kSlurm2205, ""},
      {KeyTable::slurm_conf, "GresType", greslint::kSlurm2205, "GresTypes"},
      {KeyTable::slurm_conf, "SelectTyp", greslint::kSlurm2205, "SelectType"},
      {KeyTable::slurm_conf, "Bogus", greslint::kSlurm2205, ""},
      {KeyTable::node_name, "CoresPerSockets", greslint::kSlurm2205, "CoresPerSocket"},
      // Only keys the release accepts are offered.
      {KeyTable::node_name, "RestrictedCoresPerGpus", greslint::kSlurm2311, ""},
      {KeyTable::node_name, "RestrictedCoresPerGpus", greslint::kSlurm2405, "RestrictedCoresPerGPU"},
      // Defunct keys are accepted but never suggested.
      {KeyTable::slurm_conf, "PowerPlugn", greslint::kSlurm2311, "PowerPlugin"},
      {KeyTable::slurm_conf, "PowerPlugn", greslint::kSlurm2405, ""},
      {KeyTable::cgroup_conf, "ConstrainDevice", greslint::kSlurm2605, "ConstrainDevices"},
      {KeyTable::slurmctld_host, "Port", greslint::kSlurm2605, ""},
  };
  for (const Suggestion& s : cases) {
    CAPTURE(s.typed, s.v.str());
    CHECK(closest_key(s.table, s.typed, s.v) == s.expected);
  }
  // Over-long input must not read past the fixed-size distance buffers.
  CHECK(closest_key(KeyTable::slurm_conf, std::string(500, 'a'), greslint::kSlurm2605).empty());
}
