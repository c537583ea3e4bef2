#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs from Debian 12's packages what greslint needs (run as root). Safe on a Slurm head
# node: nothing installed is changed and no service is started or stopped
# (scripts/debian-packages.sh says how).
#
# Usage: scripts/install-deps.sh [--test] [--bench]
#   (none)   building greslint: a compiler, CMake, Ninja, CLI11, fmt, spdlog, nlohmann-json.
#   --test   also the test suite's (scripts/test.sh passes it): Catch2; Slurm 22.05 (scontrol
#            for the hostlist differential test, slurmd/slurmctld/munge for the live
#            conformance suite, slurmdbd and mariadb-server for its limits cases: the
#            harness runs its own mariadbd in a sandbox, the service is not started); python3; pre-commit, dpkg-dev, file, jsonschema; clang and its
#            runtime for the ASan/UBSan suite and libFuzzer; clang-tidy; GNU time; Microsoft's SARIF
#            validator (npm, into .ci/node_modules).
#   --bench  also bench/run.sh's: Google Benchmark, hyperfine, ClusterShell, scontrol.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/debian-packages.sh
. "$here/scripts/debian-packages.sh"

build_packages=(build-essential cmake ninja-build pkg-config libcli11-dev libfmt-dev libspdlog-dev nlohmann-json3-dev)
test_packages=(catch2 python3 slurm-client slurmd slurmctld slurmdbd mariadb-server munge iproute2 util-linux procps
               git pre-commit dpkg-dev file python3-jsonschema python3-yaml clang libclang-rt-14-dev clang-tidy time debootstrap zsh)
bench_packages=(libbenchmark-dev hyperfine clustershell python3 time slurm-client)

# Microsoft's SARIF validator, used by the sarif_validation test. The machine image may
# already carry Node.js (whose package conflicts with Debian's npm): Debian's only when there
# is none. The tarball ships the native binary without the execute bit.
sarif_validator() {
  command -v npm >/dev/null 2>&1 || install_packages nodejs npm
  local tool="$here/.ci/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
  if [ ! -x "$tool" ]; then
    npm install --prefix "$here/.ci" --no-save --no-audit --no-fund @microsoft/sarif-multitool@5.7.0 >/dev/null
    chmod u+x "$tool"
  fi
}


packages=("${build_packages[@]}")
test=0
for arg in "$@"; do
  case "$arg" in
    --test) test=1; packages+=("${test_packages[@]}") ;;
    --bench) packages+=("${bench_packages[@]}") ;;
    *) echo "usage: scripts/install-deps.sh [--test] [--bench]" >&2; exit 2 ;;
  esac
done
install_packages "${packages[@]}"
if [ "$test" = 1 ]; then
  sarif_validator
fi
