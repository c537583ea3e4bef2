// SPDX-License-Identifier: Apache-2.0
// Google Benchmarks of greslint's stages on synthetic clusters of 100 to 100,000 nodes
// (bench/gen_cluster.py, 8 GPUs per node, 2 gres.conf lines per rack):
//
//   BM_ReadSlurmConf   the reader on slurm.conf and its Includes (nodes.conf, partitions.conf)
//   BM_ReadGresConf    the reader on gres.conf and its Includes
//   BM_HostlistParse   parse_hostlist on every NodeName= hostlist of the cluster, joined by ','
//   BM_HostlistExpand  the same list parsed and expanded to every host name (for_each)
//   BM_HostlistFind    Hostlist::find of every node name in that list (the hash index)
//   BM_FoldHostnames   fold_hostnames of every node name (how findings name their nodes)
//   BM_HostlistCommand `greslint hostlist -e` in process, output discarded, on the two
//                      65,536-host expressions bench/run.sh compares with scontrol and nodeset
//   BM_SlurmHostlistShift  the same expansion by Slurm's own hostlist code (libslurmfull.so),
//                      as scontrol show hostnames runs it
//   BM_Analyze         analyze(): both readers, the model, every node class evaluated
//   BM_Lint            run_lint() as `greslint lint DIR --slurm-version 22.05` runs it,
//                      text report into memory
//   BM_ReadLimits      the limits reader on a `sacctmgr dump` of N associations
//                      (bench/gen_limits.py; items are associations)
//
// With --shapes=racks,gres-gpu,... the same four stages (BM_Shape{ReadSlurmConf,ReadGresConf,
// Analyze,Lint}/<shape>/<N>) run on every shape bench/gen_cluster.py --shape writes, at
// 10,000 and 100,000 nodes (DIR/s-<shape>-<N>, generated when missing): issue 16 asks for
// the stages in process per shape, beside the whole process.
//
// items_per_second counts nodes, so 1/items_per_second is the time per node.
// Input clusters live in --data=DIR (default $GRESLINT_BENCH_DATA, else ./bench-data) as
// DIR/c<N>; a missing one is generated with bench/gen_cluster.py --seed 1.
#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "greslint/commands.hpp"
#include "greslint/config.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/lint.hpp"
#include "greslint/model.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"
#include "huge_pages.hpp"
#include "limits/limits.hpp"

namespace {

using namespace greslint;

std::string g_data_dir;
const VersionProfile kProfile(kSlurm2205);

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

/// DIR/<name>: the cluster bench/gen_cluster.py writes for `nodes` and `args`, generated
/// when it is not there yet (before any timing starts).
std::string generated_cluster(const std::string& name, std::int64_t nodes, const std::string& args) {
  std::string dir = g_data_dir + "/" + name;
  if (!exists(dir + "/slurm.conf")) {
    std::string cmd = std::string("python3 '") + GRESLINT_GEN_CLUSTER + "' --seed 1 --nodes " +
                      std::to_string(nodes) + args + " --out '" + dir + "'";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot generate " + dir);
  }
  return dir;
}

/// DIR/c<N>, generated on first use.
const std::string& cluster_dir(std::int64_t nodes) {
  static std::map<std::int64_t, std::string> dirs;
  auto it = dirs.find(nodes);
  if (it != dirs.end()) return it->second;
  return dirs.emplace(nodes, generated_cluster("c" + std::to_string(nodes), nodes, "")).first->second;
}

/// DIR/s-<shape>-<N>, generated on first use.
std::string shape_dir(const std::string& shape, std::int64_t nodes) {
  return generated_cluster("s-" + shape + "-" + std::to_string(nodes), nodes, " --shape '" + shape + "'");
}

/// Every NodeName= hostlist of the cluster's slurm.conf (DEFAULT lines excluded).
const std::vector<std::string>& node_hostlists(std::int64_t nodes) {
  static std::map<std::int64_t, std::vector<std::string>> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  SourceManager sources;
  Reporter reporter;
  ReadOptions opts;
  opts.slurm_conf_dir = cluster_dir(nodes);
  ConfigFile f = read_config_file(opts.slurm_conf_dir + "/slurm.conf", opts, kProfile, sources, reporter);
  std::vector<std::string> lists;
  for (const Directive& d : f.directives)
    if (d.kind == Directive::Kind::record && d.head().key == "NodeName" && d.head().value != "DEFAULT")
      lists.emplace_back(d.head().value);
  return cache.emplace(nodes, std::move(lists)).first->second;
}

std::string joined_hostlist(std::int64_t nodes) {
  std::string all;
  for (const std::string& l : node_hostlists(nodes)) {
    if (!all.empty()) all += ',';
    all += l;
  }
  return all;
}

std::vector<std::string> node_names(std::int64_t nodes) {
  auto r = parse_hostlist(joined_hostlist(nodes), Span{}, kProfile);
  return r.list->expand();
}

void read_bench(benchmark::State& state, const std::string& dir, const char* file, KeyTable table) {
  for (auto _ : state) {
    SourceManager sources;
    Reporter reporter;
    ReadOptions opts;
    opts.table = table;
    opts.slurm_conf_dir = dir;
    ConfigFile f = read_config_file(dir + "/" + file, opts, kProfile, sources, reporter);
    benchmark::DoNotOptimize(f);
    if (!reporter.diagnostics().empty()) state.SkipWithError("the generated cluster has findings");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_ReadSlurmConf(benchmark::State& state) {
  read_bench(state, cluster_dir(state.range(0)), "slurm.conf", KeyTable::slurm_conf);
}
void BM_ReadGresConf(benchmark::State& state) {
  read_bench(state, cluster_dir(state.range(0)), "gres.conf", KeyTable::gres_conf);
}

void BM_HostlistParse(benchmark::State& state) {
  const std::string text = joined_hostlist(state.range(0));
  for (auto _ : state) {
    HostlistResult r = parse_hostlist(text, Span{}, kProfile);
    if (!r.ok() || r.list->size() != std::uint64_t(state.range(0))) state.SkipWithError("wrong host count");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_HostlistExpand(benchmark::State& state) {
  const std::string text = joined_hostlist(state.range(0));
  for (auto _ : state) {
    HostlistResult r = parse_hostlist(text, Span{}, kProfile);
    std::size_t bytes = 0;
    r.list->for_each([&](const std::string& host, const HostRange&) { bytes += host.size(); });
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_HostlistFind(benchmark::State& state) {
  const Hostlist list = *parse_hostlist(joined_hostlist(state.range(0)), Span{}, kProfile).list;
  const std::vector<std::string> names = node_names(state.range(0));
  for (auto _ : state) {
    std::size_t hits = 0;
    for (const std::string& n : names) hits += list.contains(n);
    if (hits != names.size()) state.SkipWithError("a node was not found");
    benchmark::DoNotOptimize(hits);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_FoldHostnames(benchmark::State& state) {
  const std::vector<std::string> names = node_names(state.range(0));
  for (auto _ : state) {
    std::string folded = fold_hostnames(names);
    benchmark::DoNotOptimize(folded);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

/// Discards what it is given, like /dev/null.
class NullBuffer : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  int overflow(int c) override { return traits_type::not_eof(c); }
};

const char* const kExpandExprs[] = {"node[0-65535]", "r[001-256]n[001-256]"};

void BM_HostlistCommand(benchmark::State& state) {
  const std::vector<std::string> exprs{kExpandExprs[state.range(0)]};
  NullBuffer null;
  std::ostream out(&null);
  std::ostringstream err;
  for (auto _ : state) {
    if (run_hostlist_command('e', kProfile, exprs, out, err) != 0) state.SkipWithError("hostlist failed");
  }
  state.SetLabel(exprs.front());
  state.SetItemsProcessed(state.iterations() * 65536);
}

// Slurm's own hostlist code, as `scontrol show hostnames` drives it (hostlist_create, then
// hostlist_shift until the list is empty, each name printed and freed), from the
// libslurmfull.so of Debian's Slurm packages: the in-process counterpart of
// BM_HostlistCommand, without scontrol's process start and slurm.conf reading.
struct SlurmHostlistApi {
  void* (*create)(const char*) = nullptr;
  char* (*shift)(void*) = nullptr;
  void (*destroy)(void*) = nullptr;
};

const SlurmHostlistApi* slurm_hostlist_api() {
  static const SlurmHostlistApi* api = [] () -> const SlurmHostlistApi* {
    const char* env = std::getenv("GRESLINT_BENCH_LIBSLURM");
    const char* path = env && *env ? env : "/usr/lib/x86_64-linux-gnu/slurm-wlm/libslurmfull.so";
    void* lib = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    static SlurmHostlistApi found;
    found.create = reinterpret_cast<void* (*)(const char*)>(::dlsym(lib, "slurm_hostlist_create"));
    found.shift = reinterpret_cast<char* (*)(void*)>(::dlsym(lib, "slurm_hostlist_shift"));
    found.destroy = reinterpret_cast<void (*)(void*)>(::dlsym(lib, "slurm_hostlist_destroy"));
    return found.create && found.shift && found.destroy ? &found : nullptr;
  }();
  return api;
}

void BM_SlurmHostlistShift(benchmark::State& state) {
  const SlurmHostlistApi* api = slurm_hostlist_api();
  if (!api) {
    state.SkipWithError("no libslurmfull.so (Debian's slurm-client; or set GRESLINT_BENCH_LIBSLURM)");
    return;
  }
  const char* expr = kExpandExprs[state.range(0)];
  NullBuffer null;
  std::ostream out(&null);
  std::string buffer;
  for (auto _ : state) {
    void* list = api->create(expr);
    while (char* host = api->shift(list)) {
      buffer.append(host);
      buffer.push_back('\n');
      std::free(host);
      if (buffer.size() >= (1 << 16) - 256) {
        out.write(buffer.data(), std::streamsize(buffer.size()));
        buffer.clear();
      }
    }
    out.write(buffer.data(), std::streamsize(buffer.size()));
    buffer.clear();
    api->destroy(list);
  }
  state.SetLabel(expr);
  state.SetItemsProcessed(state.iterations() * 65536);
}

void analyze_bench(benchmark::State& state, const std::string& dir) {
  LintInputs in;
  in.slurm_conf_path = dir + "/slurm.conf";
  in.gres_conf_path = dir + "/gres.conf";
  in.cgroup_conf_path = dir + "/cgroup.conf";
  for (auto _ : state) {
    SourceManager sources;
    Reporter reporter;
    Cluster c = analyze(in, kProfile, sources, reporter);
    if (c.node_names.size() != std::size_t(state.range(0)) || !reporter.diagnostics().empty())
      state.SkipWithError("unexpected model");
    benchmark::DoNotOptimize(c.classes.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_Analyze(benchmark::State& state) { analyze_bench(state, cluster_dir(state.range(0))); }

void lint_bench(benchmark::State& state, const std::string& dir) {
  LintOptions o;
  o.paths = {dir};
  o.slurm_version = "22.05";
  for (auto _ : state) {
    std::ostringstream out, err;
    int rc = run_lint(o, out, err);
    if (rc != 0) state.SkipWithError("lint found something");
    benchmark::DoNotOptimize(rc);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_Lint(benchmark::State& state) { lint_bench(state, cluster_dir(state.range(0))); }

/// DIR/limits-<N>.cfg, a dump of N associations, generated on first use.
std::string limits_dump(std::int64_t assocs) {
  const std::string path = g_data_dir + "/limits-" + std::to_string(assocs) + ".cfg";
  if (!exists(path)) {
    std::string gen = GRESLINT_GEN_CLUSTER;
    gen = gen.substr(0, gen.rfind('/')) + "/gen_limits.py";
    const std::string cmd = "python3 '" + gen + "' --seed 1 --associations " + std::to_string(assocs) + " > '" + path + "'";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot generate " + path);
  }
  return path;
}

void BM_ReadLimits(benchmark::State& state) {
  const std::string path = limits_dump(state.range(0));
  std::string text;
  {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot read " + path);
    char buf[65536];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
  }
  for (auto _ : state) {
    // As `greslint limits` reads a file: into the source manager, then the reader.
    SourceManager sources;
    const FileId file = sources.add(path, text);
    limits::LimitsDb db;
    auto error = limits::read_limits(sources, file, db);
    if (error || db.assocs.size() + 1 < std::size_t(state.range(0))) state.SkipWithError("the dump did not read");
    benchmark::DoNotOptimize(db.assocs.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {100, 1000, 10000, 100000}) b->Arg(n);
  b->Unit(benchmark::kMillisecond);
  // Every thread's CPU time, not the benchmark thread's alone: the readers hand a large file's
  // later lines to a second core, and analyze() reads gres.conf on a thread of its own. Timed
  // on its own thread, BM_Lint's 10,000-node run left most of its work uncounted (1.3 ms
  // against 28.6 ms at 100,000 nodes: 21.5x where the whole process grows 2.3x).
  b->MeasureProcessCPUTime();
}

BENCHMARK(BM_ReadSlurmConf)->Apply(sizes);
BENCHMARK(BM_ReadGresConf)->Apply(sizes);
BENCHMARK(BM_HostlistParse)->Apply(sizes);
BENCHMARK(BM_HostlistExpand)->Apply(sizes);
BENCHMARK(BM_HostlistFind)->Apply(sizes);
BENCHMARK(BM_FoldHostnames)->Apply(sizes);
BENCHMARK(BM_HostlistCommand)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SlurmHostlistShift)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Analyze)->Apply(sizes);
BENCHMARK(BM_Lint)->Apply(sizes);
BENCHMARK(BM_ReadLimits)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

/// The four stages on every shape of `shapes` (comma-separated), at 10,000 and 100,000 nodes.
void register_shape_benchmarks(const std::string& shapes) {
  using Stage = void (*)(benchmark::State&, const std::string&);
  const std::pair<const char*, Stage> stages[] = {
      {"BM_ShapeReadSlurmConf",
       [](benchmark::State& st, const std::string& dir) { read_bench(st, dir, "slurm.conf", KeyTable::slurm_conf); }},
      {"BM_ShapeReadGresConf",
       [](benchmark::State& st, const std::string& dir) { read_bench(st, dir, "gres.conf", KeyTable::gres_conf); }},
      {"BM_ShapeAnalyze", analyze_bench},
      {"BM_ShapeLint", lint_bench},
  };
  std::stringstream list(shapes);
  for (std::string shape; std::getline(list, shape, ',');) {
    if (shape.empty()) continue;
    for (const auto& [name, run] : stages) {
      const std::string full = std::string(name) + "/" + shape;
      benchmark::RegisterBenchmark(full.c_str(),
                                   [shape, run = run](benchmark::State& st) { run(st, shape_dir(shape, st.range(0))); })
          ->Arg(10000)
          ->Arg(100000)
          ->Unit(benchmark::kMillisecond)
          ->MeasureProcessCPUTime();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // The heap as greslint's own main sets it up. Without it, glibc mapped each block past
  // 128 KiB anew and gave it back when freed: every iteration of a 100,000-node run took
  // its node tables' page faults again, and BM_Lint grew 27x from 10,000 to 100,000 nodes
  // where the whole process grows 2.3x.
  greslint::advise_huge_heap();
  // --data=DIR and --shapes=LIST are ours; everything else goes to Google Benchmark.
  const char* env = std::getenv("GRESLINT_BENCH_DATA");
  g_data_dir = env && *env ? env : "bench-data";
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strncmp(argv[i], "--data=", 7) == 0) g_data_dir = argv[i] + 7;
    else if (i > 0 && std::strncmp(argv[i], "--shapes=", 9) == 0) register_shape_benchmarks(argv[i] + 9);
    else rest.push_back(argv[i]);
  }
  int n = int(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
  ::mkdir(g_data_dir.c_str(), 0755);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
