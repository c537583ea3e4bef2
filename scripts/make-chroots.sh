#!/usr/bin/env bash
# Builds the Debian chroots whose Slurm packages the live conformance suite and the
# differential fuzzer run besides the host's 22.05 (docs/conformance.md):
#   trixie (Debian 13): Slurm 24.11      sid (Debian unstable): Slurm 26.05
# A chroot that is already there and runs its release is reused, so a machine builds each
# once (about a minute, 280 MiB); both are built at the same time. Run as root.
#
# Usage: scripts/make-chroots.sh [DIR]     DIR: $GRESLINT_CHROOTS, else /var/cache/greslint-chroots
#
# Each chroot is debootstrap --variant=minbase of the suite from the Debian mirror this machine's
# apt already uses, plus slurmd slurmctld slurm-client slurmdbd munge (no python3: the harness runs on the
# host). Package scripts run in a private network and mount namespace, and policy-rc.d forbids
# them to start any service. A chroot is built under DIR/SUITE.new and renamed when complete,
# so an interrupted build is never mistaken for a finished one.
set -euo pipefail

dir="${1:-${GRESLINT_CHROOTS:-/var/cache/greslint-chroots}}"
declare -A release_of=([trixie]=24.11 [sid]=26.05)
[[ $(id -u) -eq 0 ]] || { echo "make-chroots: must run as root" >&2; exit 1; }

# The first Debian archive of this machine's apt sources (deb822 or one-line format).
debian_mirror() {
  local m
  m="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
       awk 'tolower($1)=="uris:" {u=$2} tolower($1)=="suites:" && u!="" {
              for (i = 2; i <= NF; i++) if ($i !~ /-(security|updates|backports)$/) {print u; exit} }')"
  [[ -n "$m" ]] || m="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
       awk '$1=="deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}')"
  [[ -n "$m" ]] || { echo "make-chroots: no Debian mirror in /etc/apt/sources*" >&2; return 1; }
  echo "$m"
}

runs_release() {  # runs_release ROOT X.Y: the chroot's slurmd is release X.Y
  [[ -x "$1/usr/sbin/slurmd" ]] && chroot "$1" slurmd -V 2>/dev/null | grep -q " $2\."
}

# A frozen snapshot's sid Release file is past its Valid-Until date; signatures are still checked.
apt=(env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Use-Pty=0
     -o Acquire::Check-Valid-Until=false --no-install-recommends)
# slurmdbd: the limits cases (tests/conformance/limits_live.py; MariaDB is the host's).
pkgs=(slurmd slurmctld slurm-client slurmdbd munge)

install_pkgs() {  # install_pkgs SUITE ROOT PKG...: download, then install without network
  local suite="$1" root="$2"
  shift 2
  { chroot "$root" "${apt[@]}" update && chroot "$root" "${apt[@]}" install -d "$@"; } \
      >> "$dir/$suite.log" 2>&1 ||
    { echo "make-chroots: $suite: download failed, see $dir/$suite.log" >&2; return 1; }
  unshare -n -m --propagation private -- sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' \
      "$root" "${apt[@]}" install "$@" >> "$dir/$suite.log" 2>&1 ||
    { echo "make-chroots: $suite: install failed, see $dir/$suite.log" >&2; return 1; }
  chroot "$root" apt-get clean
}

build() {  # build SUITE: DIR/SUITE, unless it is there already
  local suite="$1" root="$dir/$1" new="$dir/$1.new" t0=$SECONDS
  if runs_release "$root" "${release_of[$suite]}"; then
    # a chroot of an older make-chroots.sh lacks packages added since (slurmdbd): add them
    local missing=() p
    for p in "${pkgs[@]}"; do
      [[ "$(chroot "$root" dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" == "ii " ]] ||
        missing+=("$p")
    done
    if (( ${#missing[@]} )); then
      install_pkgs "$suite" "$root" "${missing[@]}" || return 1
      echo "make-chroots: $suite: added ${missing[*]} to $root in $((SECONDS - t0)) s"
    fi
    echo "make-chroots: $suite: reusing $root ($(chroot "$root" slurmd -V))"
    return 0
  fi
  rm -rf "$new"
  debootstrap --variant=minbase "$suite" "$new" "$mirror" > "$dir/$suite.log" 2>&1 ||
    { echo "make-chroots: $suite: debootstrap failed, see $dir/$suite.log" >&2; return 1; }
  printf '#!/bin/sh\nexit 101\n' > "$new/usr/sbin/policy-rc.d"
  chmod 755 "$new/usr/sbin/policy-rc.d"
  grep -qs localhost "$new/etc/hosts" || printf '127.0.0.1\tlocalhost\n' >> "$new/etc/hosts"
  install_pkgs "$suite" "$new" "${pkgs[@]}" || return 1
  runs_release "$new" "${release_of[$suite]}" ||
    { echo "make-chroots: $suite: slurmd is not ${release_of[$suite]}: $(chroot "$new" slurmd -V)" >&2; return 1; }
  rm -rf "$root"
  mv "$new" "$root"
  echo "make-chroots: $suite: built $root in $((SECONDS - t0)) s ($(chroot "$root" slurmd -V)," \
       "$(du -sxm "$root" | cut -f1) MiB)"
}

mkdir -p "$dir"
mirror="$(debian_mirror)"
command -v debootstrap >/dev/null || { echo "make-chroots: needs debootstrap" >&2; exit 1; }
pids=()
for suite in "${!release_of[@]}"; do
  build "$suite" &
  pids+=($!)
done
rc=0
for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
exit $rc
