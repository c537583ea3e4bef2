// SPDX-License-Identifier: Apache-2.0
#include "limits/pool.hpp"

#include <algorithm>

#include "util.hpp"

namespace greslint::limits {

bool is_gpu_tres(std::string_view name, std::string_view* type) {
  if (name.size() < 8 || !iequals(name.substr(0, 8), "gres/gpu")) return false;
  if (name.size() == 8) {
    if (type) *type = {};
    return true;
  }
  if (name[8] != ':' || name.size() == 9) return false;
  if (type) *type = name.substr(9);
  return true;
}

std::optional<std::uint64_t> time_minutes(std::string_view text) {
  if (text.empty() || iequals(text, "UNLIMITED") || iequals(text, "INFINITE")) return std::nullopt;
  std::uint64_t days = 0;
  std::vector<std::uint64_t> parts;
  const std::size_t dash = text.find('-');
  auto number = [](std::string_view s, std::uint64_t& v) {
    if (s.empty() || s.size() > 12) return false;
    v = 0;
    for (char c : s) {
      if (!is_digit(c)) return false;
      v = v * 10 + std::uint64_t(c - '0');
    }
    return true;
  };
  std::string_view rest = text;
  if (dash != std::string_view::npos) {
    if (!number(text.substr(0, dash), days)) return std::nullopt;
    rest = text.substr(dash + 1);
  }
  for (std::string_view p : [&] {
         std::vector<std::string_view> v;
         std::size_t at = 0;
         for (;;) {
           const std::size_t c = rest.find(':', at);
           v.push_back(rest.substr(at, c == std::string_view::npos ? std::string_view::npos : c - at));
           if (c == std::string_view::npos) break;
           at = c + 1;
         }
         return v;
       }()) {
    std::uint64_t v = 0;
    if (!number(p, v)) return std::nullopt;
    parts.push_back(v);
  }
  if (parts.size() > 3) return std::nullopt;
  std::uint64_t h = 0, m = 0, sec = 0;
  if (dash != std::string_view::npos) {  // D-H, D-H:M, D-H:M:S
    h = parts[0];
    if (parts.size() > 1) m = parts[1];
    if (parts.size() > 2) sec = parts[2];
  } else if (parts.size() == 1) {  // M
    m = parts[0];
  } else if (parts.size() == 2) {  // M:S
    m = parts[0];
    sec = parts[1];
  } else {  // H:M:S
    h = parts[0];
    m = parts[1];
    sec = parts[2];
  }
  // slurm_time_str2mins rounds seconds up to a minute.
  return days * 24 * 60 + h * 60 + m + (sec > 0 ? 1 : 0);
}

bool Pool::tracks(std::string_view name) const {
  // read_config.c / assoc_mgr: billing, cpu, energy, mem, node, fs/disk, pages, vmem always.
  static constexpr std::string_view defaults[] = {"billing", "cpu", "energy", "mem", "node", "fs/disk", "pages", "vmem"};
  for (std::string_view d : defaults)
    if (iequals(d, name)) return true;
  return std::any_of(tracked.begin(), tracked.end(), [&](const std::string& t) { return iequals(t, name); });
}

const PoolPartition* Pool::partition(std::string_view name) const {
  for (const PoolPartition& p : partitions)
    if (p.name == name) return &p;
  return nullptr;
}

namespace {

// read_config.c:_parse_accounting_storage_enforce: limits, safe, qos, wckeys imply
// associations; "all" is everything but nojobs/nosteps; an unknown word clears it all.
void read_enforce(Pool& pool) {
  for (std::string_view w : split_commas_view(pool.enforce_setting->value)) {
    if (iequals(w, "associations") || w == "1") {
      pool.enforce_assocs = true;
    } else if (iequals(w, "limits") || w == "2") {
      pool.enforce_assocs = pool.enforce_limits = true;
    } else if (iequals(w, "safe")) {
      pool.enforce_assocs = pool.enforce_limits = pool.enforce_safe = true;
    } else if (iequals(w, "qos")) {
      pool.enforce_assocs = pool.enforce_qos = true;
    } else if (iequals(w, "wckeys")) {
      pool.enforce_assocs = true;
    } else if (iequals(w, "all")) {
      pool.enforce_assocs = pool.enforce_limits = pool.enforce_qos = pool.enforce_safe = true;
    } else if (iequals(w, "nojobs") || iequals(w, "nosteps")) {
    } else {
      pool.enforce_assocs = pool.enforce_limits = pool.enforce_qos = pool.enforce_safe = false;
      break;
    }
  }
}

// GPUs per node and per partition, as slurm.conf configures them (what slurmctld schedules on).
void count_gpus(Pool& pool, const job::JobCluster& jobs) {
  std::vector<std::uint64_t> node_gpus(jobs.nodes.size(), 0);
  for (std::size_t n = 0; n < jobs.nodes.size(); ++n) {
    for (const job::NodeGres& g : jobs.nodes[n].gres) {
      if (g.name != "gpu") continue;
      node_gpus[n] += g.count;
      if (g.type.empty()) {
        pool.untyped_gpus = pool.untyped_gpus || g.count > 0;
      } else if (std::find(pool.gpu_types.begin(), pool.gpu_types.end(), g.type) == pool.gpu_types.end()) {
        pool.gpu_types.push_back(g.type);
      }
    }
    pool.max_node_gpus = std::max(pool.max_node_gpus, node_gpus[n]);
    pool.total_gpus += node_gpus[n];
  }
  for (const job::JobPartition& jp : jobs.partitions) {
    PoolPartition p;
    p.name = jp.name;
    p.nodes = std::uint32_t(jp.nodes.size());
    for (std::uint32_t n : jp.nodes) {
      p.max_node_gpus = std::max(p.max_node_gpus, node_gpus[n]);
      p.gpus += node_gpus[n];
    }
    pool.partitions.push_back(std::move(p));
  }
}

// QOS=, AllowQos=, DefaultTime= and MaxTime= (PartitionName=DEFAULT gives them to the lines
// after it).
void read_partition_keys(Pool& pool, const ConfigModel& config) {
  const Directive* defaults = nullptr;
  auto key = [&](const Directive& d, std::string_view name) {
    const KeyValue* kv = d.find(name);
    return kv ? kv : (defaults ? defaults->find(name) : nullptr);
  };
  for (const Directive& d : config.slurm.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().key, "PartitionName")) continue;
    if (iequals(d.head().value, "DEFAULT")) {
      defaults = &d;
      continue;
    }
    for (PoolPartition& p : pool.partitions) {
      if (p.name != d.head().value) continue;
      p.span = d.head().value_span;
      p.qos = key(d, "QOS");
      p.allow_qos = key(d, "AllowQos");
      const KeyValue* dt = key(d, "DefaultTime");
      const KeyValue* mt = key(d, "MaxTime");
      p.default_time = dt ? time_minutes(dt->value) : std::nullopt;
      p.max_time = mt ? time_minutes(mt->value) : std::nullopt;
    }
  }
}

}  // namespace

Pool pool_of(const Cluster& cluster, const job::JobCluster& jobs) {
  Pool pool;
  if (!cluster.config) return pool;
  const ConfigModel& config = *cluster.config;
  pool.top = Span{config.slurm.file, 0, 0};
  const Settings& s = config.settings;
  if (const KeyValue* kv = s.find("ClusterName")) pool.cluster_name = to_lower(kv->value);
  if (const KeyValue* kv = s.find("AccountingStorageType")) pool.slurmdbd = icontains(kv->value, "slurmdbd");
  pool.tres_setting = s.find("AccountingStorageTRES");
  if (pool.tres_setting)
    for (std::string_view t : split_commas_view(pool.tres_setting->value))
      if (!t.empty()) pool.tracked.emplace_back(t);
  pool.enforce_setting = s.find("AccountingStorageEnforce");
  if (pool.enforce_setting) read_enforce(pool);
  if (const KeyValue* kv = s.find("EnforcePartLimits")) pool.enforce_part_limits = !iequals(kv->value, "NO");
  count_gpus(pool, jobs);
  read_partition_keys(pool, config);
  return pool;
}

}  // namespace greslint::limits
