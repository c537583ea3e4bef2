#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Record what a greslint binary says about every test input, to compare two builds.

A refactor must not change behaviour. This script runs `lint --format json` and
`nodes --format json` on every configuration the repository holds (rule fixtures,
examples, conformance cases, hardware cases, format tests) and on generated bench
clusters, under all eight release profiles, and writes one file per run:

    scripts/refactor-oracle.py --greslint OLD/greslint --out /tmp/before
    scripts/refactor-oracle.py --greslint NEW/greslint --out /tmp/after
    diff -r /tmp/before /tmp/after

A reader built with -DGRESLINT_SPLIT_EVERY_FILE (CMAKE_CXX_FLAGS) reads the later
lines of every file on a second thread, free core or not, wherever it can split them: its
record must equal that of a normal build (src/config/later_lines.cpp). So must that of a
build with -DGRESLINT_COPY_EVERY_FILE, which parses every file from a copy of its bytes,
keeps views into its mapping, and unmaps each copy once parsed: a view left pointing into
one crashes the run (src/config/reader.hpp).

Runs happen from the repository root so the relative paths in reports are the same for
any checkout. Stdout, stderr and the exit code are all recorded.
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASES = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]

# Generated clusters: (name, gen_cluster.py arguments). Small enough to run 16 times each.
GENERATED = [
    ("gen-clean-2000", ["--nodes", "2000", "--seed", "3"]),
    ("gen-broken-2000", ["--nodes", "2000", "--seed", "4", "--inject", "count-mismatch=7",
                         "--inject", "type-mismatch=5", "--inject", "padding-typo=4",
                         "--inject", "cores-out-of-range=3", "--inject", "missing-file=3",
                         "--inject", "duplicate-file=3", "--inject", "name-case=3"]),
    # Files written node by node: the reader's repeated tails (RepeatedTail) and the node
    # lines built from them must say what a fully parsed line says.
    ("gen-both-node-broken-1000", ["--nodes", "1000", "--seed", "5", "--shape", "both-node",
                                   "--inject", "count-mismatch=5", "--inject", "type-mismatch=4",
                                   "--inject", "padding-typo=3", "--inject", "cores-out-of-range=3",
                                   "--inject", "missing-file=3", "--inject", "duplicate-file=3",
                                   "--inject", "name-case=3"]),
    ("gen-include-racks-broken-1000", ["--nodes", "1000", "--seed", "6", "--shape", "include-racks",
                                       "--inject", "count-mismatch=5", "--inject", "cores-out-of-range=3"]),
]


def config_dirs():
    dirs = []
    for top in ("tests", "examples"):
        for here, subdirs, files in os.walk(os.path.join(ROOT, top)):
            subdirs.sort()
            if "slurm.conf" in files:
                dirs.append(os.path.relpath(here, ROOT))
    return sorted(dirs)


def run_one(binary, out_dir, label, path, release):
    results = []
    for command in ("lint", "nodes"):
        argv = [binary, command, path, "--format", "json", "--slurm-version", release]
        proc = subprocess.run(argv, cwd=ROOT, capture_output=True, timeout=600)
        name = f"{label.replace('/', '__')}.{release}.{command}"
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(b"exit=%d\n--- stdout\n" % proc.returncode)
            f.write(proc.stdout)
            f.write(b"\n--- stderr\n")
            f.write(proc.stderr)
        results.append(name)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-generated", action="store_true")
    args = ap.parse_args()
    binary = os.path.abspath(args.greslint)
    os.makedirs(args.out, exist_ok=True)

    jobs = [(d, d) for d in config_dirs()]
    gen_root = None
    if not args.no_generated:
        # Inside the repository root (ignored by git) so report paths stay relative.
        gen_root = tempfile.mkdtemp(prefix=".oracle-gen-", dir=ROOT)
        for name, gen_args in GENERATED:
            target = os.path.join(gen_root, name)
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_cluster.py"), "--out", target] + gen_args,
                           check=True, capture_output=True)
            jobs.append((f"generated/{name}", os.path.relpath(target, ROOT)))

    count = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, binary, args.out, label, path, release)
                   for label, path in jobs for release in RELEASES]
        for fut in concurrent.futures.as_completed(futures):
            count += len(fut.result())
    if gen_root:
        subprocess.run(["rm", "-rf", gen_root], check=False)
    # Generated paths differ per run; normalise them so two runs compare.
    if gen_root:
        stem = os.path.relpath(gen_root, ROOT).encode()
        for name in os.listdir(args.out):
            if name.startswith("generated__"):
                p = os.path.join(args.out, name)
                with open(p, "rb") as f:
                    data = f.read()
                with open(p, "wb") as f:
                    f.write(data.replace(stem, b"<generated>"))
    print(f"{count} runs over {len(jobs)} inputs x {len(RELEASES)} releases written to {args.out}")


if __name__ == "__main__":
    main()
