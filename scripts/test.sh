#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command (and .ci/run's first phase): installs what the tests need
# (scripts/install-deps.sh --test: safe on a head node), configures and builds greslint with
# its tests in BUILD_DIR (default: build), and runs the whole suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}
bash scripts/install-deps.sh --test
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRESLINT_BUILD_TESTS=ON -DGRESLINT_WERROR=ON
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
