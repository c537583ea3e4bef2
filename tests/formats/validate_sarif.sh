#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates SARIF files with Microsoft's SARIF Multitool (schema, SARIF and GitHub rules);
# fails on any error-level result. Installs nothing: .ci/run installs the npm package.
#
# usage: validate_sarif.sh FILE.sarif...
# Finds the tool in $SARIF_MULTITOOL, <repo>/.ci/node_modules, ./node_modules or npm's global
# root. Exit: 0 clean, 1 errors, 2 usage, 77 validator not installed (an error when CI=true).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 FILE.sarif..." >&2
  exit 2
fi
for sarif in "$@"; do
  if [ ! -f "$sarif" ]; then
    echo "validate_sarif: $sarif: no such file" >&2
    exit 2
  fi
done
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

find_multitool() {
  if [ -n "${SARIF_MULTITOOL:-}" ]; then
    echo "$SARIF_MULTITOOL"
    return
  fi
  local dirs=("$repo/.ci/node_modules" "$PWD/node_modules")
  if command -v npm >/dev/null 2>&1; then dirs+=("$(npm root -g 2>/dev/null || true)"); fi
  local dir
  for dir in "${dirs[@]}"; do
    # The native binary, not npx: the npm wrapper runs it through a shell, which splits "Sarif;Gh".
    if [ -n "$dir" ] && [ -f "$dir/@microsoft/sarif-multitool-linux/Sarif.Multitool" ]; then
      echo "$dir/@microsoft/sarif-multitool-linux/Sarif.Multitool"
      return
    fi
  done
}

multitool=$(find_multitool)
if [ -z "$multitool" ]; then
  echo "validate_sarif: @microsoft/sarif-multitool is not installed (npm install --prefix .ci @microsoft/sarif-multitool)" >&2
  [ "${CI:-}" = true ] && exit 1
  exit 77
fi
if [ ! -x "$multitool" ]; then
  echo "validate_sarif: $multitool is not executable (chmod u+x it after npm install)" >&2
  exit 1
fi
command -v node >/dev/null 2>&1 || { echo "validate_sarif: node is needed to read the validator's log" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# .NET needs ICU unless told not to; the validator has no use for culture data.
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1
export DOTNET_CLI_TELEMETRY_OPTOUT=1

# The tool exits 0 even when it finds errors, so its own SARIF log is what decides.
"$multitool" validate "$@" --output "$work/validation.sarif" --rule-kind "Sarif;Gh" \
  --level "Error;Warning" --config "$(dirname "${BASH_SOURCE[0]}")/sarif-validation.xml" --log ForceOverwrite
if [ ! -s "$work/validation.sarif" ]; then
  echo "validate_sarif: the validator wrote no log" >&2
  exit 1
fi

node -e '
const log = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
let errors = 0, warnings = 0;
for (const run of log.runs || []) {
  for (const inv of run.invocations || []) {
    if (inv.executionSuccessful === false) errors++;
    for (const n of inv.toolExecutionNotifications || [])
      if ((n.level || "warning") === "error") errors++;
  }
  for (const r of run.results || []) {
    const level = r.level || "warning";
    if (level === "error") errors++;
    else if (level === "warning") warnings++;
  }
}
console.log(`validate_sarif: ${errors} errors, ${warnings} warnings`);
process.exit(errors ? 1 : 0);
' "$work/validation.sarif"
