# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/install-deps.sh: installs Debian packages in a way that is safe on a
# Slurm head node or compute node.
#
# - Only packages that are not installed are installed; nothing installed is upgraded,
#   downgraded, reinstalled or removed (apt's plan is checked first and refused otherwise).
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

# An apt plan (apt-get -s) that touches installed packages: upgrades ("Inst p [old] (new…"),
# removals ("Remv") or reinstalls. Printed, one line each.
plan_touches_installed() {
  grep -E '^(Inst [^ ]+ \[|Remv |Purg )' || true
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
  hold_services
  local rc=0
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || rc=$?
  release_services
  return "$rc"
}
