#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (-DGRESLINT_SANITIZE=ON),
# in a build directory of its own. Fails on any failing test and on any sanitizer report, even
# one a test harness swallowed (reports are written to files and checked at the end).
#
# Usage: scripts/sanitize.sh [BUILD_DIR]     default BUILD_DIR: build-asan in the source tree
# Environment: JOBS (default 2); CC/CXX (default clang/clang++ when installed, else the system
#              compiler); SANITIZE_STEP=build (configure and build only) or test (run the
#              suite in a build an earlier SANITIZE_STEP=build made), default both.
#
# With clang the same build directory also builds the libFuzzer targets (-DGRESLINT_FUZZ=ON):
# tests/fuzz/smoke.sh BUILD_DIR then fuzzes without compiling greslint a second time, which is
# what keeps sanitizers + fuzzing inside the CI budget (docs/robustness.md has the timings).
#
# Not run here: the tests labelled `live` (conformance_live, differential_live, jobs_live,
# why_live_drift, setup_head_node: they check greslint's agreement with the real Slurm
# daemons, whose runs are most of their time, and the README phase runs them; greslint's side
# of every recorded case runs here in the *_recorded tests) and deb_package (a package of an
# instrumented binary tests nothing new), and cli_drain_reasons: it checks that lint and nodes
# agree on each drain reason, a property of the model, by running both on every case and
# fixture under all eight release profiles; under ASan its 11,000 processes took 288 s of the
# suite's 377 (every greslint process costs ~50 ms there, 5 ms in the Release build), and
# conformance_recorded and the fixture tests run the same inputs under ASan anyway;
# new_rule, whose work is compiling the rule scripts/new_rule.py starts (the README phase
# runs it); and bench_generator, which checks the benchmark's Python generator against the
# binary's verdicts (40 s of instrumented lint on 2,000-node clusters; the hostile suite
# gives ASan the large inputs).
# Everything else runs, the hostile-input suite scaled for ASan (tests/hostile/test_hostile.py:
# inputs /10, hang guard x10, no address-space cap because ASan reserves terabytes of it, and
# the never-writes check on every fourth case), and why_captures on every third capture.
# The suites that replay recorded cases by the hundred add detect_leaks=0 and
# detect_stack_use_after_return=0 to the ASAN_OPTIONS below (greslint_bulk_replay,
# tests/CMakeLists.txt); every other test runs with all of them.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-asan}
jobs=${JOBS:-2}
generator=()
if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
fuzz=OFF
if [ -z "${CXX:-}" ] && command -v clang++ >/dev/null; then
  export CC=clang CXX=clang++
fi
if "${CXX:-c++}" --version 2>/dev/null | grep -q clang; then fuzz=ON; fi

reports=$(mktemp -d "${TMPDIR:-/tmp}/greslint-sanitizers-XXXXXX")
trap 'rm -rf "$reports"' EXIT

start=$(date +%s)
# -O1 -g1: a third of the compile time of -O2 -g, fast enough tests, line numbers in reports.
# The unity build (GRESLINT_UNITY_BUILD, CMakeLists.txt) compiles greslint_core in batches of
# 8 sources: 575 s -> 204 s of compile time.
if [ "${SANITIZE_STEP:-all}" != test ]; then
  cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DGRESLINT_SANITIZE=ON -DGRESLINT_UNITY_BUILD=ON -DGRESLINT_BUILD_TESTS=ON \
        -DGRESLINT_FUZZ=$fuzz >/dev/null
  cmake --build "$build" -j "$jobs"
fi
built=$(date +%s)
if [ "${SANITIZE_STEP:-all}" = build ]; then
  echo "sanitize.sh: build $((built - start)) s"
  exit 0
fi

# exitcode=86: a sanitizer death must not look like greslint's exit 1 (findings).
common="exitcode=86:halt_on_error=1:abort_on_error=0:print_stacktrace=1:symbolize=1"
export ASAN_OPTIONS="$common:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:log_path=$reports/asan"
export UBSAN_OPTIONS="$common:print_summary=1:log_path=$reports/ubsan"
export LSAN_OPTIONS="exitcode=86:log_path=$reports/lsan"

status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE '^live$' -E '^(deb_package|cli_drain_reasons|new_rule|bench_generator)$' || status=$?
done_at=$(date +%s)

if compgen -G "$reports/*" >/dev/null; then
  echo "sanitizer reports:" >&2
  for f in "$reports"/*; do
    echo "==> $f" >&2
    head -n 60 "$f" >&2
  done
  status=1
fi
echo "sanitize.sh: build $((built - start)) s, tests $((done_at - built)) s, status $status"
exit "$status"
