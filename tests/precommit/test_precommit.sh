#!/usr/bin/env bash
# The pre-commit hook with the real pre-commit, on a configuration repository of three
# clusters set up as docs/ci.md says (its .pre-commit-config.yaml, a .greslint.conf per
# cluster with a release of its own): the clusters that read a changed file are linted, each
# once and under its own release; an edit to an Included nodes.conf counts; a folder name
# with a space works; a bad commit is rejected and the fixed one goes in.
# Usage: test_precommit.sh GRESLINT_BINARY SOURCE_DIR
# shellcheck source=setup.sh
source "$(dirname "$0")/setup.sh" "$@"

repo="$work/site-config"
mkdir -p "$repo"
git -C "$repo" init -q
# docs/ci.md's configuration, pointed at the local hook repository; verbose, so that the
# output of a passing run can be checked too.
awk '/^## pre-commit/ {on=1} on && /^```yaml$/ {getline; while ($0 != "```") {print; getline}; exit}' "$src/docs/ci.md" |
  sed -e "s|repo: .*|repo: $hooks|" -e "s|rev: .*|rev: $rev|" > "$repo/.pre-commit-config.yaml"
grep -q "id: greslint" "$repo/.pre-commit-config.yaml" || fail "no pre-commit configuration in docs/ci.md"
printf '        verbose: true\n' >> "$repo/.pre-commit-config.yaml"

head_conf() {
  printf 'ClusterName=%s\nSlurmctldHost=head\nSelectType=select/cons_tres\nGresTypes=gpu\n' "$1"
  printf 'TaskPlugin=task/affinity,task/cgroup\nProctrackType=proctrack/cgroup\n'
}
make_cluster() {  # DIR NAME RELEASE: 2 nodes with 4 A100 each; the nodes in an Included nodes.conf
  local dir="$repo/$1"
  mkdir -p "$dir"
  { head_conf "$2"; printf 'Include nodes.conf\nPartitionName=gpu Nodes=gpu[01-02] Default=YES\n'; } > "$dir/slurm.conf"
  printf 'NodeName=gpu[01-02] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n' > "$dir/nodes.conf"
  printf 'NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n' > "$dir/gres.conf"
  printf 'ConstrainDevices=yes\n' > "$dir/cgroup.conf"
  printf 'SlurmVersion=%s\n' "$3" > "$dir/.greslint.conf"
}
make_cluster alpha alpha 22.05
make_cluster "site b" siteb 23.11
make_cluster gamma gamma 24.05
printf 'Site configuration\n' > "$repo/README"

cd "$repo"
pre-commit install >/dev/null
commit() {  # LOG MESSAGE: commits what is staged; the hook's output goes to LOG
  git add -A
  git commit -qm "$2" > "$work/$1" 2>&1
}
# How often each cluster's release shows in a summary line: one line per cluster linted.
runs_of() { grep -c "(Slurm $1 profile from .greslint.conf)" "$work/$2" || true; }
expect_runs() {  # LOG ALPHA SITEB GAMMA
  local got
  got="$(runs_of 22.05 "$1") $(runs_of 23.11 "$1") $(runs_of 24.05 "$1")"
  [ "$got" = "$2 $3 $4" ] || { cat "$work/$1"; fail "$1: clusters linted (alpha, site b, gamma) $got, expected $2 $3 $4"; }
}

# 1. The first commit touches every cluster: each is linted once, under its own release.
commit first.log "three clusters" || { cat "$work/first.log"; fail "the clean first commit was rejected"; }
expect_runs first.log 1 1 1

# 2. An Included file of the cluster whose folder has a space in its name: 2 of 4 GPUs.
sed -i 's/gpu:a100:4/gpu:a100:8/' "site b/nodes.conf"
if commit included.log "site b: 8 GPUs per node"; then
  cat "$work/included.log"; fail "the commit that gives site b 8 of 4 GPUs was accepted"
fi
grep -q "GRS301" "$work/included.log" || { cat "$work/included.log"; fail "no GRS301 for site b"; }
expect_runs included.log 0 1 0

# 3. The fix touches two files of that cluster and one of another: each linted once.
sed -i 's/gpu:a100:8/gpu:a100:4/' "site b/nodes.conf"
printf '# 4 x A100 per node\n' >> "site b/gres.conf"
printf '# GPUs only through cgroups\n' >> gamma/cgroup.conf
commit fixed.log "site b: back to 4 GPUs" || { cat "$work/fixed.log"; fail "the fixed commit was rejected"; }
expect_runs fixed.log 0 1 1

# 4. A file no cluster reads lints nothing; a gres.conf without a slurm.conf says so.
printf 'More notes\n' >> README
mkdir -p orphan
printf 'Name=gpu File=/dev/nvidia0\n' > orphan/gres.conf
commit unread.log "notes" || { cat "$work/unread.log"; fail "a commit of files no cluster reads was rejected"; }
expect_runs unread.log 0 0 0
grep -q "orphan/gres.conf is read by no slurm.conf" "$work/unread.log" || { cat "$work/unread.log"; fail "the orphan gres.conf was not reported"; }

echo "pre-commit hook: Included files, spaces, one run per cluster, each cluster's own release"
