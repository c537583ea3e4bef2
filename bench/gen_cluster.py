#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""gen_cluster.py - write a synthetic but realistic Slurm GPU cluster configuration.

    python3 bench/gen_cluster.py --nodes 100000 --out /tmp/c100k [--seed 1] [--shape racks]
                                 [--inject count-mismatch=200 --inject padding-typo=200 ...]
                                 [--manifest broken.json]

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

--shape changes how the files are written, the way different sites generate them (a
comma-separated list combines shapes, e.g. slurm-node,gres-node2):

  racks          the layout above (default)
  gres-node      gres.conf: one line per node (File=/dev/nvidia[0-7], every core)
  gres-node2     gres.conf: two lines per node, one per socket
  gres-gpu       gres.conf: one line per GPU of every node (File=/dev/nvidia3 and its
                 socket's cores), as Slurm's own gres.conf examples write it
  slurm-node     slurm.conf: one NodeName line per node with its whole topology, no DEFAULT
  both-node      slurm-node and gres-node2 together (Puppet/Ansible style)
  node-addr      slurm-node with each node's own NodeAddr= (an IP address), so no two
                 lines say the same after the name (inventories of sites without DNS)
  inventory      node-addr and gres-node2 together: both files written node by node from an
                 inventory, each node with its own NodeAddr=
  addr-last      node-addr with the NodeAddr= at the end of each line, as templates that
                 append it write it
  rack-features  inventory with a Feature= naming each node's rack (Feature=rack0001,ib), so
                 the text after the address repeats only within a rack
  unsorted       inventory with each node's lines in no particular order (both files, a
                 node's two gres.conf lines kept together), as an export from a store that
                 keeps no order writes them: no lookup of a node finds it next to the last
  include-racks  racks of 32 (unless --rack-size says otherwise); slurm.conf and gres.conf
                 Include one file per rack (3,125 + 3,125 files at 100,000 nodes)
  partitions     one partition per 4 racks listing each rack's range, and one partition
                 naming every third node one by one
  types16        16 GPU types (NVIDIA and AMD, one and two sockets)
  shared         gres/shard on half the GPU types and gres/mps on the others (counts on
                 GPU-sized Count= lines in gres.conf)

With no --inject the configuration is valid: `greslint lint DIR` reports nothing, for
every modelled Slurm release and every shape. --inject KIND=COUNT breaks COUNT nodes with
one kind of mistake, the way admins make it: the mistake sits on gres.conf lines, so in the
rack layout it hits whole racks (chosen at random from the seed); when COUNT is not a
multiple of the rack size the last rack line is split and only part of it is broken. In
the per-node layouts each broken node's own lines carry the mistake (written as the two
socket lines, since some mistakes need two lines). KINDs:

  count-mismatch      gres.conf lists 7 devices where slurm.conf configures 8
  type-mismatch       gres.conf Type= is spelled in upper case (A100 vs a100)
  padding-typo        gres.conf NodeName= drops the zero padding (r0007n[1-100]; a slot whose
                      number has the full width already, like n100, is spelled the same
                      and stays valid)
  cores-out-of-range  Cores= uses hyperthread CPU ids beyond the node's cores
  missing-file        one of the two lines of a rack has Count=4 instead of File=
  duplicate-file      both lines of a rack list /dev/nvidia4
  name-case           Name=GPU on one line of the rack (GresTypes says gpu)

--manifest PATH writes JSON: for each injected kind, the nodes it really broke (a
padding-typo on a slot that has the full width already breaks nothing), so tests can
compare them with greslint's verdicts.

Output is deterministic for a given set of arguments (--seed, default 1).
"""

import argparse
import json
import os
import random
import shutil
import sys

# type -> (sockets, cores per socket, threads per core, memory MB, device path prefix, first index)
GPU_TYPES = {
    "a100": (2, 32, 2, 1000000, "/dev/nvidia", 0),
    "h100": (2, 56, 2, 2000000, "/dev/nvidia", 0),
    "l40s": (1, 48, 2, 384000, "/dev/nvidia", 0),
    "mi250": (2, 64, 1, 512000, "/dev/dri/renderD", 128),
    "v100": (2, 20, 2, 384000, "/dev/nvidia", 0),
    "a40": (2, 24, 2, 512000, "/dev/nvidia", 0),
    "a30": (2, 16, 2, 256000, "/dev/nvidia", 0),
    "t4": (1, 24, 2, 192000, "/dev/nvidia", 0),
    "l4": (1, 32, 2, 256000, "/dev/nvidia", 0),
    "h200": (2, 48, 2, 2000000, "/dev/nvidia", 0),
    "b200": (2, 56, 2, 2000000, "/dev/nvidia", 0),
    "gh200": (1, 72, 1, 480000, "/dev/nvidia", 0),
    "mi300x": (2, 48, 2, 1500000, "/dev/dri/renderD", 128),
    "mi210": (2, 32, 2, 512000, "/dev/dri/renderD", 128),
    "a10": (1, 32, 2, 256000, "/dev/nvidia", 0),
    "rtx6000": (2, 16, 2, 384000, "/dev/nvidia", 0),
}
# Share of the racks each generation gets, in rack order.
MIX = [("a100", 0.40), ("h100", 0.30), ("l40s", 0.20), ("mi250", 0.10)]
MIX16 = [(t, 1.0 / 16) for t in GPU_TYPES]
GPUS_PER_NODE = 8

INJECT_KINDS = ("count-mismatch", "type-mismatch", "padding-typo", "cores-out-of-range",
                "missing-file", "duplicate-file", "name-case")
SHAPES = {
    "racks": {},
    "gres-node": {"gres": "node1"},
    "gres-node2": {"gres": "node2"},
    "gres-gpu": {"gres": "gpu"},
    "slurm-node": {"slurm": "node"},
    "both-node": {"slurm": "node", "gres": "node2"},
    "node-addr": {"slurm": "node", "addr": True},
    "inventory": {"slurm": "node", "addr": True, "gres": "node2"},
    "addr-last": {"slurm": "node", "addr": "last"},
    "rack-features": {"slurm": "node", "addr": True, "gres": "node2", "features": "rack"},
    "unsorted": {"slurm": "node", "addr": True, "gres": "node2", "order": "shuffled"},
    "include-racks": {"slurm": "include", "gres": "include"},
    "partitions": {"partitions": "long"},
    "types16": {"types": 16},
    "shared": {"shared": True},
}
# Per-node share of a GPU for gres/shard and gres/mps (shard: Count per GPU; mps: percent).
SHARDS_PER_GPU = 8
MPS_PER_GPU = 100


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
        self.shape = args.shape
        self.rng = random.Random(args.seed)
        n = args.nodes
        self.rack_size = max(1, min(args.rack_size, n))
        self.racks = (n + self.rack_size - 1) // self.rack_size
        self.rack_w = max(2, len(str(self.racks)))
        self.slot_w = max(2, len(str(self.rack_size)))
        # Racks per GPU type: contiguous blocks; mi250 only on clusters of 8 racks or more.
        if self.shape["types"] == 16:
            mix = MIX16[:max(1, min(16, self.racks))]
        else:
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
        # shared: gres/shard on every other GPU type, gres/mps on the rest.
        self.shared_of = {}
        if self.shape["shared"]:
            for i, t in enumerate(self.types):
                self.shared_of[t] = "shard" if i % 2 == 0 else "mps"
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
        # Injections: rack -> (kind, slots broken)
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

    def node_name(self, r, s):
        return "%s%0*d" % (self.prefix(r), self.slot_w, s)

    def gres_value(self, t, gpus):
        g = "gpu:%s:%d" % (t, gpus)
        shared = self.shared_of.get(t)
        if shared:
            g += ",%s:%d" % (shared, gpus * (SHARDS_PER_GPU if shared == "shard" else MPS_PER_GPU))
        return g

    def manifest(self):
        """Kind -> the node names greslint must find broken."""
        out = {}
        for r, (kind, slots) in sorted(self.broken.items()):
            names = out.setdefault(kind, [])
            for s in slots:
                # Dropping the padding of a slot that has the full width already changes nothing.
                if kind == "padding-typo" and str(s) == "%0*d" % (self.slot_w, s):
                    continue
                names.append(self.node_name(r, s))
        return out

    # ----- slurm.conf -------------------------------------------------------------
    def slurm_conf(self):
        gres_types = "gpu"
        if self.shared_of:
            gres_types += "".join("," + k for k in ("mps", "shard") if k in self.shared_of.values())
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
            "GresTypes=" + gres_types,
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

    def topology(self, t):
        s, c, th, mem = GPU_TYPES[t][:4]
        return "Sockets=%d CoresPerSocket=%d ThreadsPerCore=%d RealMemory=%d" % (s, c, th, mem)

    def rack_node_lines(self, r):
        """The NodeName lines of rack r under its type's DEFAULT block."""
        t = self.rack_type[r]
        exc = self.exceptions.get(r, [])
        normal = [s for s in self.slots[r] if s not in exc]
        out = ["NodeName=%s" % self.rack_name(r, normal)]
        for s in exc:
            out.append("NodeName=%s Gres=%s  # GPU 3 failed, RMA pending"
                       % (self.rack_name(r, [s]), self.gres_value(t, GPUS_PER_NODE - 1)))
        return out

    def nodes_conf(self):
        if self.shape["slurm"] == "node":
            out = ["# Compute nodes, one line each (written by the site's inventory)."]
            for r in range(self.racks):
                t = self.rack_type[r]
                exc = self.exceptions.get(r, [])
                for s in self.slots[r]:
                    gpus = GPUS_PER_NODE - 1 if s in exc else GPUS_PER_NODE
                    addr = ""
                    if self.shape["addr"]:
                        host = r * self.rack_size + s  # unique per node: below 2^24
                        addr = " NodeAddr=10.%d.%d.%d" % (host >> 16, (host >> 8) & 255, host & 255)
                    first, last = (addr, "") if self.shape["addr"] != "last" else ("", addr)
                    # Where the node stands, as inventories tag it: a feature per rack.
                    features = " Feature=rack%0*d,ib" % (self.rack_w, r + 1) if self.shape["features"] == "rack" else ""
                    out.append("NodeName=%s%s %s Gres=%s%s State=UNKNOWN%s"
                               % (self.node_name(r, s), first, self.topology(t), self.gres_value(t, gpus), features,
                                  last))
            out[1:] = self.in_order(out[1:])
            return "\n".join(out) + "\n"
        out = ["# Compute nodes: one DEFAULT block per GPU generation, one %s per rack."
               % ("file" if self.shape["slurm"] == "include" else "line")]
        current = None
        for r in range(self.racks):
            t = self.rack_type[r]
            if t != current:
                out.append("")
                out.append("NodeName=DEFAULT %s Gres=%s State=UNKNOWN" % (self.topology(t), self.gres_value(t, GPUS_PER_NODE)))
                current = t
            if self.shape["slurm"] == "include":
                out.append("Include racks/r%0*d.conf" % (self.rack_w, r + 1))
            else:
                out += self.rack_node_lines(r)
        return "\n".join(out) + "\n"

    def partitions_conf(self):
        out = ["PartitionName=DEFAULT MaxTime=2-00:00:00 State=UP"]
        if self.shape["partitions"] == "long":
            # One partition per 4 racks, each rack's range written out.
            for first in range(0, self.racks, 4):
                racks = range(first, min(first + 4, self.racks))
                out.append("PartitionName=p%0*d Nodes=%s"
                           % (self.rack_w, first // 4 + 1, ",".join(self.rack_name(r, self.slots[r]) for r in racks)))
            names = [self.node_name(r, s) for r in range(self.racks) for s in self.slots[r]]
            out.append("PartitionName=third Nodes=%s" % ",".join(names[::3]))
        else:
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
        if self.shape["gres"] == "include":
            for r in range(self.racks):
                out.append("Include gres-racks/r%0*d.conf" % (self.rack_w, r + 1))
        else:
            for t in self.types:
                out.append("Include gres-%s.conf" % t)
        return "\n".join(out) + "\n"

    def gpu_lines(self, r, names, kind=None, skip=(), one_line=False, per_gpu=False):
        """gres.conf gpu lines for hostlist `names` in rack r: one per socket (or one for the
        whole node, or one per GPU), with mistake `kind` (or none)."""
        t = self.rack_type[r]
        sockets, cps = GPU_TYPES[t][0], GPU_TYPES[t][1]
        if one_line and kind is None:
            return ["NodeName=%s Name=gpu Type=%s File=%s Cores=0-%d"
                    % (names, t, dev_range(t, 0, GPUS_PER_NODE - 1, skip), sockets * cps - 1)]
        half = GPUS_PER_NODE // 2
        lines = []
        for sock in range(2):
            lo, hi = sock * half, sock * half + half - 1
            cores = socket_cores(t, sock if sockets > 1 else 0)
            gtype = t
            name = "gpu"
            first, last = lo, hi  # the devices of File=, None for Count=
            if kind == "count-mismatch" and sock == 1:
                last = hi - 1
            if kind == "type-mismatch":
                gtype = t.upper()
            if kind == "cores-out-of-range" and sock == 1:
                s, c, th = GPU_TYPES[t][:3]
                cores = "%d-%d" % (s * c, s * c * th - 1) if th > 1 else "%d-%d" % (s * c, 2 * s * c - 1)
            if kind == "missing-file" and sock == 1:
                first = None
            if kind == "duplicate-file" and sock == 1:
                first = lo - 1
            if kind == "name-case" and sock == 1:
                name = "GPU"
            if first is None:
                files = ["Count=%d" % (half - len([x for x in skip if lo <= x <= hi]))]
            elif per_gpu:
                files = ["File=" + dev_range(t, d, d) for d in range(first, last + 1) if d not in skip]
            else:
                files = ["File=" + dev_range(t, first, last, skip)]
            lines += ["NodeName=%s Name=%s Type=%s %s Cores=%s" % (names, name, gtype, f, cores) for f in files]
        return lines

    def shared_line(self, r, names, gpus):
        shared = self.shared_of.get(self.rack_type[r])
        if not shared:
            return []
        per = SHARDS_PER_GPU if shared == "shard" else MPS_PER_GPU
        return ["NodeName=%s Name=%s Count=%d" % (names, shared, gpus * per)]

    def rack_gres_lines(self, r):
        """Every gres.conf line of rack r."""
        exc = self.exceptions.get(r, [])
        normal = [s for s in self.slots[r] if s not in exc]
        kind, bad = self.broken.get(r, (None, []))
        per_node = self.shape["gres"] in ("node1", "node2", "gpu")
        out = []

        def names_of(slots, kind=None):
            # padding-typo: the admin typed r0007n[1-100] for r0007n[001-100].
            return hostlist(self.prefix(r), slots, 0 if kind == "padding-typo" else self.slot_w)

        if per_node:
            return [line for lines in self.node_gres_lines(r) for line in lines]
        good = [s for s in normal if s not in bad]
        if good:
            out += self.gpu_lines(r, names_of(good))
            out += self.shared_line(r, names_of(good), GPUS_PER_NODE)
        if bad:
            out += self.gpu_lines(r, names_of(bad, kind), kind)
            out += self.shared_line(r, names_of(bad, kind), GPUS_PER_NODE)
        for s in exc:
            out += self.gpu_lines(r, names_of([s]), skip=(3,))
            out += self.shared_line(r, names_of([s]), GPUS_PER_NODE - 1)
        return out

    def node_gres_lines(self, r):
        """The gres.conf lines of each node of rack r, in a file written node by node."""
        exc = self.exceptions.get(r, [])
        kind, bad = self.broken.get(r, (None, []))
        out = []
        for s in self.slots[r]:
            skip = (3,) if s in exc else ()
            k = kind if s in bad else None
            # padding-typo: the admin typed r0007n1 for r0007n001.
            names = hostlist(self.prefix(r), [s], 0 if k == "padding-typo" else self.slot_w)
            out.append(self.gpu_lines(r, names, k, skip, self.shape["gres"] == "node1", self.shape["gres"] == "gpu") +
                       self.shared_line(r, names, GPUS_PER_NODE - len(skip)))
        return out

    def gres_type_conf(self, t):
        out = ["# %s racks" % t]
        racks = [r for r in range(self.racks) if self.rack_type[r] == t]
        if self.shape["order"] == "shuffled":
            # Each node's lines stay together: an export writes a node's record at once.
            nodes = [lines for r in racks for lines in self.node_gres_lines(r)]
            return "\n".join(out + [line for lines in self.in_order(nodes) for line in lines]) + "\n"
        for r in racks:
            out += self.rack_gres_lines(r)
        return "\n".join(out) + "\n"

    def in_order(self, items):
        """`items` in the shape's order: as given, or shuffled by a generator of their own (the
        nodes broken and the exceptions are the same as in the sorted shape)."""
        if self.shape["order"] != "shuffled":
            return items
        items = list(items)
        random.Random("order-%d" % self.args.seed).shuffle(items)
        return items

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
        for sub in ("racks", "gres-racks"):  # stale per-rack files from an earlier run
            shutil.rmtree(os.path.join(d, sub), ignore_errors=True)
        if self.shape["slurm"] == "include":
            os.makedirs(os.path.join(d, "racks"))
            for r in range(self.racks):
                files["racks/r%0*d.conf" % (self.rack_w, r + 1)] = "\n".join(self.rack_node_lines(r)) + "\n"
        if self.shape["gres"] == "include":
            os.makedirs(os.path.join(d, "gres-racks"))
            for r in range(self.racks):
                files["gres-racks/r%0*d.conf" % (self.rack_w, r + 1)] = "\n".join(self.rack_gres_lines(r)) + "\n"
        else:
            for t in self.types:
                files["gres-%s.conf" % t] = self.gres_type_conf(t)
        for name in os.listdir(d):  # stale per-type files from an earlier run
            if name.startswith("gres-") and name.endswith(".conf") and name not in files:
                os.remove(os.path.join(d, name))
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)


def parse_shape(text):
    shape = {"slurm": "rack", "gres": "rack", "partitions": "simple", "types": 4, "shared": False, "addr": False,
             "features": None, "order": "sorted"}
    for name in text.split(","):
        if name not in SHAPES:
            raise argparse.ArgumentTypeError("unknown shape %r; shapes: %s" % (name, ", ".join(SHAPES)))
        for key, value in SHAPES[name].items():
            if key in ("slurm", "gres") and shape[key] not in ("rack", value):
                raise argparse.ArgumentTypeError("shape %s contradicts another shape of the list" % name)
            shape[key] = value
    return shape


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
    p.add_argument("--shape", type=parse_shape, default=parse_shape("racks"), metavar="SHAPE[,SHAPE...]",
                   help="how the files are written: " + ", ".join(SHAPES) + " (default racks)")
    p.add_argument("--rack-size", type=int, default=None,
                   help="nodes per rack (default 100; 32 with include-racks)")
    p.add_argument("--exceptions", type=float, default=0.005,
                   help="share of nodes with a per-node exception line (default 0.005)")
    p.add_argument("--inject", type=parse_inject, action="append", default=[], metavar="KIND=COUNT",
                   help="break COUNT nodes with mistake KIND (repeatable): " + ", ".join(INJECT_KINDS))
    p.add_argument("--manifest", help="write the nodes each --inject kind broke to this JSON file")
    args = p.parse_args(argv)
    if args.rack_size is None:
        args.rack_size = 32 if args.shape["slurm"] == "include" else 100
    if args.nodes < 1:
        p.error("--nodes must be at least 1")
    c = Cluster(args)
    c.write(args.out)
    if args.manifest:
        with open(args.manifest, "w") as f:
            json.dump(c.manifest(), f, indent=1, sort_keys=True)
    broken = sum(len(v[1]) for v in c.broken.values())
    print("%s: %d nodes in %d racks (%s), %d exception nodes, %d nodes on broken lines"
          % (args.out, args.nodes, c.racks, "/".join(c.types),
             sum(len(v) for v in c.exceptions.values()), broken), file=sys.stderr)


if __name__ == "__main__":
    main()
