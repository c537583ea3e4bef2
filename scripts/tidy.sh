#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy over greslint's sources with the repository's .clang-tidy; exits non-zero on
# any finding. Usage: scripts/tidy.sh [BUILD_DIR] (a configured build, for
# compile_commands.json). CI runs it (.ci/run); docs/ci.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mapfile -t files < <(git ls-files 'src/*.cpp')
# keys.cpp's tables are std::arrays of 270 rows: past clang's default fold depth of 256.
run-clang-tidy-14 -p "$build" -quiet -extra-arg=-fbracket-depth=1024 "${files[@]/#/$PWD/}"
