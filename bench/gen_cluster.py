#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen_cluster.py - write a synthetic but realistic Slurm GPU cluster configuration.

    python3 bench/gen_cluster.py --nodes 100000 --out /tmp/c100k [--seed 1]
                                 [--inject count-mismatch=200 --inject padding-typo=200 ...]

The cluster is what a large GPU site looks like:

  * nodes live in racks of --rack-size nodes named r<rack>n<slot> (r0001n001);
  * 3 or 4 GPU generations (a100, h100, l40s and, from 8 racks on, mi250), each with its
    own NodeName=DEFAULT block (topology, Gres=gpu:<type>:8) and a contiguous block of
    racks, so slurm.conf needs one NodeName line per rack;
  * gres.conf has two lines per rack, one per CPU socket (File=/dev/nvidia[0-3] with
    Cores= on socket 0, [4-7] on socket 1; AMD cards use /dev/dri/renderD[128-135]);
  * a share (--exceptions, default 0.5%) of nodes are per-node exceptions: a node with a
    dead GPU runs with 7, so slurm.conf and gres.conf each have a line for that node and
    the rack lines skip it (r0003n[001-016,018-100]);
  * slurm.conf Includes nodes.conf and partitions.conf; gres.conf Includes one file per
    GPU type (gres-<type>.conf); cgroup.conf confines devices, slurmdbd accounts gres/gpu;
  * one partition per GPU type whose Nodes= is a two-bracket hostlist
    (r[0001-0400]n[001-100]) plus an `all` partition.

With no --inject the configuration is valid: `greslint lint DIR` reports nothing, for
every modelled Slurm release. --inject KIND=COUNT breaks COUNT nodes with one kind of
mistake, the way admins make it: the mistake sits on a gres.conf rack line, so it hits
whole racks (chosen at random from the seed); when COUNT is not a multiple of the rack
size the last rack line is split and only part of it is broken. KINDs:

  count-mismatch      gres.conf lists 7 devices where slurm.conf configures 8
  type-mismatch       gres.conf Type= is spelled in upper case (A100 vs a100)
  padding-typo        gres.conf NodeName= drops the zero padding (r0007n[1-100]; a slot whose
                      number has the full width already, like n100, is spelled the same
                      and stays valid)
  cores-out-of-range  Cores= uses hyperthread CPU ids beyond the node's cores
  missing-file        one of the two lines of a rack has Count=4 instead of File=
  duplicate-file      both lines of a rack list /dev/nvidia4
  name-case           Name=GPU on one line of the rack (GresTypes says gpu)

Output is deterministic for a given set of arguments (--seed, default 1).
"""

import argparse
import os
import random
import sys

# type -> (sockets, cores per socket, threads per core, memory MB, device path prefix, first index)
GPU_TYPES = {
    "a100": (2, 32, 2, 1000000, "/dev/nvidia", 0),
    "h100": (2, 56, 2, 2000000, "/dev/nvidia", 0),
    "l40s": (1, 48, 2, 384000, "/dev/nvidia", 0),
    "mi250": (2, 64, 1, 512000, "/dev/dri/renderD", 128),
}
# Share of the racks each generation gets, in rack order.
MIX = [("a100", 0.40), ("h100", 0.30), ("l40s", 0.20), ("mi250", 0.10)]
GPUS_PER_NODE = 8

INJECT_KINDS = ("count-mismatch", "type-mismatch", "padding-typo", "cores-out-of-range",
                "missing-file", "duplicate-file", "name-case")


def fold(nums, width):
    """Fold sorted node slots into Slurm's bracket body: 001-016,018-100."""
    parts = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        lo, hi = nums[i], nums[j]
        parts.append("%0*d" % (width, lo) if lo == hi else "%0*d-%0*d" % (width, lo, width, hi))
        i = j + 1
    return ",".join(parts)


def hostlist(prefix, nums, width):
    if len(nums) == 1:
        return "%s%0*d" % (prefix, width, nums[0])
    return "%s[%s]" % (prefix, fold(nums, width))


def dev_range(gtype, lo, hi, skip=()):
    """Device files lo..hi of a GPU type as a File= value, leaving out `skip`."""
    base, first = GPU_TYPES[gtype][4], GPU_TYPES[gtype][5]
    idx = [first + i for i in range(lo, hi + 1) if i not in skip]
    if len(idx) == 1:
        return "%s%d" % (base, idx[0])
    return "%s[%s]" % (base, fold(idx, 0))


def socket_cores(gtype, socket):
    sockets, cps = GPU_TYPES[gtype][0], GPU_TYPES[gtype][1]
    if sockets == 1:
        return "0-%d" % (cps - 1)
    return "%d-%d" % (socket * cps, socket * cps + cps - 1)


class Cluster:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        n = args.nodes
        self.rack_size = max(1, min(args.rack_size, n))
        self.racks = (n + self.rack_size - 1) // self.rack_size
        self.rack_w = max(2, len(str(self.racks)))
        self.slot_w = max(2, len(str(self.rack_size)))
        # Racks per GPU type: contiguous blocks; mi250 only on clusters of 8 racks or more.
        mix = MIX if self.racks >= 8 else MIX[:3]
        total = sum(w for _, w in mix)
        quota = [self.racks * w / total for _, w in mix]
        count = [int(q) for q in quota]
        # Largest remainder first, so a one-rack cluster gets the biggest generation.
        by_remainder = sorted(range(len(mix)), key=lambda k: (-(quota[k] - count[k]), k))
        for k in by_remainder[:self.racks - sum(count)]:
            count[k] += 1
        self.rack_type = []
        for (t, _), c in zip(mix, count):
            self.rack_type += [t] * c
        self.types = [t for t, _ in mix if t in self.rack_type]
        # Slots of each rack (the last rack may be short).
        self.slots = []
        for r in range(self.racks):
            size = min(self.rack_size, n - r * self.rack_size)
            self.slots.append(list(range(1, size + 1)))
        # Per-node exceptions: a dead GPU, so 7 configured and 7 listed (valid).
        n_exc = int(round(n * args.exceptions))
        self.exceptions = {}  # rack -> sorted slots
        if n_exc and self.rack_size > 1:
            picks = self.rng.sample(range(n), min(n_exc, n))
            for p in sorted(picks):
                r, s = divmod(p, self.rack_size)
                if s + 1 <= len(self.slots[r]) and len(self.exceptions.get(r, [])) < len(self.slots[r]) - 1:
                    self.exceptions.setdefault(r, []).append(s + 1)
        # Injections: kind -> list of (rack, slots broken)
        self.broken = {}
        order = list(range(self.racks))
        self.rng.shuffle(order)
        cursor = 0
        for kind, count in args.inject:
            left = count
            while left > 0:
                if cursor >= len(order):
                    sys.exit("gen_cluster.py: --inject asks for more nodes than the cluster has "
                             "(each rack takes one kind of mistake)")
                r = order[cursor]
                cursor += 1
                normal = [s for s in self.slots[r] if s not in self.exceptions.get(r, [])]
                take = normal[:left]
                left -= len(take)
                if take:
                    self.broken[r] = (kind, take)

    def prefix(self, r):
        return "r%0*dn" % (self.rack_w, r + 1)

    def rack_name(self, r, slots):
        return hostlist(self.prefix(r), slots, self.slot_w)

    # ----- slurm.conf -------------------------------------------------------------
    def slurm_conf(self):
        return "\n".join([
            "# Synthetic cluster written by bench/gen_cluster.py (%d nodes, seed %d)." % (self.args.nodes, self.args.seed),
            "ClusterName=synth",
            "SlurmctldHost=head01",
            "SlurmctldHost=head02",
            "AuthType=auth/munge",
            "ProctrackType=proctrack/cgroup",
            "TaskPlugin=task/affinity,task/cgroup",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core_Memory",
            "GresTypes=gpu",
            "StateSaveLocation=/var/spool/slurmctld",
            "SlurmdSpoolDir=/var/spool/slurmd",
            "SchedulerType=sched/backfill",
            "MaxJobCount=200000",
            "AccountingStorageType=accounting_storage/slurmdbd",
            "AccountingStorageHost=dbd01",
            "AccountingStorageTRES=gres/gpu",
            "AccountingStorageEnforce=associations,limits,qos,safe",
            "",
            "Include nodes.conf",
            "Include partitions.conf",
            "",
        ])

    def nodes_conf(self):
        out = ["# Compute nodes: one DEFAULT block per GPU generation, one line per rack."]
        current = None
        for r in range(self.racks):
            t = self.rack_type[r]
            if t != current:
                s, c, th, mem = GPU_TYPES[t][:4]
                out.append("")
                out.append("NodeName=DEFAULT Sockets=%d CoresPerSocket=%d ThreadsPerCore=%d RealMemory=%d "
                           "Gres=gpu:%s:%d State=UNKNOWN" % (s, c, th, mem, t, GPUS_PER_NODE))
                current = t
            exc = self.exceptions.get(r, [])
            normal = [s for s in self.slots[r] if s not in exc]
            out.append("NodeName=%s" % self.rack_name(r, normal))
            for s in exc:
                out.append("NodeName=%s Gres=gpu:%s:%d  # GPU 3 failed, RMA pending"
                           % (self.rack_name(r, [s]), t, GPUS_PER_NODE - 1))
        return "\n".join(out) + "\n"

    def partitions_conf(self):
        out = ["PartitionName=DEFAULT MaxTime=2-00:00:00 State=UP"]
        for t in self.types:
            racks = [r for r in range(self.racks) if self.rack_type[r] == t]
            full = [r for r in racks if len(self.slots[r]) == self.rack_size]
            parts = []
            if full:
                # Racks of a type are contiguous, so this is one two-bracket expression.
                parts.append("r[%s]n[%s]" % (fold([r + 1 for r in full], self.rack_w),
                                             fold(list(range(1, self.rack_size + 1)), self.slot_w)))
            for r in racks:
                if r not in full:
                    parts.append(self.rack_name(r, self.slots[r]))
            out.append("PartitionName=%s Nodes=%s" % (t, ",".join(parts)))
        out.append("PartitionName=all Nodes=ALL Default=YES MaxTime=1-00:00:00")
        return "\n".join(out) + "\n"

    # ----- gres.conf --------------------------------------------------------------
    def gres_conf(self):
        out = ["# Two lines per rack, one per CPU socket; per-node lines for exceptions."]
        for t in self.types:
            out.append("Include gres-%s.conf" % t)
        return "\n".join(out) + "\n"

    def rack_lines(self, r, slots, kind=None, skip=()):
        """The two gres.conf lines of `slots` in rack r, with mistake `kind` (or none)."""
        t = self.rack_type[r]
        sockets = GPU_TYPES[t][0]
        half = GPUS_PER_NODE // 2
        lines = []
        # padding-typo: the admin typed r0007n[1-100] for r0007n[001-100].
        names = hostlist(self.prefix(r), slots, 0 if kind == "padding-typo" else self.slot_w)
        for sock in range(2):
            lo, hi = sock * half, sock * half + half - 1
            cores = socket_cores(t, sock if sockets > 1 else 0)
            gtype = t
            name = "gpu"
            files = "File=" + dev_range(t, lo, hi, skip)
            if kind == "count-mismatch" and sock == 1:
                files = "File=" + dev_range(t, lo, hi - 1, skip)
            if kind == "type-mismatch":
                gtype = t.upper()
            if kind == "cores-out-of-range" and sock == 1:
                s, c, th = GPU_TYPES[t][:3]
                cores = "%d-%d" % (s * c, s * c * th - 1) if th > 1 else "%d-%d" % (s * c, 2 * s * c - 1)
            if kind == "missing-file" and sock == 1:
                files = "Count=%d" % (half - len([x for x in skip if lo <= x <= hi]))
            if kind == "duplicate-file" and sock == 1:
                files = "File=" + dev_range(t, lo - 1, hi, skip)
            if kind == "name-case" and sock == 1:
                name = "GPU"
            lines.append("NodeName=%s Name=%s Type=%s %s Cores=%s" % (names, name, gtype, files, cores))
        return lines

    def gres_type_conf(self, t):
        out = ["# %s racks" % t]
        for r in range(self.racks):
            if self.rack_type[r] != t:
                continue
            exc = self.exceptions.get(r, [])
            normal = [s for s in self.slots[r] if s not in exc]
            kind, bad = self.broken.get(r, (None, []))
            good = [s for s in normal if s not in bad]
            if good:
                out += self.rack_lines(r, good)
            if bad:
                out += self.rack_lines(r, bad, kind)
            for s in exc:
                out += self.rack_lines(r, [s], skip=(3,))
        return "\n".join(out) + "\n"

    def write(self, d):
        os.makedirs(d, exist_ok=True)
        files = {
            "slurm.conf": self.slurm_conf(),
            "nodes.conf": self.nodes_conf(),
            "partitions.conf": self.partitions_conf(),
            "gres.conf": self.gres_conf(),
            # Jobs see only the GPUs they were given (GRS406 otherwise).
            "cgroup.conf": "ConstrainCores=yes\nConstrainDevices=yes\nConstrainRAMSpace=yes\n",
        }
        for t in self.types:
            files["gres-%s.conf" % t] = self.gres_type_conf(t)
        for name in os.listdir(d):  # stale per-type files from an earlier run
            if name.startswith("gres-") and name.endswith(".conf") and name not in files:
                os.remove(os.path.join(d, name))
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)


def parse_inject(text):
    kind, sep, count = text.partition("=")
    if kind not in INJECT_KINDS or not sep or not count.isdigit():
        raise argparse.ArgumentTypeError("expected KIND=COUNT with KIND one of %s" % ", ".join(INJECT_KINDS))
    return kind, int(count)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--nodes", type=int, required=True, help="number of nodes")
    p.add_argument("--out", required=True, help="directory to write (created if missing)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rack-size", type=int, default=100, help="nodes per rack (default 100)")
    p.add_argument("--exceptions", type=float, default=0.005,
                   help="share of nodes with a per-node exception line (default 0.005)")
    p.add_argument("--inject", type=parse_inject, action="append", default=[], metavar="KIND=COUNT",
                   help="break COUNT nodes with mistake KIND (repeatable): " + ", ".join(INJECT_KINDS))
    args = p.parse_args(argv)
    if args.nodes < 1:
        p.error("--nodes must be at least 1")
    c = Cluster(args)
    c.write(args.out)
    broken = sum(len(v[1]) for v in c.broken.values())
    print("%s: %d nodes in %d racks (%s), %d exception nodes, %d nodes on broken lines"
          % (args.out, args.nodes, c.racks, "/".join(c.types),
             sum(len(v) for v in c.exceptions.values()), broken), file=sys.stderr)


if __name__ == "__main__":
    main()
