// SPDX-License-Identifier: Apache-2.0
// The cluster as slurmctld schedules jobs on it (node_conf.c, read_config.c: the slurm.conf
// node records and partitions) and a job's request as slurmctld reads it (gres.c
// gres_job_state_validate and its helpers, job_mgr.c _job_create).
#include "job/job_model.hpp"

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "gres_parse.hpp"
#include "util.hpp"

namespace greslint::job {
namespace {

std::optional<std::uint64_t> parse_number(std::string_view text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p == text.data()) return std::nullopt;
  const auto mult = suffix_multiplier(std::string_view(p, std::size_t(end - p)));
  if (!mult) return std::nullopt;
  return v * *mult;
}

std::optional<std::uint32_t> parse_u32(std::string_view text) {
  std::uint32_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

/// "name:type:count" at each colon, empty parts kept (a GRES item as slurm.conf and --gres write it).
std::vector<std::string_view> split_colons(std::string_view item) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t colon = item.find(':', at);
    parts.push_back(item.substr(at, colon == std::string_view::npos ? std::string_view::npos : colon - at));
    if (colon == std::string_view::npos) break;
    at = colon + 1;
  }
  return parts;
}

/// --mem and --mem-per-gpu: megabytes, or a K/M/G/T suffix.
std::optional<std::uint64_t> parse_megabytes(std::string_view text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p == text.data()) return std::nullopt;
  const std::string_view suffix(p, std::size_t(end - p));
  if (suffix.empty() || iequals(suffix, "M")) return v;
  if (iequals(suffix, "K")) return (v + 1023) / 1024;
  if (iequals(suffix, "G")) return v * 1024;
  if (iequals(suffix, "T")) return v * 1024 * 1024;
  return std::nullopt;
}

/// slurm.conf Gres= as slurmctld counts it: name[:type][:count][(S:sockets)], items
/// separated by commas; no_consume is no type.
std::vector<NodeGres> configured_gres(std::string_view gres) {
  std::vector<NodeGres> out;
  for (std::string_view item : split_commas_view(gres)) {
    if (const auto paren = item.find('('); paren != std::string_view::npos) item = item.substr(0, paren);
    const std::vector<std::string_view> parts = split_colons(item);
    NodeGres g;
    g.name = std::string(parts[0]);
    g.count = 1;
    std::size_t last = parts.size();
    if (parts.size() > 1) {
      if (auto n = parse_number(parts.back())) g.count = *n, --last;
    }
    for (std::size_t i = 1; i < last; ++i)
      if (parts[i] != "no_consume") g.type = std::string(parts[i]);
    if (!g.name.empty()) out.push_back(std::move(g));
  }
  return out;
}

/// Per NodeName line: RealMemory= and Features=, NodeName=DEFAULT inherited.
struct LineExtras {
  std::uint64_t memory_mb = 1;
  std::string features;
};

std::unordered_map<const Directive*, LineExtras> node_line_extras(const ConfigFile& slurm) {
  std::unordered_map<const Directive*, LineExtras> out;
  LineExtras defaults;
  for (const Directive& d : slurm.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().key, "NodeName")) continue;
    LineExtras mine = defaults;
    if (const KeyValue* m = d.find("RealMemory"))
      if (auto v = parse_number(m->value)) mine.memory_mb = *v;
    const KeyValue* f = d.find("Features");
    if (!f) f = d.find("Feature");
    if (f) mine.features = std::string(f->value);
    if (iequals(d.head().value, "DEFAULT")) defaults = mine;
    else out.emplace(&d, mine);
  }
  return out;
}

void read_partition_settings(const ConfigFile& slurm, std::vector<JobPartition>& parts) {
  std::unordered_map<std::string, const Directive*> last_line;
  const Directive* defaults = nullptr;
  auto value = [&](const Directive& d, std::string_view key) -> const KeyValue* {
    if (const KeyValue* kv = d.find(key)) return kv;
    return defaults ? defaults->find(key) : nullptr;
  };
  for (const Directive& d : slurm.directives) {
    if (d.kind != Directive::Kind::record || !iequals(d.head().key, "PartitionName")) continue;
    if (iequals(d.head().value, "DEFAULT")) {
      defaults = &d;
      continue;
    }
    for (JobPartition& p : parts) {
      if (p.name != d.head().value) continue;
      if (const KeyValue* kv = value(d, "Default")) p.is_default = iequals(kv->value, "YES");
      if (const KeyValue* kv = value(d, "MaxNodes"))
        if (!iequals(kv->value, "UNLIMITED") && !iequals(kv->value, "INFINITE")) p.max_nodes = parse_u32(kv->value);
      if (const KeyValue* kv = value(d, "State")) p.state = std::string(kv->value);
    }
  }
}

std::vector<std::string> split_features(std::string_view text, bool& any) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (const auto star = word.find('*'); star != std::string::npos) word.resize(star);
    if (!word.empty()) out.push_back(word);
    word.clear();
  };
  for (char c : text) {
    if (c == '|') any = true;
    if (c == '&' || c == ',' || c == '|' || c == '[' || c == ']' || c == '(' || c == ')') flush();
    else if (c != '!') word += c;
  }
  flush();
  return out;
}

/// "[type:]count" of --gpus and its kin.
bool read_gpu_ask(const JobOption& o, GresAsk::Per per, std::vector<GresAsk>& asks) {
  GresAsk a;
  a.per = per;
  a.option = &o;
  std::string_view v = o.value;
  if (const auto colon = v.rfind(':'); colon != std::string_view::npos) {
    a.type = std::string(v.substr(0, colon));
    v = v.substr(colon + 1);
  }
  const auto n = parse_number(v);
  if (!n) return false;
  a.count = *n;
  asks.push_back(std::move(a));
  return true;
}

/// One --gres item: [gres/]name[:type][:count].
std::optional<GresAsk> read_gres_item(std::string_view item, const JobCluster& cluster, const JobOption& o,
                                     SlurmVersion version) {
  // From 23.11 sbatch writes "gres/" before each item and drops a doubled one, so a
  // "gres/" the user wrote is harmless; 22.05 and 23.02 prefix "gres:" and send it on.
  if (item.substr(0, 5) == "gres/" && version >= SlurmVersion{23, 11}) item = item.substr(5);
  const std::vector<std::string_view> parts = split_colons(item);
  if (parts.size() > 3) return std::nullopt;
  GresAsk a;
  a.option = &o;
  a.name = std::string(parts[0]);
  if (std::find(cluster.grestypes.begin(), cluster.grestypes.end(), a.name) == cluster.grestypes.end())
    return std::nullopt;
  if (parts.size() == 3) a.type = std::string(parts[1]);
  if (parts.size() >= 2) {
    if (auto n = parse_number(parts.back())) a.count = *n;
    else if (parts.size() == 2) a.type = std::string(parts[1]);
    else return std::nullopt;
  }
  return a;
}

bool is_shared_gres(std::string_view name) { return name == "shard" || name == "mps"; }

void read_gres(const JobOption& o, const JobCluster& cluster, SlurmVersion version, JobRequest& job) {
  job.gres_option = &o;
  if (o.value == "none") return;
  bool gpu = false, shared = false;
  for (std::string_view item : split_commas_view(o.value)) {
    auto ask = read_gres_item(item, cluster, o, version);
    if (!ask) {
      job.bad_gres = std::string(item);
      return;
    }
    gpu |= ask->name == "gpu";
    shared |= is_shared_gres(ask->name);
    job.asks.push_back(std::move(*ask));
  }
  // gres_job_state_validate: a job takes whole GPUs or shares of them, not both (live case
  // shard/shard_and_gpu).
  if (gpu && shared) job.bad_gres = std::string(o.value);
}

void read_nodes(const JobOption& o, JobRequest& job) {
  job.nodes_given = true;
  const std::string_view v = o.value;
  const auto dash = v.find('-');
  if (auto lo = parse_u32(v.substr(0, dash))) job.min_nodes = std::max<std::uint32_t>(*lo, 1);
  if (dash == std::string_view::npos) job.max_nodes = job.min_nodes;
  else if (auto hi = parse_u32(v.substr(dash + 1))) job.max_nodes = *hi;
}

/// The fewest tasks the job puts on one node: a job that does not fix its node count may
/// spread its tasks over as many nodes as it needs (live case typed/gpus_per_task_ok).
std::uint32_t tasks_per_node(const JobRequest& job) {
  if (job.ntasks_per_node) return *job.ntasks_per_node;
  if (!job.ntasks || !job.nodes_given) return 1;
  const std::uint32_t most = std::max<std::uint32_t>(job.max_nodes.value_or(job.min_nodes), 1);
  return (*job.ntasks + most - 1) / most;
}

/// How many of the ask's GRES one node needs.
std::uint64_t needed_on_node(const JobRequest& job, const GresAsk& a, const JobNode& node) {
  switch (a.per) {
    case GresAsk::Per::node: return a.count;
    case GresAsk::Per::task: return a.count * tasks_per_node(job);
    case GresAsk::Per::socket: return a.count;
    case GresAsk::Per::job: {
      // The job's GPUs on its fewest nodes: all of them when it may use one node only.
      // 26.05 tests a --gpus count against the partition's GPUs only (live case
      // typed/gpus8_one_node: accepted with -N 1, pending, where 22.05 and 24.11 refuse it).
      const std::uint32_t most = job.max_nodes.value_or(job.nodes_given ? job.min_nodes : 0);
      if (most == 0 || job.version >= SlurmVersion{26, 5}) return 1;
      (void)node;
      return (a.count + most - 1) / most;
    }
  }
  return a.count;
}

}  // namespace

std::uint64_t JobNode::count(std::string_view gres_name, std::string_view type) const {
  // An untyped request meets a node of several types as one type: before the node has
  // registered, slurmctld offers it no more than the largest count of one type (live case
  // mig/untyped_8: gpu:8 is refused on 1g.10gb:7,3g.40gb:2,a100:2).
  std::vector<std::pair<std::string_view, std::uint64_t>> per_type;
  for (const NodeGres& g : gres) {
    if (g.name != gres_name || (!type.empty() && g.type != type)) continue;
    auto it = std::find_if(per_type.begin(), per_type.end(), [&](const auto& t) { return t.first == g.type; });
    if (it == per_type.end()) per_type.emplace_back(g.type, g.count);
    else it->second += g.count;
  }
  std::uint64_t most = 0;
  for (const auto& t : per_type) most = std::max(most, t.second);
  return most;
}

const JobPartition* JobCluster::partition(std::string_view name) const {
  for (const JobPartition& p : partitions)
    if (p.name == name) return &p;
  return nullptr;
}

const JobPartition* JobCluster::default_partition() const {
  for (const JobPartition& p : partitions)
    if (p.is_default) return &p;
  return nullptr;
}

bool JobCluster::has_feature(std::string_view feature) const {
  for (const JobNode& n : nodes)
    if (std::find(n.features.begin(), n.features.end(), feature) != n.features.end()) return true;
  return false;
}

JobCluster job_cluster(const Cluster& cluster) {
  JobCluster out;
  out.startup_fatal = cluster.startup_fatal;
  if (!cluster.config) return out;
  const ConfigModel& config = *cluster.config;
  out.grestypes = config.grestypes;
  const auto extras = node_line_extras(config.slurm);
  out.nodes.reserve(cluster.node_names.size());
  for (std::uint32_t n = 0; n < cluster.node_names.size(); ++n) {
    const NodeLine& line = config.node_lines[cluster.node_line_of[n]];
    const NodeClass& c = cluster.classes[cluster.class_of[n]];
    JobNode node;
    node.name = cluster.node_names[n];
    node.cpus = c.cpus;
    node.sockets = c.sockets;
    node.verdict = c.verdict;
    node.gres = configured_gres(line.gres);
    node.usable = !(n < cluster.future_at_startup.size() && cluster.future_at_startup[n]);
    if (auto e = extras.find(line.d); e != extras.end()) {
      node.memory_mb = e->second.memory_mb;
      for (std::string_view f : split_commas_view(e->second.features)) node.features.emplace_back(f);
    }
    out.nodes.push_back(std::move(node));
  }
  for (const Partition& p : cluster.partitions) out.partitions.push_back(JobPartition{p.name, p.nodes, false, {}, "UP"});
  read_partition_settings(config.slurm, out.partitions);
  return out;
}

JobRequest read_request(const JobScript& script, const JobCluster& cluster, SlurmVersion version) {
  JobRequest job;
  if (const JobOption* p = script.last("partition")) {
    job.partition_option = p;
    for (std::string_view name : split_commas_view(p->value)) job.partitions.emplace_back(name);
  }
  if (const JobOption* o = script.last("nodes")) read_nodes(*o, job);
  auto u32 = [&](std::string_view name, std::optional<std::uint32_t>& into) {
    if (const JobOption* o = script.last(name)) into = parse_u32(o->value);
  };
  u32("ntasks", job.ntasks);
  u32("ntasks-per-node", job.ntasks_per_node);
  u32("cpus-per-task", job.cpus_per_task);
  u32("cpus-per-gpu", job.cpus_per_gpu);
  if (const JobOption* o = script.last("mem")) job.mem_mb = parse_megabytes(o->value);
  if (const JobOption* o = script.last("mem-per-gpu")) job.mem_per_gpu_mb = parse_megabytes(o->value);
  if (const JobOption* o = script.last("gres")) read_gres(*o, cluster, version, job);
  const std::pair<std::string_view, GresAsk::Per> gpu_options[] = {{"gpus", GresAsk::Per::job},
                                                                    {"gpus-per-node", GresAsk::Per::node},
                                                                    {"gpus-per-task", GresAsk::Per::task},
                                                                    {"gpus-per-socket", GresAsk::Per::socket}};
  for (const auto& [name, per] : gpu_options)
    if (const JobOption* o = script.last(name)) {
      if (!job.gpus_option) job.gpus_option = o;
      const bool gpu_known =
          std::find(cluster.grestypes.begin(), cluster.grestypes.end(), "gpu") != cluster.grestypes.end();
      if ((!read_gpu_ask(*o, per, job.asks) || !gpu_known) && !job.bad_gres) job.bad_gres = std::string(o->value);
    }
  if (job.gres_option && job.gpus_option && !job.bad_gres &&
      std::any_of(job.asks.begin(), job.asks.end(), [](const GresAsk& a) { return is_shared_gres(a.name); }))
    job.bad_gres = std::string(job.gres_option->value);
  if (const JobOption* f = script.last("gres-flags")) job.gres_flags = f;
  if (!job.ntasks && job.ntasks_per_node && version < SlurmVersion{23, 2})
    job.ntasks = *job.ntasks_per_node * job.min_nodes;
  job.version = version;
  if (const JobOption* c = script.last("constraint")) {
    job.constraint = c;
    job.features = split_features(c->value, job.any_feature);
    for (const std::string& f : job.features)
      if (!cluster.has_feature(f)) {
        job.bad_feature = f;
        break;
      }
  }
  return job;
}

NodeFit fits_node(const JobRequest& job, const JobNode& node) {
  std::uint64_t gpus = 0;
  for (const GresAsk& a : job.asks) {
    const std::uint64_t need = needed_on_node(job, a, node);
    const std::uint64_t has = node.count(a.name, a.type);
    if (has < need) {
      const std::string what = a.name + (a.type.empty() ? "" : ":" + a.type);
      return {false, "has " + std::to_string(has) + " " + what + ", the job needs " + std::to_string(need)};
    }
    if (a.name == "gpu") gpus += need;
  }
  if (job.cpus_per_gpu && *job.cpus_per_gpu * gpus > node.cpus)
    return {false, "has " + std::to_string(node.cpus) + " CPUs, the job needs " +
                       std::to_string(*job.cpus_per_gpu * gpus) + " (--cpus-per-gpu)"};
  const std::uint64_t task_cpus = std::uint64_t(job.cpus_per_task.value_or(1)) * tasks_per_node(job);
  if (task_cpus > node.cpus)
    return {false, "has " + std::to_string(node.cpus) + " CPUs, the job needs " + std::to_string(task_cpus)};
  std::uint64_t mem = job.mem_mb.value_or(0);
  if (job.mem_per_gpu_mb) mem = *job.mem_per_gpu_mb * gpus;
  if (mem > node.memory_mb)
    return {false, "has RealMemory=" + std::to_string(node.memory_mb) + ", the job needs " + std::to_string(mem) + " MB"};
  if (!job.features.empty()) {
    auto has = [&](const std::string& f) {
      return std::find(node.features.begin(), node.features.end(), f) != node.features.end();
    };
    const bool ok = job.any_feature ? std::any_of(job.features.begin(), job.features.end(), has)
                                    : std::all_of(job.features.begin(), job.features.end(), has);
    if (!ok) return {false, "lacks the features of --constraint"};
  }
  return {true, {}};
}

std::vector<std::uint32_t> fitting_nodes(const JobRequest& job, const JobCluster& cluster, const JobPartition& p) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t n : p.nodes)
    if (fits_node(job, cluster.nodes[n]).fits) out.push_back(n);
  return out;
}

}  // namespace greslint::job
