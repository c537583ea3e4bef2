#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command (and .ci/run's first phase): installs what the tests need
# (scripts/install-deps.sh --test: safe on a head node), configures and builds greslint with
# its tests in BUILD_DIR (default: build), and runs the whole suite. UNITY_BUILD=OFF: see below.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}
bash scripts/install-deps.sh --test
# The Debian chroots of the live Slurm 24.11 and 26.05 suites (docs/conformance.md), built
# beside the compile (the one is network and disk, the other CPU); reused when already there.
chroot_log=$(mktemp)
bash scripts/make-chroots.sh >"$chroot_log" 2>&1 &
chroots=$!
rm -f "$build/.greslint-built"
# A unity build (GRESLINT_UNITY_BUILD=ON, CMakeLists.txt): the same sources compiled in
# batches of 8 sources, 2.3 times less compile time on the 2-core CI machine (the build is on
# the path of everything after it). UNITY_BUILD=OFF compiles one source per translation unit,
# the better loop for editing one file.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRESLINT_BUILD_TESTS=ON -DGRESLINT_WERROR=ON \
      -DGRESLINT_UNITY_BUILD="${UNITY_BUILD:-ON}"
cmake --build "$build"
# The build is done: .ci/run starts its CPU-bound phases at low priority beside the tests,
# which mostly wait on Slurm's daemons.
touch "$build/.greslint-built"
wait "$chroots" || { cat "$chroot_log"; rm -f "$chroot_log"; exit 1; }
cat "$chroot_log"; rm -f "$chroot_log"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
