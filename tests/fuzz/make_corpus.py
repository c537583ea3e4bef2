#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build the seed corpora of greslint's fuzz targets from the files the test suites and the
examples already hold (tests/fixtures, tests/conformance/cases, examples, and the string
literals of the hostlist and GRES unit tests). Nothing here is committed: the corpora are a
few hundred small files, rebuilt in a second.

Usage: make_corpus.py OUTDIR        -> OUTDIR/{reader,hostlist,gres_values,pipeline}/<sha1>

Input formats are described in tests/fuzz/fuzz_targets.hpp (one selector byte, then text).
"""

import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = [os.path.join(ROOT, "tests", "fixtures"), os.path.join(ROOT, "tests", "conformance", "cases"),
           os.path.join(ROOT, "examples")]
# Must match known_versions() in src/version.cpp (the selector picks versions[sel % n]).
VERSIONS = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]
TABLES = {"slurm.conf": 0, "gres.conf": 1, "cgroup.conf": 2, ".greslint.conf": 3}
SEPARATOR = b"\n%%\n"
HOSTLIST_KEYS = re.compile(rb"(?i)(?:^|\s)(?:NodeName|Nodes|File|Files|MultipleFiles|NodeAddr|NodeHostname)=(\S+)")
GRES_KEYS = re.compile(rb"(?i)(?:^|\s)(?:Gres|Count|Cores|CPUs|Links|Link)=(\S+)")
LINT_ARGS = re.compile(rb"--slurm-version[ =](\d\d\.\d\d)")
CPP_STRING = re.compile(rb'"((?:[^"\\\n]|\\.)*)"')


def read(path):
    with open(path, "rb") as f:
        return f.read()


def version_index(text, default=0):
    m = LINT_ARGS.search(text[:300])
    if m and m.group(1).decode() in VERSIONS:
        return VERSIONS.index(m.group(1).decode())
    return default


class Corpus:
    def __init__(self, outdir):
        self.outdir = outdir
        self.counts = {}

    def add(self, target, data):
        d = os.path.join(self.outdir, target)
        os.makedirs(d, exist_ok=True)
        name = hashlib.sha1(data).hexdigest()
        path = os.path.join(d, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.counts[target] = self.counts.get(target, 0) + 1


def case_dirs():
    for base in SOURCES:
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            if "slurm.conf" in filenames:
                yield dirpath, sorted(filenames)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    corpus = Corpus(sys.argv[1])
    for n, (dirpath, files) in enumerate(case_dirs()):
        slurm = read(os.path.join(dirpath, "slurm.conf"))
        v = version_index(slurm)
        parts = [slurm]
        gres = os.path.join(dirpath, "gres.conf")
        cgroup = os.path.join(dirpath, "cgroup.conf")
        if os.path.isfile(gres) or os.path.isfile(cgroup):
            parts.append(read(gres) if os.path.isfile(gres) else b"")
        if os.path.isfile(cgroup):
            parts.append(read(cgroup))
        sel = v | (0x80 if n % 2 else 0) | (0x40 if n % 4 < 2 else 0)
        corpus.add("pipeline", bytes([sel]) + SEPARATOR.join(parts))
        for name in files:
            path = os.path.join(dirpath, name)
            if not name.endswith(".conf") or not os.path.isfile(path):
                continue
            text = read(path)
            table = TABLES.get(name, 0)
            corpus.add("reader", bytes([table | (v << 3)]) + text)
            for m in HOSTLIST_KEYS.finditer(text):
                corpus.add("hostlist", bytes([v]) + m.group(1))
            for m in GRES_KEYS.finditer(text):
                for sel in (4, 6, 9, 10):  # Cores= bit counts 8, 64, 4096, 65536 (fuzz_targets.cpp)
                    corpus.add("gres_values", bytes([sel]) + m.group(1))
    # Files written node by node, in miniature (bench/gen_cluster.py's inventory shape): the
    # reader shares the text lines repeat after the name, or after a node's own NodeAddr=, only
    # from a line's third sighting, and no fixture repeats a line that often.
    head = (b"ClusterName=f\nSlurmctldHost=h\nSelectType=select/cons_tres\nGresTypes=gpu\n"
            b"PartitionName=all Nodes=ALL Default=YES\n")
    nodes, gres = b"", b""
    for i in range(1, 7):
        own = b" NodeAddr=10.0.0.%d" % i if i % 3 else b" NodeHostname=h%d NodeAddr=10.0.0.%d" % (i, i)
        nodes += b"NodeName=n%d%s Sockets=2 CoresPerSocket=4 Gres=gpu:a100:2 State=UNKNOWN\n" % (i, own)
        for g in range(2):
            gres += b"NodeName=n%d Name=gpu Type=a100 File=/dev/nvidia%d Cores=%d-%d\n" % (i, g, 4 * g, 4 * g + 3)
    corpus.add("reader", bytes([TABLES["slurm.conf"]]) + head + nodes)
    corpus.add("reader", bytes([TABLES["gres.conf"]]) + gres)
    corpus.add("pipeline", bytes([0]) + SEPARATOR.join([head + nodes, gres]))
    # String literals of the unit tests: the hostlist and GRES edge cases they pin down.
    for unit, target in (("test_hostlist.cpp", "hostlist"), ("test_gres_parse.cpp", "gres_values")):
        path = os.path.join(ROOT, "tests", "unit", unit)
        if not os.path.exists(path):
            continue
        for m in CPP_STRING.finditer(read(path)):
            lit = m.group(1).replace(b"\\\\", b"\\").replace(b'\\"', b'"')
            if not lit or len(lit) > 512:
                continue
            if target == "hostlist":
                for v in (0, 2):  # 22.05 and 23.11 grammars
                    corpus.add("hostlist", bytes([v]) + lit)
            else:
                corpus.add("gres_values", bytes([4]) + lit)
    for target, count in sorted(corpus.counts.items()):
        print(f"{target}: {count} seeds")


if __name__ == "__main__":
    main()
