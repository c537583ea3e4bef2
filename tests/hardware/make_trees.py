#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the captured hardware trees under tests/hardware/trees/ (checked in; rerun after editing).

Each tree holds exactly what scripts/collect-gpu-inventory.sh copies from a node, in the
kernel's documented formats:
  proc/sys/kernel/hostname
  proc/driver/nvidia/gpus/<bus-id>/information          (NVIDIA driver, "Key: value" lines)
  proc/driver/nvidia/capabilities/gpuN/mig/giG[/ciC]/access   ("DeviceFileMinor: N" ...)
  sys/devices/system/cpu/cpuN/topology/{physical_package_id,core_id,thread_siblings_list}
  sys/bus/pci/devices/<bus-id>/{numa_node,local_cpulist,vendor,device}
  sys/class/drm/renderDN/device/{vendor,device,uevent}
  dev/...  (empty regular files standing for the device nodes)
The machines are small (few cores) so the trees stay small; the layouts are the real ones.

Usage: make_trees.py [OUT_DIR]   (default: trees/ beside this file)
"""

import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def fmt_list(ids):
    ids = sorted(set(ids))
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return ",".join(out)


class Tree:
    def __init__(self, root, hostname):
        self.root = root
        if os.path.isdir(root):
            shutil.rmtree(root)
        os.makedirs(root)
        self.write("proc/sys/kernel/hostname", hostname + "\n")

    def write(self, rel, text=""):
        path = os.path.join(self.root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def cpus(self, cpus):
        """cpus: list of (cpu id, package, core_id, siblings list)."""
        for cpu, pkg, core, sib in cpus:
            base = "sys/devices/system/cpu/cpu%d/topology/" % cpu
            self.write(base + "physical_package_id", "%d\n" % pkg)
            self.write(base + "core_id", "%d\n" % core)
            self.write(base + "thread_siblings_list", fmt_list(sib) + "\n")

    def pci(self, bus, numa, cpulist, vendor, device):
        base = "sys/bus/pci/devices/%s/" % bus
        self.write(base + "numa_node", "%d\n" % numa)
        self.write(base + "local_cpulist", cpulist + "\n")
        self.write(base + "vendor", vendor + "\n")
        self.write(base + "device", device + "\n")

    def nvidia(self, minor, bus, model, numa, cpulist, uuid_tail):
        self.write("proc/driver/nvidia/gpus/%s/information" % bus,
                   "Model: \t\t %s\n"
                   "IRQ:   \t\t %d\n"
                   "GPU UUID: \t GPU-5f3c8e2a-91d4-4b7e-a0c6-%012x\n"
                   "Video BIOS: \t 96.00.99.00.01\n"
                   "Bus Type: \t PCIe\n"
                   "DMA Size: \t 52 bits\n"
                   "DMA Mask: \t 0xfffffffffffff\n"
                   "Bus Location: \t %s\n"
                   "Device Minor: \t %d\n"
                   "GPU Excluded:\t No\n" % (model, 180 + minor, uuid_tail, bus, minor))
        self.pci(bus, numa, cpulist, "0x10de", "0x2330")
        self.write("dev/nvidia%d" % minor)

    def nvidia_common(self):
        for name in ("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"):
            self.write("dev/" + name)

    def mig(self, minor, gi, ci):
        """A MIG compute instance; minors follow /proc/driver/nvidia-caps/mig-minors."""
        gi_minor = 3 + gi * 9
        ci_minor = gi_minor + 1 + ci
        base = "proc/driver/nvidia/capabilities/gpu%d/mig/gi%d/" % (minor, gi)
        self.write(base + "access", "DeviceFileMinor: %d\nDeviceFileMode: 292\nDeviceFileModify: 1\n" % gi_minor)
        self.write(base + "ci%d/access" % ci,
                   "DeviceFileMinor: %d\nDeviceFileMode: 292\nDeviceFileModify: 1\n" % ci_minor)
        self.write("dev/nvidia-caps/nvidia-cap%d" % gi_minor)
        self.write("dev/nvidia-caps/nvidia-cap%d" % ci_minor)

    def render(self, minor, card, bus, vendor, device, numa, cpulist):
        base = "sys/class/drm/renderD%d/device/" % minor
        self.write(base + "vendor", vendor + "\n")
        self.write(base + "device", device + "\n")
        self.write(base + "uevent", "DRIVER=amdgpu\nPCI_CLASS=38000\nPCI_ID=%s:%s\nPCI_SLOT_NAME=%s\n"
                   % (vendor[2:].upper(), device[2:].upper(), bus))
        self.pci(bus, numa, cpulist, vendor, device)
        self.write("dev/dri/renderD%d" % minor)
        self.write("dev/dri/card%d" % card)


def intel_two_socket(cores_per_socket, core_ids):
    """Intel numbering: socket 0 gets CPUs 0..c-1, socket 1 c..2c-1, hyperthreads follow."""
    total = 2 * cores_per_socket
    cpus = []
    for s in range(2):
        for i in range(cores_per_socket):
            first = s * cores_per_socket + i
            sib = [first, first + total]
            for cpu in sib:
                cpus.append((cpu, s, core_ids[i], sib))
    return cpus


def hgx(out, name, missing_bus=None):
    t = Tree(os.path.join(out, name), "hgx01")
    # 2 x 8 cores x 2 threads; Intel core_id values skip numbers, as on real Xeons.
    t.cpus(intel_two_socket(8, [0, 1, 2, 3, 8, 9, 10, 11]))
    buses = ["0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0", "0000:5d:00.0",
             "0000:9a:00.0", "0000:ab:00.0", "0000:ba:00.0", "0000:db:00.0"]
    minor = 0
    for i, bus in enumerate(buses):
        if bus == missing_bus:
            continue  # fell off the bus: the driver numbers the others in PCI order
        numa = 0 if i < 4 else 1
        t.nvidia(minor, bus, "NVIDIA H100 80GB HBM3", numa, "0-7,16-23" if numa == 0 else "8-15,24-31", 0x10 + i)
        minor += 1
    t.nvidia_common()


def workstation(out):
    t = Tree(os.path.join(out, "workstation-4gpu"), "ws01")
    t.write("proc/meminfo", "MemTotal:       263000000 kB\nMemFree:        250000000 kB\n")
    # 1 socket x 8 cores x 2 threads with sibling threads numbered next to each other.
    cpus = []
    for core in range(8):
        sib = [2 * core, 2 * core + 1]
        for cpu in sib:
            cpus.append((cpu, 0, core, sib))
    t.cpus(cpus)
    for i, bus in enumerate(["0000:01:00.0", "0000:21:00.0", "0000:41:00.0", "0000:61:00.0"]):
        t.nvidia(i, bus, "NVIDIA RTX A6000", -1, "0-15", 0x20 + i)
    t.nvidia_common()


def h100_mig(out):
    t = Tree(os.path.join(out, "h100-mig"), "mig01")
    cpus = []
    for core in range(8):
        sib = [core, core + 8]
        for cpu in sib:
            cpus.append((cpu, 0, core, sib))
    t.cpus(cpus)
    t.nvidia(0, "0000:4e:00.0", "NVIDIA H100 80GB HBM3", 0, "0-15", 0x30)
    for gi in (1, 2, 3):
        t.mig(0, gi, 0)
    t.write("dev/nvidia-caps/nvidia-cap1")  # mig config
    t.write("dev/nvidia-caps/nvidia-cap2")  # mig monitor
    t.nvidia_common()


def amd(out):
    t = Tree(os.path.join(out, "amd-mi210"), "amd01")
    # AMD EPYC numbering: like Intel's, with contiguous core_id values.
    t.cpus(intel_two_socket(8, list(range(8))))
    gpus = [("0000:03:00.0", 0), ("0000:23:00.0", 0), ("0000:83:00.0", 1), ("0000:a3:00.0", 1)]
    for i, (bus, numa) in enumerate(gpus):
        t.render(128 + i, 1 + i, bus, "0x1002", "0x740f", numa, "0-7,16-23" if numa == 0 else "8-15,24-31")
    t.write("dev/dri/card0")  # the BMC's VGA (ASPEED): a card, no render node
    t.write("dev/kfd")


def epyc_nps4(out):
    t = Tree(os.path.join(out, "epyc-nps4"), "epyc01")
    # 1 socket x 16 cores x 2 threads, NPS4: four NUMA domains of 4 cores each.
    cpus = []
    for core in range(16):
        sib = [core, core + 16]
        for cpu in sib:
            cpus.append((cpu, 0, core, sib))
    t.cpus(cpus)
    for i, bus in enumerate(["0000:01:00.0", "0000:41:00.0", "0000:81:00.0", "0000:c1:00.0"]):
        lo = 4 * i
        t.nvidia(i, bus, "NVIDIA A100-SXM4-80GB", i, "%d-%d,%d-%d" % (lo, lo + 3, lo + 16, lo + 19), 0x40 + i)
    t.nvidia_common()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "trees")
    os.makedirs(out, exist_ok=True)
    hgx(out, "hgx-8gpu")
    hgx(out, "hgx-7gpu", missing_bus="0000:5d:00.0")
    workstation(out)
    h100_mig(out)
    amd(out)
    epyc_nps4(out)


if __name__ == "__main__":
    main()
