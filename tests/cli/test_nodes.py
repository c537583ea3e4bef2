#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`greslint nodes`: the JSON envelope and its schema, the cluster verdict, valid UTF-8,
the folded table, the summary, --verdict, and the formats it refuses."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import GOOD_GRES, GOOD_SLURM, HEAD, SHORT_GRES  # noqa: E402

GRESLINT = os.environ.get("GRESLINT", "greslint")

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "greslint-nodes.schema.json")


class Nodes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-nodes-")
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def run_greslint(self, *args):
        return subprocess.run([GRESLINT, *args], capture_output=True, text=True, cwd=self.dir)

    def nodes(self, *args):
        return self.run_greslint("nodes", self.dir, "--slurm-version", "22.05", *args)

    def nodes_json(self, *args):
        p = self.nodes("--format", "json", *args)
        return p, json.loads(p.stdout)

    def test_envelope_validates_against_the_schema(self):
        import jsonschema  # Debian's python3-jsonschema, a test dependency
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        p, report = self.nodes_json()
        self.assertEqual(p.returncode, 1)
        with open(SCHEMA) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.Draft202012Validator(schema).validate(report)
        self.assertEqual(report["slurm_version"], "22.05")
        self.assertEqual(report["version_source"], "--slurm-version")
        self.assertEqual(report["tool"]["name"], "greslint")

    def test_invalid_nodename_hostlist_is_a_cluster_verdict(self):
        # No node can be listed; the array alone used to say nothing ([]).
        self.write("slurm.conf", HEAD + "NodeName=gpu[1-x] Gres=gpu:1\n")
        p, report = self.nodes_json()
        self.assertEqual(p.returncode, 1)
        self.assertEqual(report["nodes"], [])
        self.assertEqual(report["cluster"]["verdict"], "slurmctld-fatal")
        self.assertIn("gpu[1-x]", report["cluster"]["reason"])
        text = self.nodes()
        self.assertIn("slurmctld does not start", text.stdout)

    def test_json_is_valid_utf8_for_a_node_named_with_byte_ff(self):
        with open(os.path.join(self.dir, "slurm.conf"), "wb") as f:
            f.write(HEAD.encode() + b"NodeName=gpu\xff01 Gres=gpu:1\n")
        p = subprocess.run([GRESLINT, "nodes", self.dir, "--slurm-version", "22.05",
                            "--format", "json"], capture_output=True)
        report = json.loads(p.stdout.decode("utf-8"))  # strict: raises on invalid UTF-8
        self.assertEqual(report["nodes"][0]["node"], "gpu\ufffd01")

    def test_formats_without_a_per_node_form_are_usage_errors(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", GOOD_GRES)
        for fmt in ("sarif", "github", "junit", "gitlab"):
            p = self.nodes("--format", fmt)
            self.assertEqual(p.returncode, 2, fmt)
            self.assertEqual(p.stdout, "", fmt)
            self.assertIn("text or json", p.stderr)

    def test_nodes_alike_share_a_row_and_a_summary_follows(self):
        # Two gres.conf lines make two node classes with the same outcome: one row.
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n"
                                "NodeName=gpu[03-04] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n")
        p = self.nodes()
        lines = p.stdout.splitlines()
        rows = [l for l in lines if l.startswith("gpu")]
        self.assertEqual(len(rows), 1, p.stdout)
        self.assertTrue(rows[0].startswith("gpu[01-04]  ok"))
        self.assertEqual(lines[-1], "4 nodes: 4 ok")

    def test_long_hostlists_are_elided_in_the_table(self):
        nodes = ",".join("n%d" % (i * 3) for i in range(200))
        self.write("slurm.conf", HEAD + "NodeName=%s\n" % nodes)
        p = self.nodes()
        row = next(l for l in p.stdout.splitlines() if l.startswith("n"))
        cell = row.split("  ")[0]
        self.assertLessEqual(len(cell), 60, cell)
        self.assertIn("(200 nodes)", cell)
        self.assertEqual(p.stdout.splitlines()[-1], "200 nodes: 200 ok")

    def test_verdict_filter(self):
        self.write("slurm.conf", HEAD + "NodeName=gpu[01-04] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n"
                                        "NodeName=cpu01\n")
        self.write("gres.conf", SHORT_GRES)
        _, report = self.nodes_json("--verdict", "drain")
        self.assertEqual([n["node"] for n in report["nodes"]], ["gpu01", "gpu02", "gpu03", "gpu04"])
        p, report = self.nodes_json("--verdict", "ok")
        self.assertEqual([n["node"] for n in report["nodes"]], ["cpu01"])
        self.assertEqual(p.returncode, 0)
        p = self.nodes("--verdict", "broken")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--verdict takes", p.stderr)


if __name__ == "__main__":
    unittest.main()
