#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hostile inputs against the real greslint binary (docs/robustness.md).

Every case is generated at test time in a private temp dir (nothing big is committed) and
linted under an address-space cap. For each run the suite checks:
  - the exit code is 0, 1 or 2 (never a signal), and the case's expected one when it has one;
  - no "internal error" (an exception, e.g. std::bad_alloc when the cap is hit);
  - the expected message, with its file:line:column when the input has a position;
  - the run ends within a hang guard (HANG_GUARD seconds; generous on purpose: real times
    are recorded in docs/robustness.md, not asserted);
  - no ESC byte on stdout or stderr in the text and github formats.

Environment:
  GRESLINT            the binary (required)
  GRESLINT_SANITIZED  "1"/"ON" for an ASan build: no address-space cap (ASan reserves
                      terabytes of it), the hang guard x10 and the biggest inputs made smaller
  HOSTILE_REPORT      write the measured wall time and peak RSS of every case to this file
                      (a Markdown table, as pasted into docs/robustness.md)
  HOSTILE_ONLY        a regex: run only the cases whose name matches
"""
import hashlib
import json
import os
import random
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

GRESLINT = os.environ.get("GRESLINT", "greslint")
SANITIZED = os.environ.get("GRESLINT_SANITIZED", "").upper() in ("1", "ON", "TRUE", "YES")
MEMORY_CAP_MB = 512
HANG_GUARD = 5.0 * (10 if SANITIZED else 1)
SCALE = 10 if SANITIZED else 1  # the biggest inputs are divided by this under ASan
# Under ASan every process costs ~0.3 s more: the sanitizer run checks text and github only.
FORMATS = ("text", "github") if SANITIZED else ("text", "json", "sarif", "github", "junit", "gitlab")
ESC_FORMATS = ("text", "github")
# The big inputs run in the two formats a terminal or a CI log shows; under ASan in text only
# (the emitters meet hostile text under ASan in the fuzz_pipeline target and the small cases).
BIG_CASE_FORMATS = ("text",) if SANITIZED else ("text", "github")
# Six lines (the tests name slurm.conf line numbers after it). proctrack/cgroup is the default
# ProctrackType, so the sixth line is the partition 22.05's slurmctld needs (GRS128).
HEAD = ("ClusterName=hostile\nSlurmctldHost=head\nSelectType=select/cons_tres\nGresTypes=gpu\n"
        "TaskPlugin=task/affinity,task/cgroup\nPartitionName=all Nodes=ALL Default=YES\n")
GOOD_NODE = "NodeName=gpu[01-04] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n"
GOOD_GRES = "NodeName=gpu[01-04] Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-15\n"
CGROUP = "ConstrainCores=yes\nConstrainDevices=yes\n"

MEASURED = []  # (case, format, rc, wall seconds, CPU seconds, peak RSS in MB, input size)


def capped(cmd):
    if SANITIZED or not shutil.which("prlimit"):
        return cmd
    return ["prlimit", f"--as={MEMORY_CAP_MB * 1024 * 1024}", "--", *cmd]


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def process_tree(pid):
    """pid and its descendants, parents first."""
    tree, todo = [], [pid]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            pass
    return tree


def tree_cpu_seconds(pid):
    """CPU seconds pid and its descendants have used so far (those already gone count 0)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (OSError, ValueError, IndexError):
            pass
    return total


def kill_tree(pid):
    """SIGKILL pid and its descendants: GNU time's greslint would go on, holding the pipes."""
    for p in process_tree(pid):
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def run_measured(cmd, cwd, timeout):
    """Runs cmd; returns (rc, stdout, stderr, wall seconds, CPU seconds, peak RSS in MB); the
    last two are None without GNU time.
    The peak RSS comes from GNU time when it is installed: a child forked from this Python
    process would report Python's own peak as its starting point (prlimit and setpriv exec
    greslint in place, so the process GNU time watches is greslint)."""
    rss_file = None
    if GNU_TIME:
        fd, rss_file = tempfile.mkstemp(prefix="greslint-rss-")
        os.close(fd)
        cmd = [GNU_TIME, "-f", "%U %S %M", "-o", rss_file, "--", *cmd]
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    chunks = {}
    readers = [threading.Thread(target=lambda n=n, f=f: chunks.__setitem__(n, f.read())) for n, f in
               (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    # The guard counts CPU time, not only wall time: CI runs the sanitized suite at nice 19
    # beside the live suites, where a greslint that needs 3.6 s of CPU took over 50 s of wall
    # time. A run that still uses CPU past `timeout` seconds of it is a hang; one that waits
    # (a lock, a read) is caught at ten times `timeout` of wall time.
    killed = []
    done = threading.Event()

    def guard():
        begun = time.monotonic()
        while not done.wait(0.5):
            wall = time.monotonic() - begun
            if wall >= timeout and (tree_cpu_seconds(p.pid) >= timeout or wall >= 10 * timeout):
                killed.append(True)
                kill_tree(p.pid)
                return

    watcher = threading.Thread(target=guard)
    watcher.start()
    _, status, usage = os.wait4(p.pid, 0)
    done.set()
    watcher.join()
    seconds = time.monotonic() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    p.stdout.close()
    p.stderr.close()
    rss = cpu = None
    code = p.returncode
    if rss_file:
        with open(rss_file) as f:
            lines = f.read().split()
        os.unlink(rss_file)
        report = " ".join(lines)
        m = re.search(r"terminated by signal (\d+)", report)
        if m:
            code = -int(m.group(1))  # GNU time exits 128+N; the test wants to see the signal
        if len(lines) >= 3 and lines[-1].isdigit():
            rss = int(lines[-1]) / 1024.0
            cpu = float(lines[-3]) + float(lines[-2])
    if killed:
        raise AssertionError(f"hang guard: {' '.join(cmd[-10:])!r} still running after {timeout:.0f} s of CPU "
                             f"(or {10 * timeout:.0f} s of wall time)")
    return code, chunks["out"], chunks["err"], seconds, cpu, rss


class Hostile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="greslint-hostile-")
        os.chmod(cls.root, 0o755)  # the setpriv case runs greslint as nobody

    @classmethod
    def tearDownClass(cls):
        for dirpath, dirnames, _ in os.walk(cls.root):
            for d in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, d), 0o755)
                except OSError:
                    pass
        shutil.rmtree(cls.root, ignore_errors=True)
        report = os.environ.get("HOSTILE_REPORT")
        lines = ["| case | format | exit | wall (s) | CPU (s) | peak RSS (MB) | input |",
                 "|---|---|---|---|---|---|---|"]
        na = lambda v, f: "-" if v is None else format(v, f)
        for case, fmt, rc, seconds, cpu, rss, size in MEASURED:
            lines.append(f"| {case} | {fmt} | {rc} | {seconds:.2f} | {na(cpu, '.2f')} | {na(rss, '.0f')} | {size} |")
        table = "\n".join(lines) + "\n"
        if report:
            with open(report, "w") as f:
                f.write(table)
        sys.stderr.write("\n" + table)

    # ----- helpers ------------------------------------------------------------------------

    def case_dir(self, name):
        d = os.path.join(self.root, name)
        os.makedirs(d, exist_ok=True)
        return d

    @staticmethod
    def write(d, name, data):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    @staticmethod
    def input_size(d):
        total = 0
        for dirpath, _, files in os.walk(d):
            for f in files:
                p = os.path.join(dirpath, f)
                if os.path.isfile(p) and not os.path.islink(p):
                    total += os.path.getsize(p)
        if total >= 1 << 20:
            return f"{total / (1 << 20):.1f} MB"
        return f"{total / 1024:.1f} KB" if total >= 1024 else f"{total} B"

    def lint(self, case, target, *args, formats=BIG_CASE_FORMATS, rc=(0, 1, 2), expect=(), version="22.05",
             command="lint", as_nobody=False, measure=True):
        """Lints `target` in each format and checks the invariants; returns {format: (rc, out, err)}."""
        results = {}
        size = self.input_size(target) if os.path.isdir(target) else "-"
        for fmt in formats:
            cmd = [GRESLINT, command, target, "--no-config", "--slurm-version", version, "--format", fmt, *args]
            if as_nobody:
                cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", *cmd]
            code, out, err, seconds, cpu, rss = run_measured(capped(cmd), self.root, HANG_GUARD)
            where = f"[{case} --format {fmt}] rc={code}\nstderr: {err[-2000:]!r}\nstdout: {out[:2000]!r}"
            self.assertGreaterEqual(code, 0, f"killed by signal {-code} " + where)
            self.assertIn(code, (0, 1, 2), where)
            self.assertIn(code, rc, where)
            self.assertNotIn(b"internal error", err, where)
            self.assertNotIn(b"AddressSanitizer", err, where)
            self.assertNotIn(b"runtime error", err, where)
            if fmt in ESC_FORMATS:
                self.assertNotIn(b"\x1b", out, "ESC on stdout " + where)
                self.assertNotIn(b"\x1b", err, "ESC on stderr " + where)
            if fmt == "json" and out:
                json.loads(out.decode("utf-8"))  # strict: valid UTF-8 and valid JSON
            if fmt == "text":
                for pattern in expect:
                    self.assertRegex((out + err).decode("utf-8", "replace"), pattern, where)
            if measure:
                MEASURED.append((case, fmt, code, seconds, cpu, rss, size))
            results[fmt] = (code, out, err)
        return results

    # ----- bytes that are not a config ----------------------------------------------------

    def test_binary_garbage(self):
        d = self.case_dir("garbage")
        rng = random.Random(2205)
        self.write(d, "slurm.conf", bytes(rng.getrandbits(8) for _ in range(256 * 1024)))
        self.write(d, "gres.conf", bytes(rng.getrandbits(8) for _ in range(64 * 1024)))
        self.lint("binary garbage (256 KB + 64 KB)", d, formats=FORMATS, rc=(1,),
                  expect=[r"slurm\.conf:\d+:\d+: error: "])

    def test_nul_bytes(self):
        d = self.case_dir("nul")
        self.write(d, "slurm.conf", HEAD.encode() + b"NodeName=gpu01\x00junk Gres=gpu:1\n\x00\x00\x00\nBogus\x00=1\n")
        self.write(d, "gres.conf", b"NodeName=gpu01 Name=gpu File=/dev/nvidia0\x00\x1b[2J\n")
        self.lint("NUL bytes", d, formats=FORMATS, expect=[r"slurm\.conf:\d+:\d+: "])

    def test_invalid_utf8(self):
        d = self.case_dir("utf8")
        bad = b"\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\x80\xe2\x80\xae"  # bad bytes, overlong, surrogate, >U+10FFFF, RLO
        self.write(d, "slurm.conf", HEAD.encode() + b"NodeName=gpu" + bad + b" Gres=gpu:" + bad + b"\n" + bad + b"=1\n")
        self.write(d, "gres.conf", b"NodeName=gpu" + bad + b" Name=gpu File=/dev/" + bad + b"\n")
        results = self.lint("invalid UTF-8", d, formats=FORMATS, rc=(1,), expect=[r"slurm\.conf:8:1: error: "])
        for fmt in ("json", "sarif", "gitlab"):
            if fmt in results:
                results[fmt][1].decode("utf-8")  # strict
        # No right-to-left override may reach a terminal either.
        self.assertNotIn("\u202e".encode(), results["text"][1])

    def test_ten_megabyte_single_line(self):
        d = self.case_dir("longline")
        n = 10 * 1024 * 1024 // SCALE
        self.write(d, "slurm.conf", HEAD + "NodeName=gpu01 Gres=" + "a" * n + "\n")
        self.lint("10 MB single line (Gres= value)", d, rc=(1,), expect=[r"slurm\.conf:7:\d+: "])
        d2 = self.case_dir("longline-nonl")
        self.write(d2, "slurm.conf", "x" * n)  # no newline, no '='
        self.lint("10 MB single line (no '=', no newline)", d2, rc=(1,), expect=[r"slurm\.conf:1:1: error: "])
        d3 = self.case_dir("longline-pairs")
        self.write(d3, "slurm.conf", HEAD + "NodeName=gpu01" + " CPUs=1" * (n // 7) + "\n")
        self.lint("10 MB single line (1.5 million repeated keys)", d3, rc=(1,), expect=[r"slurm\.conf:7:\d+: "])

    def test_one_million_lines(self):
        n = 1_000_000 // SCALE
        cases = {
            "comments": "# a comment\n" * n,
            "blank": "\n" * n,
            "errors": "bogus=1\n" * n,
            "duplicates": "ClusterName=x\n" * n,
            "continued": "NodeName=gpu01 \\\n" * n + "CPUs=1\n",
            # 10,000 node lines (each its own node class) among comments; 100,000 distinct node
            # lines are a performance case (docs/robustness.md), not a hostile one.
            "nodes": "".join(f"NodeName=n{i} Gres=gpu:1\n" for i in range(n // 100)) + "# x\n" * (n - n // 100),
        }
        for name, text in cases.items():
            d = self.case_dir(f"million-{name}")
            self.write(d, "slurm.conf", HEAD + text)
            self.write(d, "gres.conf", "# nothing\n")
            self.lint(f"1 million lines ({name})", d, expect=[r"(no findings|slurm\.conf:\d+:\d+: )"])

    def test_crlf(self):
        lf, crlf = self.case_dir("lf"), self.case_dir("crlf")
        for d, eol in ((lf, "\n"), (crlf, "\r\n")):
            self.write(d, "slurm.conf", (HEAD + GOOD_NODE + "NodeName=gpu05 Gres=gpu:8\n").replace("\n", eol))
            self.write(d, "gres.conf", (GOOD_GRES + "NodeName=gpu05 Name=gpu File=/dev/nvidia[0-3]\n").replace("\n", eol))
            self.write(d, "cgroup.conf", CGROUP.replace("\n", eol))
        a = self.lint("LF reference", lf, formats=("json", "text"), rc=(1,))
        b = self.lint("CRLF files", crlf, formats=("json", "text"), rc=(1,), expect=[r"gres\.conf:2:\d+: "])
        rules = lambda r: [(x["rule"], x["line"], x["column"]) for x in json.loads(r["json"][1])["diagnostics"]]
        self.assertEqual(rules(a), rules(b), "CRLF must read like LF")
        self.assertNotIn(b"\r", b["text"][1], "a CR copied into the text report")

    def test_utf8_bom(self):
        d = self.case_dir("bom")
        self.write(d, "slurm.conf", b"\xef\xbb\xbf" + HEAD.encode() + GOOD_NODE.encode())
        self.write(d, "gres.conf", b"\xef\xbb\xbf" + GOOD_GRES.encode())
        # Slurm reads the BOM as part of the first key: a parse error at 1:1.
        self.lint("UTF-8 BOM", d, formats=FORMATS, rc=(1,), expect=[r"slurm\.conf:1:1: error: "])

    # ----- hostlists ----------------------------------------------------------------------

    def hostlist_case(self, name, nodes, expect, rc=(1,)):
        d = self.case_dir(name)
        self.write(d, "slurm.conf", HEAD + f"NodeName={nodes} Gres=gpu:1\n")
        self.write(d, "gres.conf", f"NodeName={nodes} Name=gpu File=/dev/nvidia0\n")
        return self.lint(name, d, rc=rc, expect=expect)

    def test_hostlist_range_beyond_limits(self):
        self.hostlist_case("n[0-99999999999]", "n[0-99999999999]",
                           [r"slurm\.conf:7:12: error: .*Too many hosts in range"])

    def test_hostlist_three_nested_groups(self):
        self.hostlist_case("n[0-65535] in three bracket groups", "n[0-65535]x[0-65535]y[0-65535]",
                           [r"slurm\.conf:7:\d+: error: .*(prefixes|ranges|hosts)"])

    def test_hostlist_300k_ranges(self):
        n = 300_000
        ranges = ",".join(str(i) for i in range(n))
        self.hostlist_case("300,000 ranges in one bracket", f"n[{ranges}]",
                           [r"slurm\.conf:7:\d+: error: .*Too many ranges"])

    def test_hostlist_two_billion_nodes(self):
        # A legal hostlist for Slurm (2^31 - 1 hosts fit its int), far beyond any cluster.
        self.hostlist_case("2^31 node names", "n[0-32767][0-65535]", [r"slurm\.conf:7:\d+: "], rc=(1, 2))

    def test_hostlist_largest_legal_lists(self):
        # 2^31 - 65536 hosts: legal for Slurm, far past greslint's model limits.
        big = "[0-32766][0-65535]"
        d = self.case_dir("two-billion-nodes")
        self.write(d, "slurm.conf", HEAD + f"NodeName=n{big} Gres=gpu:1\n")
        self.lint("2^31 - 65536 node names", d, rc=(1,), expect=[r"slurm\.conf:7:10: error: greslint stops here"])
        d2 = self.case_dir("two-billion-files")
        self.write(d2, "slurm.conf", HEAD + "NodeName=gpu01 Gres=gpu:1\n")
        self.write(d2, "gres.conf", f"NodeName=gpu01 Name=gpu File=/dev/nvidia{big}\n")
        self.lint("File= naming 2^31 - 65536 devices", d2, rc=(1,),
                  expect=[r"gres\.conf:1:30: error: greslint stops here"])
        d3 = self.case_dir("many-big-gres-lines")
        self.write(d3, "slurm.conf", HEAD + "NodeName=n[0-65535] Gres=gpu:1\nPartitionName=p Nodes=n[0-65535]\n" * 1)
        self.write(d3, "gres.conf", "NodeName=n[0-65535] Name=gpu File=/dev/nvidia0\n" * 1000)
        self.lint("1000 gres.conf lines naming 65,536 nodes each", d3, rc=(1,),
                  expect=[r"gres\.conf:\d+:10: error: greslint stops here"])
        d4 = self.case_dir("nodeset-fan-out")
        self.write(d4, "slurm.conf", HEAD + "NodeName=n[0-65535] Gres=gpu:1\nNodeSet=ns Nodes=n[0-65535]\n"
                   "PartitionName=p Nodes=" + ",".join(["ns"] * 2000) + "\n")
        self.lint("a partition naming a 65,536-node NodeSet 2000 times", d4, rc=(0, 1),
                  expect=[r"(greslint stops here|no findings|slurm\.conf)"])

    def test_hostlist_million_nodes_one_line(self):
        d = self.case_dir("million-nodes")
        self.write(d, "slurm.conf", HEAD + "NodeName=r[0-15]n[0-65535] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n")
        self.write(d, "gres.conf", "NodeName=r[0-15]n[0-65535] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n")
        self.lint("1,048,576 nodes on one line", d)

    def test_model_limits_count_repeated_lines(self):
        # Lines that repeat one node are one node for Slurm but lines for greslint to hold:
        # node names count with their duplicates, and a file tree keeps at most 2^20 settings
        # and records (docs/robustness.md, section 4).
        d = self.case_dir("repeated-node-ranges")
        self.write(d, "slurm.conf", HEAD + "NodeName=n[0-65535] Gres=gpu:1\n" * 17)
        self.lint("17 lines naming the same 65,536 nodes", d, rc=(1,),
                  expect=[r"slurm\.conf:23:10: error: greslint stops here: .*limit of 1048576 node names"])
        n = (1 << 20) // SCALE
        d2 = self.case_dir("million-records")
        self.write(d2, "slurm.conf", HEAD + "NodeName=a\n" * (n + 10))
        if not SANITIZED:  # the scaled input stays under the limit
            self.lint("1,048,586 NodeName=a lines", d2, rc=(1,),
                      expect=[rf"slurm\.conf:{n + 1}:1: error: greslint stops reading here: the file already holds "
                              r"1048576 settings and records"])
        else:
            self.lint("104,858 NodeName=a lines", d2, rc=(1,), expect=[r"node a is defined twice"])

    def test_device_file_lists(self):
        d = self.case_dir("device-files")
        self.write(d, "slurm.conf", HEAD.replace("GresTypes=gpu", "GresTypes=gpu,shard") +
                   "NodeName=gpu01 Gres=gpu:4,shard:8\n")
        self.write(d, "gres.conf", "NodeName=gpu01 Name=gpu File=/dev/nvidia[0-32767][0-65535]\n"
                   "NodeName=gpu01 Name=shard Count=8 File=/dev/nvidia[0-32767][0-65535]\n")
        self.lint("File= naming 2^31 devices", d, expect=[r"gres\.conf:1:\d+: "])
        d2 = self.case_dir("device-files-64k")
        self.write(d2, "slurm.conf", HEAD.replace("GresTypes=gpu", "GresTypes=gpu,shard") +
                   "NodeName=gpu01 Gres=gpu:65536,shard:65536\n")
        self.write(d2, "gres.conf", "NodeName=gpu01 Name=gpu File=/dev/nvidia[0-65535]\n"
                   "NodeName=gpu01 Name=shard Count=65536 File=/dev/nvidia[0-65535]\n")
        self.lint("File= naming 65,536 devices (with shard)", d2)

    # ----- Include ------------------------------------------------------------------------

    def include_case(self, name, files, expect, rc=(1,), **kw):
        d = self.case_dir(name)
        for f, text in files.items():
            self.write(d, f, text)
        return self.lint(name, d, rc=rc, expect=expect, **kw)

    def test_include_deep_chain(self):
        files = {"slurm.conf": HEAD + "Include inc/0.conf\n"}
        for i in range(1000):
            files[f"inc/{i}.conf"] = f"Include {i + 1}.conf\n"
        files["inc/1000.conf"] = "NodeName=gpu01\n"
        # Slurm recurses until fopen runs out of descriptors: greslint's stop is its own, so it
        # says that it stopped and predicts no Slurm verdict.
        out = self.include_case("Include chain 1000 deep", files,
                                [r"inc/\d+\.conf:1:9: error: greslint stops reading here: Include \S+ is nested more "
                                 r"than 64 files deep.*\[GRS008"])
        self.assertNotIn(b"slurmctld exits", out["text"][1])

    def test_include_one_file_per_rack(self):
        # 3,125 racks of 32 nodes, one Include each: Slurm reads them one after another (any
        # number of them), and so does greslint.
        files = {"slurm.conf": HEAD + "".join(f"Include racks/r{r:04d}.conf\n" for r in range(3125))}
        for r in range(3125):
            files[f"racks/r{r:04d}.conf"] = f"NodeName=r{r:04d}n[01-32] Sockets=2 CoresPerSocket=16\n"
        self.include_case("Include of 3,125 rack files", files, [r"no findings"], rc=(0,))

    def test_include_cycle(self):
        self.include_case("Include cycle", {"slurm.conf": HEAD + "Include a.conf\n", "a.conf": "Include b.conf\n",
                                            "b.conf": "Include a.conf\n"},
                          [r"b\.conf:1:9: error: .*includes itself"])
        self.include_case("Include of itself", {"slurm.conf": HEAD + "Include slurm.conf\n"},
                          [r"slurm\.conf:7:9: error: .*includes itself"])

    def test_include_fan_out(self):
        # Each file includes the next one twice: 2^40 reads if nothing stops it.
        files = {"slurm.conf": HEAD + "Include f0.conf\nInclude f0.conf\n"}
        for i in range(40):
            files[f"f{i}.conf"] = f"Include f{i + 1}.conf\nInclude f{i + 1}.conf\n"
        files["f40.conf"] = "NodeName=gpu01\n"
        out = self.include_case("Include fan-out (2 per file, 40 deep)", files,
                                [r"f\d+\.conf:\d+:9: error: greslint stops reading here: .*past 32768 files.*\[GRS008"])
        self.assertNotIn(b"slurmctld exits", out["text"][1])

    def test_include_directory_device_fifo_loop(self):
        d = self.case_dir("include-special")
        os.makedirs(os.path.join(d, "adir"), exist_ok=True)
        os.mkfifo(os.path.join(d, "fifo"))
        os.symlink("loop", os.path.join(d, "loop"))
        self.write(d, "slurm.conf", HEAD + "Include adir\nInclude /dev/zero\nInclude fifo\nInclude loop\n"
                   "Include /proc/self/status\n")
        self.lint("Include of a directory, /dev/zero, a FIFO, a symlink loop, /proc", d, rc=(1,), formats=FORMATS,
                  expect=[r"slurm\.conf:7:9: error: .*[Ii]s a directory",
                          r"slurm\.conf:8:9: error: .*/dev/zero.*not a regular file",
                          r"slurm\.conf:9:9: error: .*fifo.*not a regular file",
                          r"slurm\.conf:10:9: error: .*loop.*(symbolic links|loop)"])

    def test_include_unreadable_as_nobody(self):
        if os.geteuid() != 0 or not shutil.which("setpriv"):
            self.skipTest("needs root and setpriv to drop to nobody")
        d = self.case_dir("include-unreadable")
        self.write(d, "slurm.conf", HEAD + "Include secret.conf\n")
        secret = self.write(d, "secret.conf", "NodeName=gpu01\n")
        os.chmod(secret, 0)
        self.lint("Include of an unreadable file (as nobody)", d, rc=(1,), as_nobody=True,
                  expect=[r"slurm\.conf:7:9: error: .*secret\.conf.*[Pp]ermission denied"])
        # And slurm.conf itself unreadable.
        d2 = self.case_dir("unreadable-slurm-conf")
        os.chmod(self.write(d2, "slurm.conf", HEAD), 0)
        self.lint("unreadable slurm.conf (as nobody)", d2, rc=(1, 2), as_nobody=True,
                  expect=[r"slurm\.conf.*[Pp]ermission denied"])

    def test_slurm_conf_special_files(self):
        d = self.case_dir("slurm-conf-loop")
        os.symlink("slurm.conf", os.path.join(d, "slurm.conf"))
        self.lint("slurm.conf is a symlink loop", d, rc=(2,), expect=[r"slurm\.conf"])
        d2 = self.case_dir("slurm-conf-fifo")
        os.mkfifo(os.path.join(d2, "slurm.conf"))
        self.lint("slurm.conf is a FIFO", d2, rc=(1, 2), expect=[r"slurm\.conf.*not a regular file"])
        self.lint("slurm.conf is /dev/zero", "/dev/zero", rc=(1, 2), expect=[r"/dev/zero.*not a regular file"])
        d3 = self.case_dir("gres-conf-dir")
        self.write(d3, "slurm.conf", HEAD + GOOD_NODE)
        os.makedirs(os.path.join(d3, "gres.conf"))
        self.lint("gres.conf is a directory", d3, rc=(2,), expect=[r"gres\.conf.*[Ii]s a directory"])  # unreadable input: always 2

    # ----- empty and missing files --------------------------------------------------------

    def test_empty_and_missing_files(self):
        d = self.case_dir("empty")
        self.write(d, "slurm.conf", "")
        self.lint("empty slurm.conf", d, rc=(0, 1), formats=FORMATS)
        d2 = self.case_dir("empty-gres")
        self.write(d2, "slurm.conf", HEAD + GOOD_NODE)
        self.write(d2, "gres.conf", "")
        self.lint("empty gres.conf", d2, rc=(1,), expect=[r"slurm\.conf:7:\d+: error: .*report 0 gpu"])
        d3 = self.case_dir("missing-gres")
        self.write(d3, "slurm.conf", HEAD + GOOD_NODE)
        self.lint("missing gres.conf", d3, rc=(1,), expect=[r"slurm\.conf:7:\d+: error: "])
        d4 = self.case_dir("gres-only")
        self.write(d4, "gres.conf", GOOD_GRES)
        self.lint("gres.conf without slurm.conf", d4, rc=(2,), expect=[r"holds no slurm\.conf"])
        self.lint("a path that does not exist", os.path.join(self.root, "nowhere"), rc=(2,),
                  expect=[r"no such file or directory"])

    # ----- numbers ------------------------------------------------------------------------

    def test_numbers_beyond_64_bits(self):
        d = self.case_dir("bignum")
        big = "340282366920938463463374607431768211457"  # 2^128 + 1
        self.write(d, "slurm.conf", HEAD + f"NodeName=gpu01 Gres=gpu:{big}\nNodeName=gpu02 Gres=gpu:a100:{big}k\n"
                   f"NodeName=gpu03 CPUs={big}\nNodeName=gpu04 RealMemory={big} Gres=gpu:1\n"
                   f"MaxJobCount={big}\n")
        self.write(d, "gres.conf", f"NodeName=gpu01 Name=gpu Count={big}\nNodeName=gpu02 Name=gpu Cores=0-{big}\n"
                   f"NodeName=gpu04 Name=gpu File=/dev/nvidia[0-1] Links=-1,{big}\n")
        self.lint("numbers beyond 64 bits", d, rc=(1,), formats=FORMATS, expect=[r"slurm\.conf:9:\d+: error: "])

    def test_negative_count_and_huge_cores(self):
        d = self.case_dir("count-cores")
        self.write(d, "slurm.conf", HEAD + "NodeName=gpu01 Sockets=2 CoresPerSocket=16 Gres=gpu:1\n"
                   "NodeName=gpu02 Sockets=65535 CoresPerSocket=65535 Gres=gpu:1\n"
                   "NodeName=gpu03 Boards=65535 SocketsPerBoard=65535 CoresPerSocket=65535 Gres=gpu:1\n")
        self.write(d, "gres.conf", "NodeName=gpu01 Name=gpu File=/dev/nvidia0 Count=-1\n"
                   "NodeName=gpu01 Name=gpu File=/dev/nvidia1 Cores=0-4294967295\n"
                   "NodeName=gpu02 Name=gpu File=/dev/nvidia0 Cores=0-4294836224\n"
                   "NodeName=gpu03 Name=gpu File=/dev/nvidia0 Cores=0-4294967294:3\n")
        self.lint("Count=-1, Cores=0-4294967295, 4-billion-core nodes", d, rc=(1,), formats=FORMATS,
                  expect=[r"gres\.conf:1:\d+: error: .*Count=-1"])

    # ----- escapes ------------------------------------------------------------------------

    def test_control_characters_and_terminal_escapes(self):
        d = self.case_dir("escapes")
        esc = "\x1b[31mRED\x1b[0m\x1b]0;pwned\x07\x1b[2J\x08\x7f\x9b31m\r::error::injected"
        self.write(d, "slurm.conf", HEAD + f"NodeName=gpu01{esc} Gres=gpu:{esc}\nNodeName=gpu02 Feature={esc}\n"
                   f"Bogus{esc}=1\n# greslint: disable={esc}\nNodeName=gpu03 State={esc}\n")
        self.write(d, "gres.conf", f"NodeName=gpu01{esc} Name=gpu File=/dev/{esc}\nAutoDetect={esc}\n"
                   f"NodeName=gpu02 Name={esc}\n")
        results = self.lint("control characters and terminal escapes", d, rc=(1,), formats=FORMATS,
                            expect=[r"slurm\.conf:7:\d+: "])
        for line in results["github"][1].splitlines():
            self.assertRegex(line, rb"^::(error|warning|notice) ", "an injected workflow command")
        # the nodes table prints names and reasons copied from the files
        self.lint("escapes (nodes table)", d, rc=(0, 1), command="nodes", formats=("text",))

    def test_escapes_in_paths_and_arguments(self):
        d = self.case_dir("esc\x1b[31mdir")
        self.write(d, "slurm.conf", HEAD + "NodeName=gpu01 Gres=gpu:1\n")
        self.lint("ESC in the directory name", d, rc=(1,), expect=[r"slurm\.conf:7:\d+: "])
        self.lint("ESC in --nodes", d, "--nodes", "x\x1b[2J[")


class NeverWrites(unittest.TestCase):
    """greslint must not write to the files it lints or to their directories, in any format,
    as root or not (nothing but --output ever opens a file for writing)."""

    @staticmethod
    def tree_hash(root):
        h = hashlib.sha256()
        for dirpath, dirnames, files in os.walk(root):
            dirnames.sort()
            st = os.lstat(dirpath)
            h.update(f"D {os.path.relpath(dirpath, root)} {st.st_mode} {st.st_mtime_ns} {st.st_ctime_ns}\n".encode())
            for f in sorted(files):
                p = os.path.join(dirpath, f)
                st = os.lstat(p)
                h.update(f"F {os.path.relpath(p, root)} {st.st_mode} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}\n".encode())
                if stat.S_ISREG(st.st_mode):
                    with open(p, "rb") as fh:
                        h.update(hashlib.sha256(fh.read()).digest())
        return h.hexdigest()

    def test_read_only_copies_unchanged(self):
        src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        work = tempfile.mkdtemp(prefix="greslint-ro-")
        try:
            tree = os.path.join(work, "tree")
            shutil.copytree(os.path.join(src, "examples"), os.path.join(tree, "examples"), symlinks=True)
            shutil.copytree(os.path.join(src, "tests", "fixtures"), os.path.join(tree, "fixtures"), symlinks=True)
            cases = sorted({os.path.dirname(os.path.join(dp, f))
                            for dp, _, fs in os.walk(tree) for f in fs if f == "slurm.conf"})
            for dirpath, dirnames, files in os.walk(tree):
                for name in files + dirnames:
                    p = os.path.join(dirpath, name)
                    if not os.path.islink(p):
                        os.chmod(p, os.stat(p).st_mode & ~0o222)
            os.chmod(tree, 0o555)
            for dirpath, dirnames, _ in os.walk(tree):
                for name in dirnames:
                    os.chmod(os.path.join(dirpath, name), 0o555)
            before = self.tree_hash(tree)
            drop = []
            if os.geteuid() == 0 and shutil.which("setpriv"):
                drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
            for i, case in enumerate(cases):
                # What is written cannot depend on ASan: under it, text only and every fourth
                # case (those dropped to nobody among them), the longest test of that suite
                # otherwise (143 s); the Release suite runs every case in every format.
                if SANITIZED and i % 4:
                    continue
                for fmt in ("text",) if SANITIZED else FORMATS:
                    for prefix in ([], drop) if drop and i % 8 == 0 else ([],):
                        # cwd inside the linted tree too: nothing may land there.
                        p = subprocess.run([*prefix, GRESLINT, "lint", case, "--format", fmt, "--slurm-version", "22.05"],
                                           cwd=case, capture_output=True)
                        self.assertIn(p.returncode, (0, 1, 2), f"{case} {fmt}: {p.stderr[-500:]!r}")
                p = subprocess.run([GRESLINT, "nodes", case, "--slurm-version", "22.05", "--format", "json"],
                                   cwd=case, capture_output=True)
                self.assertIn(p.returncode, (0, 1, 2))
            # --output writes only where it is told to.
            out = os.path.join(work, "report.sarif")
            subprocess.run([GRESLINT, "lint", cases[0], "--format", "sarif", "-o", out], cwd=cases[0], capture_output=True)
            self.assertTrue(os.path.exists(out))
            self.assertEqual(before, self.tree_hash(tree), "greslint changed the linted tree")
        finally:
            for dirpath, dirnames, _ in os.walk(work):
                os.chmod(dirpath, 0o755)
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    only = os.environ.get("HOSTILE_ONLY")
    if only:
        loader = unittest.TestLoader()
        suite = unittest.TestSuite(t for c in (Hostile, NeverWrites) for t in loader.loadTestsFromTestCase(c)
                                   if re.search(only, t.id()))
        sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
    unittest.main(verbosity=2)
