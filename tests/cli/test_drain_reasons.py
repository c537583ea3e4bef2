#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""lint and nodes give the same drain reason for the same node: the one the model gave it,
which is what scontrol shows. Checked over every conformance case and fixture, under every
release profile: for each drain finding, each of its nodes that `nodes` says drains has
exactly the finding's `reason` (with the node's own name where Slurm's reason names it)."""
import concurrent.futures
import json
import os
import subprocess
import unittest

GRESLINT = os.path.abspath(os.environ["GRESLINT"]) if "GRESLINT" in os.environ else "greslint"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RELEASES = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]


def inputs():
    for top in ("tests/conformance/cases", "tests/fixtures"):
        for root, _, files in os.walk(os.path.join(ROOT, top)):
            if "slurm.conf" in files:
                yield root


def run_json(*args):
    p = subprocess.run([GRESLINT, *args, "--format", "json", "--no-config", "--color", "never"],
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


_expanded = {}


def expand(hostlist):
    if hostlist not in _expanded:
        p = subprocess.run([GRESLINT, "hostlist", "-e", hostlist], capture_output=True, text=True)
        _expanded[hostlist] = p.stdout.split() if p.returncode == 0 else []
    return _expanded[hostlist]


def compare(path, release):
    """(checks, mismatches) of one input under one release."""
    lint = run_json("lint", path, "--slurm-version", release)
    nodes = run_json("nodes", path, "--slurm-version", release)
    if not lint or not nodes:
        return 0, []
    reason = {n["node"]: n["reason"] for n in nodes["nodes"] if n["verdict"] == "drain"}
    checks, bad = 0, []
    for d in lint["diagnostics"]:
        if d["effect"] != "drain" or not d["nodes"]:
            continue
        names = [n for n in expand(d["nodes"]) if n in reason]
        if not names:
            continue
        first = names[0]
        for n in names:
            expected = reason[n]
            if expected.replace(n, "\0") != reason[first].replace(first, "\0"):
                continue  # drained by another check first: the finding's reason_note says so
            checks += 1
            said = d["reason"]
            if said and first != n:
                said = said.replace(first, n)  # Slurm's reason names each node itself
            if said != expected:
                bad.append((os.path.relpath(path, ROOT), release, d["rule"], n, d["reason"], expected))
    return checks, bad


class DrainReasons(unittest.TestCase):
    def test_lint_and_nodes_agree(self):
        jobs = [(p, r) for p in inputs() for r in RELEASES]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda job: compare(*job), jobs))
        checks = sum(c for c, _ in results)
        bad = [b for _, bs in results for b in bs]
        self.assertGreater(checks, 500)  # the inputs do drain nodes
        self.assertEqual(bad[:10], [], f"{len(bad)} of {checks} node checks differ")


if __name__ == "__main__":
    unittest.main()
