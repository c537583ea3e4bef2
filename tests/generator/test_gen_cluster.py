#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/gen_cluster.py against the real greslint binary.

For every --shape the generator knows, a valid cluster (2,000 nodes, 20 racks, exceptions,
Includes) must give no finding and no node that is not ok, for every modelled Slurm release.
Each --inject kind (150 nodes: a whole rack and half of another) must give exit code 1, the
rule that names that mistake, and exactly the nodes the generator says it broke (its
--manifest), grouped into a few findings: per-node lines that say the same thing are one
finding, not one per node.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

RELEASES = ("22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05")
SHAPES = ("racks", "gres-node", "gres-node2", "gres-gpu", "slurm-node", "both-node", "node-addr", "inventory",
          "addr-last", "rack-features", "unsorted", "include-racks", "partitions", "types16", "shared")
NODES = 2000
BROKEN = 150
# kind -> the rule that names the mistake
KINDS = {
    "count-mismatch": "GRS301",
    "type-mismatch": "GRS304",
    "padding-typo": "GRS310",
    "cores-out-of-range": "GRS208",
    "missing-file": "GRS217",
    "duplicate-file": "GRS220",
    "name-case": "GRS306",
}
ARGS = None


def run(*cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)


class Generator(unittest.TestCase):
    def generate(self, out, shape, *inject):
        args = [sys.executable, ARGS.generator, "--nodes", str(NODES), "--seed", "1", "--out", out,
                "--shape", shape, "--manifest", os.path.join(out, "manifest.json")]
        for i in inject:
            args += ["--inject", i]
        p = run(*args)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "manifest.json")) as f:
            return json.load(f)

    def lint(self, d, release, *extra):
        return run(ARGS.greslint, "lint", d, "--no-config", "--slurm-version", release, *extra)

    def nodes_not_ok(self, d):
        p = run(ARGS.greslint, "nodes", d, "--no-config", "--slurm-version", "22.05", "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        table = json.loads(p.stdout)["nodes"]
        self.assertEqual(len(table), NODES)
        return sorted(n["node"] for n in table if n["verdict"] != "ok")

    def test_valid_cluster_is_clean_for_every_release(self):
        for shape in SHAPES:
            with self.subTest(shape=shape), tempfile.TemporaryDirectory() as d:
                self.assertEqual(self.generate(d, shape), {})
                for release in RELEASES:
                    p = self.lint(d, release, "--fail-level", "note")
                    self.assertEqual(p.returncode, 0, f"{shape}, Slurm {release}: {p.stdout[:2000]}")
                    self.assertIn("no findings", p.stdout)
                self.assertEqual(self.nodes_not_ok(d), [])

    def test_each_injected_mistake_breaks_the_nodes_it_names(self):
        for shape in SHAPES:
            for kind, rule in KINDS.items():
                with self.subTest(shape=shape, kind=kind), tempfile.TemporaryDirectory() as d:
                    broken = self.generate(d, shape, f"{kind}={BROKEN}")[kind]
                    # Dropping the zero padding of a slot that has the full width (n100) is no mistake.
                    self.assertGreaterEqual(len(broken), BROKEN if kind != "padding-typo" else 40)
                    p = self.lint(d, "22.05", "--format", "json")
                    self.assertEqual(p.returncode, 1, p.stderr)
                    report = json.loads(p.stdout)
                    rules = {f["rule"] for f in report["diagnostics"]}
                    self.assertIn(rule, rules)
                    self.assertEqual(self.nodes_not_ok(d), sorted(broken))
                    # Grouped: a rack's worth of broken nodes is a few findings, not one per node
                    # or per line, whichever way the files are written.
                    self.assertLessEqual(len(report["diagnostics"]), 10, sorted(rules))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--generator", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
