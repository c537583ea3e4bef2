#!/usr/bin/env bash
# Installs what greslint needs to build and test on Debian 12 (run as root).
# Build: CLI11, fmt, spdlog, Catch2. Tests: Slurm 22.05 (scontrol for the hostlist
# differential test; slurmd/slurmctld/munge for the live conformance suite), python3 (with
# jsonschema, and yaml for the CI recipes of docs/ci.md);
# clang with its runtime libraries for the ASan/UBSan suite and the libFuzzer smoke run;
# GNU time for the hostile-input suite's peak-memory figures.
#
# Usage: scripts/install-deps.sh [--bench]
#   --bench  also what bench/run.sh needs: Google Benchmark, hyperfine, ClusterShell.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(build-essential cmake ninja-build pkg-config
          libcli11-dev libfmt-dev libspdlog-dev catch2
          python3 slurm-client slurmd slurmctld munge iproute2 util-linux
          git pre-commit dpkg-dev file python3-jsonschema python3-yaml
          clang libclang-rt-14-dev time)
if [ "${1:-}" = "--bench" ]; then
  packages+=(libbenchmark-dev hyperfine clustershell)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Debian packages start the daemons; the test suites run their own private ones.
systemctl stop slurmd slurmctld munge >/dev/null 2>&1 || true
# npm: the machine image may already carry Node.js (whose package conflicts with
# Debian's npm); install Debian's only when there is none.
if ! command -v npm >/dev/null 2>&1; then
  apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
# Microsoft's SARIF validator (npm), used by the sarif_validation test. Its tarball ships
# the native binary without the execute bit.
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$here/.ci/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" ]; then
  npm install --prefix "$here/.ci" --no-save --no-audit --no-fund @microsoft/sarif-multitool@5.7.0 >/dev/null
  chmod u+x "$here/.ci/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
fi
