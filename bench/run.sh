#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/run.sh - every performance figure of docs/performance.md in one command:
#
#   bash bench/run.sh
#
# 1. builds greslint and bench/greslint_bench in Release (-DGRESLINT_BENCH=ON, -j2);
# 2. generates the clusters (bench/gen_cluster.py, seed 1): 10, 100, 1,000, 10,000 and
#    100,000 nodes, valid (checked: greslint must report nothing), and 100,000 nodes with
#    1% of them broken;
# 3. runs the Google Benchmarks (reader, hostlist, model) at 100 ... 100,000 nodes;
# 4. times whole `greslint lint` processes with hyperfine (medians), peak memory with
#    /usr/bin/time -v, the 10-node config with and without --slurm-version (a run of
#    `scontrol --version`), the findings of the broken cluster (grouped or not), and
#    `greslint hostlist -e` against `scontrol show hostnames` and ClusterShell's `nodeset -e`;
# 5. prints a Markdown table (also written to $OUT_DIR/results.md, raw data beside it).
#
# 6. for every shape of bench/gen_cluster.py --shape (racks, per-node lines in one or both
#    files, one gres.conf line per GPU, per-node NodeAddr=, one Include per rack, long
#    partition lists, 16 GPU types, mps/shard): 10,000 and 100,000 nodes valid (checked clean) and 100,000 with 1% broken,
#    whole process under hyperfine (SHAPE_RUNS runs back to back, and IDLE_RUNS at 100,000
#    nodes each after 3 s idle), peak RSS, how grouped the broken
#    variant's findings are, and the stages in process (greslint_bench --shapes).
#
# Environment: BUILD_DIR (default <repo>/build-bench), DATA_DIR (default $BUILD_DIR/bench-data),
# OUT_DIR (default $BUILD_DIR/bench-results), RUNS (hyperfine runs, default 100; HL_RUNS for the
# hostlist comparison, default 100; SHAPE_RUNS for the shapes, default 20; IDLE_RUNS for the
# shapes run once after 3 s idle, default 5), JOBS (default 2),
# SHAPES (default every shape; e.g. SHAPES="racks both-node"),
# SKIP_BUILD=1 (use the binaries already in BUILD_DIR), GRESLINT_BIN and BENCH_BIN (measure other
# binaries, e.g. an older build, with the same harness; implies SKIP_BUILD=1).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-bench}
DATA=${DATA_DIR:-$BUILD/bench-data}
OUT=${OUT_DIR:-$BUILD/bench-results}
RUNS=${RUNS:-100}
JOBS=${JOBS:-2}
SIZES=(100 1000 10000 100000)
VERSION=22.05

say() { printf '\n== %s\n' "$*" >&2; }
need() { command -v "$1" >/dev/null || { echo "bench/run.sh: $1 is required ($2)" >&2; exit 2; }; }
need cmake "apt-get install cmake ninja-build"
need hyperfine "apt-get install hyperfine"
need python3 "apt-get install python3"
[ -x /usr/bin/time ] || { echo "bench/run.sh: /usr/bin/time is required (apt-get install time)" >&2; exit 2; }

mkdir -p "$DATA" "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.txt "$OUT"/*.md

# ---- 1. build ------------------------------------------------------------------------------
if [ "${SKIP_BUILD:-0}" != 1 ] && [ -z "${GRESLINT_BIN:-}" ]; then
  say "building Release in $BUILD"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRESLINT_BENCH=ON >&2
  cmake --build "$BUILD" -j"$JOBS" --target greslint greslint_bench >&2
fi
G=${GRESLINT_BIN:-$BUILD/greslint}
BENCH=${BENCH_BIN:-$BUILD/bench/greslint_bench}
[ -x "$G" ] && [ -x "$BENCH" ] || { echo "bench/run.sh: no $G or $BENCH" >&2; exit 2; }

# ---- 2. clusters -----------------------------------------------------------------------------
say "generating clusters in $DATA"
for n in 10 "${SIZES[@]}"; do
  python3 "$ROOT/bench/gen_cluster.py" --seed 1 --nodes "$n" --out "$DATA/c$n"
done
BROKEN="$DATA/c100000-broken"
# 1% of 100,000 nodes broken, spread over every kind of mistake.
python3 "$ROOT/bench/gen_cluster.py" --seed 1 --nodes 100000 --out "$BROKEN" \
  --inject count-mismatch=200 --inject type-mismatch=150 --inject padding-typo=200 \
  --inject cores-out-of-range=150 --inject missing-file=100 --inject duplicate-file=100 \
  --inject name-case=100

say "checking that the valid clusters have no findings"
for n in 10 "${SIZES[@]}"; do
  for v in 22.05 23.02 23.11 24.05 24.11 25.05 25.11 26.05; do
    if ! out=$("$G" lint "$DATA/c$n" --slurm-version "$v" --fail-level note -q); then
      echo "bench/run.sh: greslint reports findings on the valid cluster c$n (Slurm $v):" >&2
      echo "$out" | head -20 >&2
      exit 1
    fi
  done
done

# ---- 3. Google Benchmark ---------------------------------------------------------------------
say "Google Benchmarks (5 repetitions, medians)"
"$BENCH" --data="$DATA" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$OUT/gbench.json" --benchmark_out_format=json >&2

# ---- 4. whole processes ----------------------------------------------------------------------
hf() {  # [WARMUP=n] hf NAME [hyperfine options] COMMAND...
  local name=$1; shift
  hyperfine -N --style basic --warmup "${WARMUP:-3}" --export-json "$OUT/hf-$name.json" "$@" >&2
}
say "whole-process timings (hyperfine, $RUNS runs each)"
hf floor --runs "$RUNS" "/bin/true"
for n in 10 "${SIZES[@]}"; do
  hf "lint-$n" --runs "$RUNS" "$G lint $DATA/c$n --slurm-version $VERSION"
done
# Without --slurm-version greslint asks the installed scontrol for its release once per
# scontrol binary and keeps the answer in $XDG_CACHE_HOME/greslint: "warm" is every run after
# the first, "cold" (cache removed before each run) the first one, which starts scontrol.
SC="$DATA/scontrol"
mkdir -p "$SC"
printf 'ClusterName=bench\nSlurmctldHost=localhost\n' >"$SC/slurm.conf"
XDG_CACHE_HOME="$DATA/xdg-warm" hf lint-10-autoversion --runs "$RUNS" "$G lint $DATA/c10"
XDG_CACHE_HOME="$DATA/xdg-cold" hf lint-10-autoversion-cold --runs "$RUNS" \
  --prepare "rm -rf $DATA/xdg-cold" "$G lint $DATA/c10"
if command -v scontrol >/dev/null; then
  SLURM_CONF="$SC/slurm.conf" hf scontrol-version --runs "$RUNS" "scontrol --version"
fi
hf lint-100000-broken --runs 10 -i "$G lint $BROKEN --slurm-version $VERSION"

say "peak memory (/usr/bin/time -v, 5 runs each)"
for n in 10 "${SIZES[@]}" 100000-broken; do
  for i in 1 2 3 4 5; do
    /usr/bin/time -v "$G" lint "$DATA/c$n" --slurm-version "$VERSION" >/dev/null 2>"$OUT/time-$n-$i.txt" || true
  done
done

say "findings on 100,000 nodes with 1% broken"
"$G" lint "$BROKEN" --slurm-version "$VERSION" >"$OUT/broken-text.txt" || true
"$G" lint "$BROKEN" --slurm-version "$VERSION" --format json >"$OUT/broken.json" || true
"$G" nodes "$BROKEN" --slurm-version "$VERSION" --format json >"$OUT/broken-nodes.json" || true

say "hostlist expansion: greslint vs scontrol vs nodeset"
export SLURM_CONF="$SC/slurm.conf"  # scontrol show hostnames needs a slurm.conf to start
EXPRS=("node[0-65535]" "r[001-256]n[001-256]")
: >"$OUT/hostlist-same.txt"
for k in 0 1; do
  e=${EXPRS[$k]}
  "$G" hostlist -e "$e" >"$OUT/hl-greslint-$k.txt"
  # Each tool's one-host run sits in the same hyperfine invocation as its 65,536-host run,
  # so that "expansion alone" (the difference of the medians) compares like with like.
  cmds=("$G hostlist -e $e" "$G hostlist -e n1")
  if command -v scontrol >/dev/null; then
    scontrol show hostnames "$e" >"$OUT/hl-scontrol-$k.txt"
    cmds+=("scontrol show hostnames $e" "scontrol show hostnames n1")
    cmp -s "$OUT/hl-greslint-$k.txt" "$OUT/hl-scontrol-$k.txt" && s=same || s=DIFFERENT
    echo "$k scontrol $s" >>"$OUT/hostlist-same.txt"
  fi
  hf "hl-$k" --runs "${HL_RUNS:-100}" "${cmds[@]}"
  if command -v nodeset >/dev/null; then
    nodeset -e "$e" | tr ' ' '\n' >"$OUT/hl-nodeset-$k.txt"
    cmp -s <(sort "$OUT/hl-greslint-$k.txt") <(sort "$OUT/hl-nodeset-$k.txt") && s=same || s=DIFFERENT
    echo "$k nodeset $s" >>"$OUT/hostlist-same.txt"
    WARMUP=1 hf "hl-nodeset-$k" --runs 10 "nodeset -e $e" "nodeset -e n1"
  fi
done

# ---- 6. shapes -------------------------------------------------------------------------------
SHAPES=(${SHAPES:-racks gres-node gres-node2 gres-gpu slurm-node both-node node-addr inventory addr-last rack-features unsorted include-racks partitions types16 shared})
unset SLURM_CONF
say "shapes: ${SHAPES[*]}"
for shape in "${SHAPES[@]}"; do
  for n in 10000 100000; do
    python3 "$ROOT/bench/gen_cluster.py" --seed 1 --nodes "$n" --shape "$shape" --out "$DATA/s-$shape-$n"
  done
  # 1% broken, every kind of mistake (as the rack-shaped 100,000-node cluster above).
  python3 "$ROOT/bench/gen_cluster.py" --seed 1 --nodes 100000 --shape "$shape" --out "$DATA/s-$shape-broken" \
    --inject count-mismatch=200 --inject type-mismatch=150 --inject padding-typo=200 \
    --inject cores-out-of-range=150 --inject missing-file=100 --inject duplicate-file=100 \
    --inject name-case=100
  for v in 22.05 23.02 23.11 24.05 24.11 25.05 25.11 26.05; do
    for n in 10000 100000; do
      [ "$n" = 100000 ] && [ "$v" != "$VERSION" ] && continue  # 100k: the measured release only
      if ! out=$("$G" lint "$DATA/s-$shape-$n" --slurm-version "$v" --fail-level note -q); then
        echo "bench/run.sh: greslint reports findings on the valid $shape cluster of $n nodes (Slurm $v):" >&2
        echo "$out" | head -20 >&2
        exit 1
      fi
    done
  done
  for n in 10000 100000; do
    hf "shape-$shape-$n" --runs "${SHAPE_RUNS:-20}" "$G lint $DATA/s-$shape-$n --slurm-version $VERSION"
  done
  hf "shape-$shape-broken" --runs "${SHAPE_RUNS:-20}" -i "$G lint $DATA/s-$shape-broken --slurm-version $VERSION"
  # As an admin runs it: once, the machine idle for a while. Back to back, each run reuses the
  # memory the one before freed; on a virtual machine whose host takes freed memory back
  # (free page reporting, src/huge_pages.cpp) memory costs more after 2 s idle.
  WARMUP=0 hf "shape-$shape-100000-idle" --runs "${IDLE_RUNS:-5}" --prepare "sleep 3" \
    "$G lint $DATA/s-$shape-100000 --slurm-version $VERSION"
  for n in 10000 100000 broken; do
    for i in 1 2 3; do
      /usr/bin/time -v "$G" lint "$DATA/s-$shape-$n" --slurm-version "$VERSION" >/dev/null 2>"$OUT/time-shape-$shape-$n-$i.txt" || true
    done
  done
  "$G" lint "$DATA/s-$shape-broken" --slurm-version "$VERSION" >"$OUT/shape-$shape-broken-text.txt" || true
  "$G" lint "$DATA/s-$shape-broken" --slurm-version "$VERSION" --format json >"$OUT/shape-$shape-broken.json" || true
  "$G" nodes "$DATA/s-$shape-broken" --slurm-version "$VERSION" --format json >"$OUT/shape-$shape-broken-nodes.json" || true
done

# The same clusters in process, stage by stage (issue 16 asks for both views per shape).
say "shapes in process (Google Benchmark --shapes)"
"$BENCH" --data="$DATA" --shapes="$(IFS=,; echo "${SHAPES[*]}")" --benchmark_filter='^BM_Shape' \
  --benchmark_repetitions=3 --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true \
  --benchmark_out="$OUT/gbench-shapes.json" --benchmark_out_format=json >&2

# What a page no process touched a moment before costs this machine: part of every figure
# above, and most of the gap between runs on a virtual machine and on bare metal.
say "fresh memory (bench/fresh_memory.py)"
python3 "$ROOT/bench/fresh_memory.py" >"$OUT/fresh-memory.json"

# ---- 5. report ------------------------------------------------------------------------------
python3 "$ROOT/bench/report.py" --out "$OUT" --exprs "${EXPRS[@]}" --shapes "${SHAPES[@]}" | tee "$OUT/results.md"
