#!/usr/bin/env bash
# The pre-commit hook with the real pre-commit: a bad gres.conf commit is rejected,
# the fixed one goes through. Usage: test_precommit.sh GRESLINT_BINARY SOURCE_DIR
set -euo pipefail
greslint=$1
src=$2
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (CI installs Debian's pre-commit)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$work/bin"
mkdir -p "$bin"
ln -s "$greslint" "$bin/greslint"
ln -s "$src/scripts/greslint-pre-commit" "$bin/greslint-pre-commit"
export PATH="$bin:$PATH" HOME="$work/home" PRE_COMMIT_HOME="$work/cache"
mkdir -p "$HOME"

# The hook repository: a git copy of the hook definition.
hooks="$work/hooks"
mkdir -p "$hooks"
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q
git -C "$hooks" -c user.email=t@t -c user.name=t add .
git -C "$hooks" -c user.email=t@t -c user.name=t commit -qm hooks
rev=$(git -C "$hooks" rev-parse HEAD)

repo="$work/site-config"
mkdir -p "$repo/cluster"
git -C "$repo" init -q
cat > "$repo/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: greslint
        args: [--slurm-version, "22.05", --color, never]
YAML
cat > "$repo/cluster/slurm.conf" <<'CONF'
ClusterName=site
SlurmctldHost=head
SelectType=select/cons_tres
GresTypes=gpu
NodeName=gpu[01-02] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4
PartitionName=gpu Nodes=gpu[01-02] Default=YES
TaskPlugin=task/affinity,task/cgroup
ProctrackType=proctrack/cgroup
CONF
printf 'NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-1]\n' > "$repo/cluster/gres.conf"
printf 'ConstrainDevices=yes\n' > "$repo/cluster/cgroup.conf"
cd "$repo"
git -c user.email=t@t -c user.name=t add -A
pre-commit install >/dev/null
if git -c user.email=t@t -c user.name=t commit -qm "bad gres.conf" > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"; echo "FAIL: the commit with 2 of 4 GPUs was accepted"; exit 1
fi
grep -q "GRS301" "$work/bad.log" || { cat "$work/bad.log"; echo "FAIL: no GRS301 in the hook output"; exit 1; }
printf 'NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n' > cluster/gres.conf
git -c user.email=t@t -c user.name=t add -A
if ! git -c user.email=t@t -c user.name=t commit -qm "fixed gres.conf" > "$work/good.log" 2>&1; then
  cat "$work/good.log"; echo "FAIL: the fixed commit was rejected"; exit 1
fi
echo "pre-commit hook: bad commit rejected, fixed commit accepted"
