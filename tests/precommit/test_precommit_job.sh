#!/usr/bin/env bash
# The greslint-job pre-commit hook with the real pre-commit, on a repository of job scripts
# set up as docs/job.md says (its .pre-commit-config.yaml, the cluster's configuration in
# cluster/): a script whose GPU type does not exist is rejected, the fixed one goes in, and
# a change to a file that is no script runs nothing.
# Usage: test_precommit_job.sh GRESLINT_BINARY SOURCE_DIR
# shellcheck source=setup.sh
source "$(dirname "$0")/setup.sh" "$@"

repo="$work/jobs"
mkdir -p "$repo/cluster"
awk '/^## In a repository of job scripts/ {on=1} on && /^```yaml$/ {getline; while ($0 != "```") {print; getline}; exit}' \
  "$src/docs/job.md" | sed -e "s|repo: .*|repo: $hooks|" -e "s|rev: .*|rev: $rev|" > "$repo/.pre-commit-config.yaml"
grep -q "id: greslint-job" "$repo/.pre-commit-config.yaml" || fail "no greslint-job configuration in docs/job.md"
cp "$src/tests/fixtures/GRS603/slurm.conf" "$src/tests/fixtures/GRS603/gres.conf" "$repo/cluster/"
printf '#!/bin/bash\n#SBATCH -p gpu --gres=gpu:v100:2\nsrun ./train\n' > "$repo/train.sh"
git -C "$repo" init -q
cd "$repo"
pre-commit install >/dev/null
git add -A
if git commit -qm "train on v100" > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; fail "a job asking for a GPU type no node has was committed"
fi
grep -q "GRS603" "$work/bad.log" || { cat "$work/bad.log"; fail "no GRS603 in the hook's output"; }
sed -i 's/v100/V100/' train.sh
git add -A
git commit -qm "train on V100" > "$work/good.log" 2>&1 || { cat "$work/good.log"; fail "the fixed job was rejected"; }
printf 'notes\n' > README
git add -A
git commit -qm notes > "$work/notes.log" 2>&1 || { cat "$work/notes.log"; fail "a commit without scripts was rejected"; }
grep -q "no files to check" "$work/notes.log" || { cat "$work/notes.log"; fail "the hook ran on a file that is no script"; }
echo "greslint-job hook: a bad job script is rejected, the fixed one goes in"
