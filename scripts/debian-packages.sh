# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/install-deps.sh: installs Debian packages in a way that is safe on a
# Slurm head node or compute node.
#
# - Only packages that are not installed are installed; nothing installed is downgraded,
#   reinstalled or removed, and nothing is upgraded but the same Debian release's security or
#   point updates that a new package needs, never of Slurm, munge or the database (apt's plan
#   is checked first and refused otherwise).
# - No service is started, stopped or restarted: Debian's maintainer scripts ask
#   /usr/sbin/policy-rc.d before they touch a service (invoke-rc.d, deb-systemd-invoke), and
#   for the length of the install it answers 101 ("action forbidden"). A policy-rc.d that
#   was there before is put back byte for byte; none is left behind if there was none.
# - A Slurm that is already installed from Debian's packages is left as it is: missing Slurm
#   packages are installed at its exact version, or not at all.

policy_rc_d=/usr/sbin/policy-rc.d
slurm_packages=(slurm-client slurmd slurmctld slurmdbd slurm-wlm-basic-plugins)

package_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" = "ii " ]
}

# The version of the Debian Slurm installed here, or nothing.
installed_slurm_version() {
  local p
  for p in "${slurm_packages[@]}"; do
    if package_installed "$p"; then dpkg-query -W -f='${Version}' "$p"; return; fi
  done
}

# A slurmd, slurmctld or slurmdbd process (procps is not on a fresh Debian image: /proc).
slurm_daemon_running() {
  local comm
  for comm in /proc/[0-9]*/comm; do
    case "$(cat "$comm" 2>/dev/null)" in slurmd|slurmctld|slurmdbd) return 0 ;; esac
  done
  return 1
}

held_policy=""
hold_services() {
  # The saved copy lives beside the original so that putting it back is one rename.
  if [ -e "$policy_rc_d" ] || [ -L "$policy_rc_d" ]; then
    held_policy=$(mktemp "$policy_rc_d.greslint-saved.XXXXXX")
    cp -a "$policy_rc_d" "$held_policy"
  fi
  local ours
  ours=$(mktemp "$policy_rc_d.greslint.XXXXXX")
  printf '#!/bin/sh\n# scripts/install-deps.sh (greslint): no service may start or stop during its install.\nexit 101\n' > "$ours"
  chmod 755 "$ours"
  mv -f "$ours" "$policy_rc_d"
  trap release_services EXIT INT TERM HUP
}

release_services() {
  if [ -n "$held_policy" ]; then
    mv -f "$held_policy" "$policy_rc_d"
    held_policy=""
  else
    rm -f "$policy_rc_d"
  fi
  trap - EXIT INT TERM HUP
}

# Packages an install must never change on a node: Slurm's own, munge (the nodes' shared
# authentication) and the accounting database.
protected_package_re='^(slurm|libslurm|libpmi[0-9]*-slurm|munge|libmunge|mariadb|mysql|galera|libmariadb)'

# The Debian release's own updates of a package, "+deb12u2" -> "+deb12u4": the part before
# the update suffix is the same upstream version and packaging revision.
same_release_update() {  # OLD NEW
  [ "${1%%+deb[0-9]*u[0-9]*}" = "${2%%+deb[0-9]*u[0-9]*}" ] && [ "$1" != "$2" ]
}

# An apt plan (apt-get -s) on stdin: the lines that change installed packages in a way this
# script refuses, one each. Removals and reinstalls always; an upgrade of a protected package
# always; any other upgrade unless it is the same release's security or point update (a new
# package may need it: on an image older than the archive, mariadb's libdbi-perl needs the
# perl of Debian 12's security suite).
plan_touches_installed() {
  local line name old new
  while IFS= read -r line; do
    case "$line" in
      "Remv "*|"Purg "*) echo "$line"; continue ;;
    esac
    [[ $line =~ ^Inst\ [^\ ]+\ \[ ]] || continue
    name=${line#Inst }; name=${name%% *}
    old=${line#*\[}; old=${old%%\]*}
    new=${line#*\] (}; new=${new%% *}
    if [[ $name =~ $protected_package_re ]] || ! same_release_update "$old" "$new"; then
      echo "$line"
    fi
  done
}

# The upgrades of a plan that plan_touches_installed lets through, for the log.
plan_updates() {
  grep -E '^Inst [^ ]+ \[' | sed -E 's/^Inst ([^ ]+) \[([^]]+)\] \(([^ ]+).*/\1 \2 -> \3/' || true
}

# install_packages PKG... : installs those of PKG that are missing (see the top of the file).
install_packages() {
  local missing=() p slurm_version
  slurm_version=$(installed_slurm_version)
  for p in "$@"; do
    package_installed "$p" && continue
    if [ -n "$slurm_version" ] && printf '%s\n' "${slurm_packages[@]}" | grep -qx "$p"; then
      missing+=("$p=$slurm_version")
    else
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ -z "$slurm_version" ] && printf '%s\n' "${missing[@]}" | grep -qE '^slurm' &&
     slurm_daemon_running; then
    echo "install-deps: a Slurm that is not Debian's runs on this machine; the test suite needs" >&2
    echo "install-deps: Debian's Slurm packages, which would sit beside it. Run the tests elsewhere." >&2
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # An empty package list (a fresh container) or one missing a package: refresh once.
  if ! apt-get -s -qq install --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
    apt-get update -qq
  fi
  local plan touched
  plan=$(apt-get -s install --no-install-recommends "${missing[@]}") || return 1
  touched=$(printf '%s\n' "$plan" | plan_touches_installed)
  if [ -n "$touched" ]; then
    echo "install-deps: installing ${missing[*]} would change packages already installed:" >&2
    printf '  %s\n' "$touched" >&2
    echo "install-deps: nothing was installed; install them yourself if that is what you want." >&2
    return 1
  fi
  echo "install-deps: installing ${missing[*]} (services held: none starts or stops)" >&2
  local updates
  updates=$(printf '%s\n' "$plan" | plan_updates)
  if [ -n "$updates" ]; then
    echo "install-deps: the new packages need these Debian security/point updates of installed ones:" >&2
    printf '  %s\n' "$updates" >&2
  fi
  hold_services
  local rc=0
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || rc=$?
  release_services
  return "$rc"
}
