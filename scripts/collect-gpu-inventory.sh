#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# collect-gpu-inventory.sh: capture what `greslint node-check` reads from a GPU node into a
# tarball, so the controller can check many nodes at once:
#
#   node$ collect-gpu-inventory.sh                 # writes ./<short hostname>.tar.gz
#   head$ greslint node-check /etc/slurm --inventory DIR   # DIR holds one <NodeName>.tar.gz per node
#
# Options:
#   -n NAME   name the tarball NAME.tar.gz (use the node's slurm.conf NodeName when it differs
#             from the short host name; greslint takes the node name from the file name)
#   -o FILE   write the tarball to FILE instead of ./NAME.tar.gz ("-" for stdout)
#   -r ROOT   read the files under ROOT instead of / (for tests and re-captures)
#
# It copies exactly these (plain files; device nodes become empty files of the same name):
#   /proc/sys/kernel/hostname
#   /proc/meminfo (MemTotal: RealMemory= in --suggest)
#   /proc/driver/nvidia/gpus/*/information
#   /proc/driver/nvidia/capabilities/gpu*/mig/gi*/access, .../gi*/ci*/access
#   /sys/devices/system/cpu/cpu*/online, cpu*/topology/{physical_package_id,core_id,thread_siblings_list}
#   /sys/class/drm/renderD*/device/{vendor,device,uevent,product_name}
#   /sys/bus/pci/devices/<bus-id>/{numa_node,local_cpulist,vendor,device} for every GPU found
#   /dev/nvidia[0-9]*, /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-caps/*, /dev/dri/renderD*, /dev/dri/card*
# Nothing else is read, nothing runs as a GPU tool, and root is not needed.
set -eu

name=""
out=""
root=""
while getopts "n:o:r:h" opt; do
  case "$opt" in
    n) name="$OPTARG" ;;
    o) out="$OPTARG" ;;
    r) root="${OPTARG%/}" ;;
    h) sed -n '3,24p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-n NAME] [-o FILE] [-r ROOT]" >&2; exit 2 ;;
  esac
done

if [ -z "$name" ]; then
  if [ -r "$root/proc/sys/kernel/hostname" ]; then
    name=$(cat "$root/proc/sys/kernel/hostname")
  else
    name=$(hostname)
  fi
  name=${name%%.*}
fi
case "$name" in
  ""|*/*|.*) echo "$0: bad node name '$name' (use -n NAME)" >&2; exit 2 ;;
esac
[ -n "$out" ] || out="./$name.tar.gz"

stage=$(mktemp -d "${TMPDIR:-/tmp}/gpu-inventory.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM

# copy ABSOLUTE-PATH: the file's contents (procfs/sysfs files report size 0, so read them).
copy() {
  [ -r "$root$1" ] && [ -f "$root$1" ] || return 0
  mkdir -p "$stage$(dirname "$1")"
  cat "$root$1" > "$stage$1" 2>/dev/null || rm -f "$stage$1"
}
# mark ABSOLUTE-PATH: an empty file where the device node is.
mark() {
  [ -e "$root$1" ] || return 0
  mkdir -p "$stage$(dirname "$1")"
  : > "$stage$1"
}
# strip ROOT from a globbed path
rel() { printf '%s\n' "${1#"$root"}"; }

copy /proc/sys/kernel/hostname
copy /proc/meminfo
buses=""
for d in "$root"/proc/driver/nvidia/gpus/*/; do
  [ -d "$d" ] || continue
  info=$(rel "${d}information")
  copy "$info"
  bus=$(sed -n 's/^Bus Location:[[:space:]]*//p' "$root$info" 2>/dev/null | tr 'A-F' 'a-f')
  [ -n "$bus" ] && buses="$buses $bus"
done
for f in "$root"/proc/driver/nvidia/capabilities/gpu*/mig/gi*/access \
         "$root"/proc/driver/nvidia/capabilities/gpu*/mig/gi*/ci*/access; do
  [ -f "$f" ] && copy "$(rel "$f")"
done
for c in "$root"/sys/devices/system/cpu/cpu[0-9]*; do
  [ -d "$c" ] || continue
  c=$(rel "$c")
  copy "$c/online"
  for f in physical_package_id core_id thread_siblings_list; do copy "$c/topology/$f"; done
done
for r in "$root"/sys/class/drm/renderD*; do
  [ -e "$r" ] || continue
  r=$(rel "$r")
  for f in vendor device uevent product_name; do copy "$r/device/$f"; done
  bus=$(sed -n 's/^PCI_SLOT_NAME=//p' "$root$r/device/uevent" 2>/dev/null | tr 'A-F' 'a-f')
  [ -n "$bus" ] && buses="$buses $bus"
done
for bus in $buses; do
  for f in numa_node local_cpulist vendor device; do copy "/sys/bus/pci/devices/$bus/$f"; done
done
for f in "$root"/dev/nvidia[0-9]* "$root"/dev/nvidiactl "$root"/dev/nvidia-uvm \
         "$root"/dev/nvidia-caps/* "$root"/dev/dri/renderD* "$root"/dev/dri/card*; do
  [ -e "$f" ] && mark "$(rel "$f")"
done

if [ "$out" = "-" ]; then
  tar -C "$stage" -czf - .
else
  tar -C "$stage" -czf "$out" .
  echo "$out"
fi
