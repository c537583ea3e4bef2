#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Replays the saved fuzz inputs of tests/regress/ through the real greslint binary.

Input formats are those of tests/fuzz/fuzz_targets.hpp (a selector byte, then text):
  pipeline/*     split at "\\n%%\\n" into slurm.conf, gres.conf, cgroup.conf; `lint` in every
                 format, and `nodes`
  reader/*       written as slurm.conf, gres.conf, cgroup.conf or .greslint.conf (by selector)
  hostlist/*     `greslint hostlist -c` and `-f` (the expression ends at its first NUL, as an
                 argv string must)
  gres_values/*  the value as slurm.conf Gres= and gres.conf Count=, Cores= and Links=

Every run must exit 0, 1 or 2 (never a signal), print no "internal error" and no sanitizer
report, and finish within the hang guard (60 s; the inputs are small).

Usage: replay_binary.py --greslint BUILD/greslint tests/regress
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

VERSIONS = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]
# Every format is exercised by the fuzzer and the hostile suite; here the three that copy the
# most text from the files (and the nodes table), to keep the replay quick under ASan.
FORMATS = ("text", "json", "github")
SEPARATOR = b"\n%%\n"
HEAD = (b"ClusterName=regress\nSlurmctldHost=head\nSelectType=select/cons_tres\nGresTypes=gpu,shard\n"
        b"NodeName=gpu01 Sockets=2 CoresPerSocket=8 Gres=gpu:2\n")
GUARD = 60


class Failure(Exception):
    pass


def run(cmd, cwd, what):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=GUARD, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: still running after {GUARD} s")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0 or p.returncode not in (0, 1, 2):
        raise Failure(f"{what}: exit {p.returncode}\n{err[-3000:]}")
    for bad in ("internal error", "AddressSanitizer", "runtime error:", "LeakSanitizer"):
        if bad in err:
            raise Failure(f"{what}: {bad}\n{err[-3000:]}")
    return p


def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def lint_all(greslint, d, version, what, extra=()):
    for fmt in FORMATS:
        run([greslint, "lint", d, "--no-config", "--slurm-version", version, "--format", fmt, *extra], d,
            f"{what} --format {fmt}")
    run([greslint, "nodes", d, "--no-config", "--slurm-version", version], d, f"{what} nodes")


def replay(greslint, target, data, work):
    d = tempfile.mkdtemp(dir=work)
    what = f"{target}/{os.path.basename(d)}"
    sel, rest = (data[0], data[1:]) if data else (0, b"")
    if target == "pipeline":
        parts = rest.split(SEPARATOR, 2)
        for name, part in zip(("slurm.conf", "gres.conf", "cgroup.conf"), parts):
            write(d, name, part)
        lint_all(greslint, d, VERSIONS[(sel & 0x3F) % len(VERSIONS)], what)
    elif target == "reader":
        version = VERSIONS[(sel >> 3) % len(VERSIONS)]
        table = sel & 3
        if table == 0:
            write(d, "slurm.conf", rest)
        else:
            write(d, "slurm.conf", HEAD)
            write(d, ("gres.conf", "cgroup.conf", ".greslint.conf")[table - 1], rest)
        extra = ("--config", os.path.join(d, ".greslint.conf")) if table == 3 else ()
        if table == 3:
            for fmt in ("text", "json"):
                run([greslint, "lint", d, "--slurm-version", version, "--format", fmt, *extra], d, what)
        else:
            lint_all(greslint, d, version, what)
    elif target == "hostlist":
        expr = rest.split(b"\0", 1)[0]
        version = VERSIONS[sel % len(VERSIONS)]
        for mode in ("-c", "-f"):
            run([greslint, "hostlist", mode, "--slurm-version", version, "--", expr], d, f"{what} hostlist {mode}")
    elif target == "gres_values":
        value = rest.replace(b"\0", b"")
        write(d, "slurm.conf", HEAD.replace(b"Gres=gpu:2", b"Gres=gpu:" + value))
        write(d, "gres.conf", b"NodeName=gpu01 Name=gpu File=/dev/nvidia[0-1] Count=" + value + b"\n"
              b"NodeName=gpu01 Name=gpu File=/dev/nvidia[2-3] Cores=" + value + b" Links=" + value + b"\n")
        lint_all(greslint, d, "24.11", what)
    shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--greslint", required=True)
    ap.add_argument("regress_dir")
    args = ap.parse_args()
    greslint = os.path.abspath(args.greslint)
    work = tempfile.mkdtemp(prefix="greslint-regress-")
    passed = failed = 0
    try:
        for target in ("reader", "hostlist", "gres_values", "pipeline"):
            tdir = os.path.join(args.regress_dir, target)
            if not os.path.isdir(tdir):
                continue
            for name in sorted(os.listdir(tdir)):
                path = os.path.join(tdir, name)
                if name.startswith(".") or not os.path.isfile(path):
                    continue
                with open(path, "rb") as f:
                    data = f.read()
                try:
                    replay(greslint, target, data, work)
                    print(f"PASS {target}/{name}")
                    passed += 1
                except Failure as e:
                    print(f"FAIL {target}/{name}: {e}")
                    failed += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
