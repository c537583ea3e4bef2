#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's set-up on a working Slurm node: munged, slurmctld and slurmd run (started by
# Debian's init scripts, as the packages start them, with a minimal /etc/slurm), then both
# README commands' installs run. The daemons must keep running with the same PIDs, the Slurm
# packages and /etc/slurm must be as they were, and during an install that does happen
# /usr/sbin/policy-rc.d must forbid every service action and be put back afterwards.
#
# Usage: test_head_node.sh SOURCE_DIR [--full]
#   --full  run the README's two commands verbatim (build and whole test suite included) in a
#           copy of the tree, instead of their install steps. Minutes; by hand, not in ctest.
#
# Everything happens in private mount, network and PID namespaces: /etc/slurm, /run, the
# processes and ports are the test's own, so a real Slurm on the machine is not touched, and a
# conformance run beside it is not disturbed.
set -euo pipefail
src=$(cd "$1" && pwd)
mode=${2:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in unshare mount munged slurmctld slurmd scontrol start-stop-daemon dpkg-query ip; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh --test installs it)"
done
[ "$(id -u)" = 0 ] || fail "needs root (namespaces, init scripts)"

if [ -z "${HEAD_NODE_NAMESPACED:-}" ]; then
  exec env HEAD_NODE_NAMESPACED=1 unshare --mount --net --pid --fork --mount-proc --propagation private bash "$0" "$@"
fi
# Not inherited: the suite that --full runs holds this test too, and it needs namespaces of its own.
unset HEAD_NODE_NAMESPACED

work=$(mktemp -d)
cleanup() {
  for pidfile in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
ip link set lo up
ip addr add 127.0.0.2/32 dev lo   # glibc's getaddrinfo(AI_ADDRCONFIG) wants an address besides 127.0.0.1

# A node of its own: /run, /etc/slurm and munge's key are private to this namespace.
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /etc/slurm
mkdir -p /run/lock /run/munge "$work/munge" "$work/state" "$work/spool" "$work/log"
chown munge:munge /run/munge "$work/munge"
head -c 1024 /dev/urandom > "$work/munge/munge.key"
chown munge:munge "$work/munge/munge.key"
chmod 600 "$work/munge/munge.key"
mount --bind "$work/munge" /etc/munge
node=$(hostname -s)
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=headnode
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldLogFile=$work/log/slurmctld
SlurmdLogFile=$work/log/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES
CONF

/etc/init.d/munge start || fail "munged did not start"
/etc/init.d/slurmctld start || { cat "$work"/log/* 2>/dev/null; fail "slurmctld did not start"; }
/etc/init.d/slurmd start || fail "slurmd did not start"
pids() {
  local pidfile
  for pidfile in /run/munge/munged.pid /run/slurmctld.pid /run/slurmd.pid; do
    local pid
    pid=$(cat "$pidfile" 2>/dev/null) || { echo "$pidfile: none"; continue; }
    # The start time tells a restarted daemon from one that kept its PID by chance.
    if [ -r "/proc/$pid/stat" ]; then
      echo "$(cat "/proc/$pid/comm") $pid $(cut -d' ' -f22 "/proc/$pid/stat")"
    else
      echo "$pidfile: $pid not running"
    fi
  done
}
for _ in $(seq 50); do
  timeout 3 scontrol ping 2>/dev/null | grep -q UP && [ -s /run/slurmd.pid ] && break
  sleep 0.1
done
before=$(pids)
echo "$before" | grep -q "not running\|none" && { echo "$before"; cat "$work"/log/* 2>/dev/null; fail "the daemons did not start"; }
scontrol ping | grep -q UP || fail "slurmctld does not answer"
state() {
  dpkg-query -W -f='${Package} ${Version} ${db:Status-Abbrev}\n' slurm-client slurmd slurmctld slurm-wlm-basic-plugins munge
  sha256sum /etc/slurm/* /etc/munge/*
  if [ -e /usr/sbin/policy-rc.d ]; then sha256sum /usr/sbin/policy-rc.d; else echo "no policy-rc.d"; fi
}
state_before=$(state)

readme_command() {  # the Nth ```sh block of the README
  awk -v n="$1" '/^```sh$/ {k++; next} /^```$/ {next} k == n {print; exit}' "$src/README.md"
}
if [ "$mode" = --full ]; then
  cp -a "$src" "$work/tree"
  rm -rf "$work/tree/build"
  for n in 1 2; do
    echo "== README command $n: $(readme_command "$n")"
    rc=0
    (cd "$work/tree" && bash -c "$(readme_command "$n")") | tee "$work/readme-$n.log" || rc=$?
    # The first ends by linting examples/broken, whose findings exit 1 by design.
    if [ "$n" = 1 ] && [ "$rc" = 1 ] && grep -q "^3 errors, 7 warnings" "$work/readme-1.log"; then rc=0; fi
    [ "$rc" = 0 ] || fail "README command $n failed (exit $rc)"
  done
else
  # The installs of the two commands; their build and test steps start no service.
  first=$(readme_command 1)
  [ "${first%% && *}" = "bash scripts/install-deps.sh" ] || fail "README command 1 no longer starts with the install: $first"
  [ "$(readme_command 2)" = "bash scripts/test.sh" ] || fail "README command 2 is not bash scripts/test.sh"
  grep -qx 'bash scripts/install-deps.sh --test' "$src/scripts/test.sh" || fail "scripts/test.sh does not install the test dependencies"
  (cd "$src" && bash scripts/install-deps.sh) || fail "README command 1's install failed"
  (cd "$src" && bash scripts/install-deps.sh --test) || fail "README command 2's install failed"
fi

after=$(pids)
[ "$before" = "$after" ] || { printf 'before:\n%s\nafter:\n%s\n' "$before" "$after"; fail "a daemon was stopped or restarted"; }
scontrol ping | grep -q UP || fail "slurmctld stopped answering"
[ "$state_before" = "$(state)" ] || { diff <(echo "$state_before") <(state); fail "Slurm's packages, /etc/slurm or policy-rc.d changed"; }
echo "daemons kept running:"
echo "$after"

# An install that does happen: a fake apt-get stands in for Debian's and records, while it
# "installs", what policy-rc.d answers for a service start. dpkg-query is told that slurmctld
# is missing, so the test dependencies ask for it, at the installed Slurm's version.
fake="$work/fake"
mkdir -p "$fake"
cat > "$fake/dpkg-query" <<'SH'
#!/bin/sh
for a; do case "$a" in slurmctld|nodejs|npm) exit 1 ;; esac; done
exec /usr/bin/dpkg-query "$@"
SH
cat > "$fake/apt-get" <<SH
#!/bin/sh
echo "apt-get \$*" >> "$work/apt.log"
case " \$* " in
  *" -s "*) [ -n "\${FAKE_PLAN:-}" ] && echo "\$FAKE_PLAN"; echo "Inst slurmctld (fake)"; exit 0 ;;
  *" install "*) if [ -x /usr/sbin/policy-rc.d ]; then /usr/sbin/policy-rc.d slurmctld start; else echo 0; fi
                 echo "policy-rc.d slurmctld start: \$?" >> "$work/apt.log" ;;
esac
SH
chmod +x "$fake/dpkg-query" "$fake/apt-get"
slurm_version=$(dpkg-query -W -f='${Version}' slurmd)
install_with_fakes() {
  : > "$work/apt.log"
  (cd "$src" && PATH="$fake:$PATH" bash scripts/install-deps.sh --test) > "$work/out.log" 2>&1
}
check_policy_during_install() {
  grep -q "install .*slurmctld=$slurm_version" "$work/apt.log" || { cat "$work/apt.log"; fail "slurmctld not asked for at the installed version $slurm_version"; }
  grep -qx "policy-rc.d slurmctld start: 101" "$work/apt.log" || { cat "$work/apt.log"; fail "policy-rc.d did not forbid a service start during the install"; }
}

# 1. A policy-rc.d of the machine's own: in force again afterwards, byte for byte.
printf '#!/bin/sh\n# the site'"'"'s own policy\nexit 0\n' > "$work/site-policy"
chmod 755 "$work/site-policy"
# policy-rc.d is replaced by a rename, so the test gives itself a private /usr/sbin.
mount -t tmpfs tmpfs /usr/sbin
cp "$work/site-policy" /usr/sbin/policy-rc.d
install_with_fakes || { cat "$work/out.log"; fail "install with a site policy failed"; }
check_policy_during_install
cmp -s "$work/site-policy" /usr/sbin/policy-rc.d || fail "the site's policy-rc.d was not restored"
[ "$(ls -A /usr/sbin)" = policy-rc.d ] || { ls -A /usr/sbin; fail "files left behind in /usr/sbin"; }

# 2. No policy-rc.d before: none after.
rm -f /usr/sbin/policy-rc.d
install_with_fakes || { cat "$work/out.log"; fail "install without a site policy failed"; }
check_policy_during_install
[ -z "$(ls -A /usr/sbin)" ] || { ls -A /usr/sbin; fail "policy-rc.d or a temporary file left behind"; }

# 3. A plan that would upgrade an installed Slurm package is refused before anything is installed.
export FAKE_PLAN="Inst slurm-wlm-basic-plugins [$slurm_version] (99.0 Debian:12/stable [amd64])"
if install_with_fakes; then fail "an install that upgrades slurm-wlm-basic-plugins went ahead"; fi
grep -q "would change packages already installed" "$work/out.log" || { cat "$work/out.log"; fail "no reason given"; }
grep -q " install -y" "$work/apt.log" && fail "apt-get install ran although the plan upgrades an installed package"

# 4. The same for an upgrade to another upstream version of a library, while the Debian
#    release's own security update of one that a new package needs (an image older than the
#    archive) goes ahead and is listed.
export FAKE_PLAN="Inst libfoo1 [1.0-1] (1.1-1 Debian:12/stable [amd64])"
if install_with_fakes; then fail "an install that upgrades libfoo1 to a new upstream version went ahead"; fi
grep -q "Inst libfoo1" "$work/out.log" || { cat "$work/out.log"; fail "the refused upgrade is not named"; }
export FAKE_PLAN="Inst perl-base [5.36.0-7+deb12u2] (5.36.0-7+deb12u4 Debian-Security:12/oldstable-security [amd64])"
install_with_fakes || { cat "$work/out.log"; fail "a same-release security update of perl-base was refused"; }
grep -q "perl-base 5.36.0-7+deb12u2 -> 5.36.0-7+deb12u4" "$work/out.log" || { cat "$work/out.log"; fail "the security update is not listed"; }
check_policy_during_install
unset FAKE_PLAN
umount /usr/sbin

after=$(pids)
[ "$before" = "$after" ] || fail "a daemon was stopped or restarted"
echo "policy-rc.d: 101 during installs, the site's own restored, none left behind; Slurm and new-version upgrades refused, same-release updates listed"
