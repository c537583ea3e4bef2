#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz smoke run (CI): builds the libFuzzer targets with clang (ASan+UBSan), builds the seed
# corpus from the test fixtures and examples, replays tests/regress/, then fuzzes each target
# for a fixed time. Any crash, sanitizer report, timeout (> 10 s for one input), allocation
# over 1 GB or broken invariant fails the run; the input is kept in
#   BUILD_DIR/fuzz-findings/<target>/
# Minimise it (./fuzz_<target> -minimize_crash=1 -runs=10000 FILE), fix the bug, and add the
# input to tests/regress/<target>/ so that ctest replays it forever after.
#
# Usage: tests/fuzz/smoke.sh [BUILD_DIR]          default BUILD_DIR: build-fuzz in the source tree
#        (or the build directory of scripts/sanitize.sh, whose clang build has the targets)
# Environment: FUZZ_SECONDS   seconds per target (default 30)
#              FUZZ_TARGETS   default "reader hostlist gres_values pipeline"
#              JOBS           build parallelism and targets fuzzed at once (default 2)
#              FUZZ_NICE      e.g. "nice -n 19" on a shared machine
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build-fuzz}
seconds=${FUZZ_SECONDS:-30}
targets=${FUZZ_TARGETS:-"reader hostlist gres_values pipeline"}
jobs=${JOBS:-2}
read -r -a nice_cmd <<<"${FUZZ_NICE:-}"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi

start=$(date +%s)
# A build directory that already has the fuzz targets (scripts/sanitize.sh with clang makes
# one) is reused as it is; otherwise a fuzz-only build is configured.
if ! grep -qs '^GRESLINT_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGRESLINT_FUZZ=ON -DGRESLINT_BUILD_TESTS=OFF >/dev/null
fi
"${nice_cmd[@]}" cmake --build "$build" -j "$jobs" --target fuzz_all
built=$(date +%s)

bin=$build/tests/fuzz
corpus=$build/fuzz-corpus
findings=$build/fuzz-findings
rm -rf "$corpus"
python3 "$here/tests/fuzz/make_corpus.py" "$corpus/seeds"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:print_stacktrace=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# One target: replay its regression inputs, then fuzz. Prints to $findings/$t/summary; the
# status file says whether it failed. JOBS targets run at once (each fuzzer is one process).
fuzz_target() {
  local t=$1
  mkdir -p "$corpus/work/$t" "$findings/$t"
  {
    if [ -d "$here/tests/regress/$t" ] && compgen -G "$here/tests/regress/$t/*" >/dev/null; then
      echo "== $t: replaying tests/regress/$t"
      if ! "${nice_cmd[@]}" "$bin/fuzz_$t" -runs=0 -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=2048 \
           -artifact_prefix="$findings/$t/" "$here/tests/regress/$t" >"$findings/$t/regress.log" 2>&1; then
        tail -n 40 "$findings/$t/regress.log"
        echo "$t (tests/regress)" >"$findings/$t/failed"
        return
      fi
    fi
    echo "== $t: fuzzing for $seconds s"
    if "${nice_cmd[@]}" "$bin/fuzz_$t" -dict="$here/tests/fuzz/greslint.dict" -max_total_time="$seconds" -timeout=10 \
         -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=8192 -print_final_stats=1 \
         -artifact_prefix="$findings/$t/" "$corpus/work/$t" "$corpus/seeds/$t" >"$findings/$t/fuzz.log" 2>&1; then
      grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$findings/$t/fuzz.log" || true
    else
      tail -n 60 "$findings/$t/fuzz.log"
      echo "$t" >"$findings/$t/failed"
    fi
  } >"$findings/$t/summary" 2>&1
}

running=0
for t in $targets; do
  rm -f "$findings/$t/failed"
  fuzz_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
failed=()
for t in $targets; do
  cat "$findings/$t/summary"
  if [ -e "$findings/$t/failed" ]; then failed+=("$(cat "$findings/$t/failed")"); fi
done
end=$(date +%s)
echo "fuzz smoke: build $((built - start)) s, fuzzing $((end - built)) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz smoke FAILED: ${failed[*]} (inputs in $findings)" >&2
  exit 1
fi
echo "fuzz smoke passed: $targets"
