#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""node-check shares lint's report stage: .greslint.conf, --select/--ignore, --severity and
suppressions (with GRS009 and GRS010) work as they do for lint. The node is the hgx-7gpu
capture (tests/hardware/trees), whose configuration gives GRS501, GRS503 and GRS504."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

GRESLINT = os.environ.get("GRESLINT", "greslint")
HARDWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware")
CASE = os.path.join(HARDWARE, "cases", "hgx-7gpu", "stale")
TREE = os.path.join(HARDWARE, "trees", "hgx-7gpu")


class NodeCheckReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-node-check-")
        for name in ("slurm.conf", "gres.conf", "cgroup.conf"):
            shutil.copy(os.path.join(CASE, name), self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def edit(self, name, old, new):
        path = os.path.join(self.dir, name)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def node_check(self, *args):
        env = dict(os.environ, NO_COLOR="1")
        env.pop("SLURM_CONF", None)
        return subprocess.run([GRESLINT, "node-check", self.dir, "--sysroot", TREE, "--format", "json", *args],
                              capture_output=True, text=True, cwd=self.dir, env=env)

    def findings(self, *args, code=None):
        p = self.node_check(*args)
        if code is not None:
            self.assertEqual(p.returncode, code, p.stderr)
        report = json.loads(p.stdout)
        return [(d["rule"], d["severity"]) for d in report["diagnostics"]], report

    def rules(self, *args):
        return sorted(r for r, _ in self.findings(*args)[0])

    def test_baseline(self):
        self.assertEqual(self.rules("--slurm-version", "24.11"), ["GRS501", "GRS503", "GRS504"])

    def test_select_and_ignore(self):
        self.assertEqual(self.rules("--slurm-version", "24.11", "--select", "GRS503"), ["GRS503"])
        self.assertEqual(self.rules("--slurm-version", "24.11", "--ignore", "GRS501,GRS504"), ["GRS503"])
        self.assertEqual(self.rules("--slurm-version", "24.11", "--select", "GRS50", "--ignore", "grs503"),
                         ["GRS501", "GRS504"])
        p = self.node_check("--slurm-version", "24.11", "--select", "GRS599")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown rule", p.stderr)

    def test_severity_override(self):
        found, _ = self.findings("--slurm-version", "24.11", "--severity", "GRS504=error")
        self.assertIn(("GRS504", "error"), found)

    def test_greslint_conf(self):
        self.write(".greslint.conf", "SlurmVersion=22.05\nIgnore=GRS501\nSeverity=GRS504=note\nFailLevel=error\n")
        found, report = self.findings(code=1)
        self.assertEqual(report["slurm_version"], "22.05")
        self.assertEqual(sorted(r for r, _ in found), ["GRS503", "GRS504"])
        self.assertIn(("GRS504", "note"), found)
        # The command line beats the file; --no-config ignores it.
        self.assertEqual(self.findings("--slurm-version", "24.11")[1]["slurm_version"], "24.11")
        self.assertEqual(self.rules("--no-config", "--slurm-version", "24.11"), ["GRS501", "GRS503", "GRS504"])
        self.write(".greslint.conf", "Ignore=GRS501\nBogus=1\n")
        p = self.node_check()
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown key Bogus", p.stderr)

    def test_suppressions(self):
        self.edit("gres.conf", "NodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[4-7]",
                  "# greslint: disable=GRS501\nNodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[4-7]")
        self.assertEqual(self.rules("--slurm-version", "24.11"), ["GRS503", "GRS504"])

    def test_unknown_and_unused_suppressions(self):
        # GRS502 fires nowhere here: unused (GRS010). GRS599 is no rule (GRS009). GRS301 is a
        # lint rule, which node-check does not check: neither used nor unused here.
        self.edit("gres.conf", "NodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[4-7]",
                  "# greslint: disable=GRS502,GRS599,GRS301\nNodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[4-7]")
        self.assertEqual(self.rules("--slurm-version", "24.11"), ["GRS009", "GRS010", "GRS501", "GRS503", "GRS504"])

    def test_lint_does_not_call_a_hardware_suppression_unused(self):
        self.edit("gres.conf", "NodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[4-7]",
                  "# greslint: disable=GRS501\nNodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[4-7]")
        p = subprocess.run([GRESLINT, "lint", self.dir, "--slurm-version", "24.11", "--format", "json"],
                           capture_output=True, text=True)
        rules = [d["rule"] for d in json.loads(p.stdout)["diagnostics"]]
        self.assertNotIn("GRS010", rules)


class Suggest(unittest.TestCase):
    """--suggest honours --format json and gives RealMemory from /proc/meminfo."""

    def test_json_with_real_memory(self):
        case = os.path.join(HARDWARE, "cases", "workstation-4gpu", "correct")
        tree = os.path.join(HARDWARE, "trees", "workstation-4gpu")
        p = subprocess.run([GRESLINT, "node-check", case, "--sysroot", tree, "--slurm-version", "24.11", "--suggest",
                            "--format", "json"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        report = json.loads(p.stdout)
        self.assertEqual(report["schema"], "greslint-suggest/1")
        (node,) = report["nodes"]
        self.assertEqual(node["node"], "ws01")
        self.assertIn(" RealMemory=256835 ", node["slurm_conf"])  # MemTotal 263000000 kB
        self.assertTrue(node["gres_conf"][0].startswith("NodeName=ws01 Name=gpu Type=a6000 File=/dev/nvidia[0-3]"))
        text = subprocess.run([GRESLINT, "node-check", case, "--sysroot", tree, "--slurm-version", "24.11",
                               "--suggest"], capture_output=True, text=True).stdout
        self.assertIn(node["slurm_conf"] + "\n", text)


class Inventory(unittest.TestCase):
    """--inventory: a stray capture is skipped with a message, not the end of the run, and
    slurm.conf nodes without a capture are named."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-inventory-")
        self.inv = os.path.join(self.dir, "inventory")
        os.mkdir(self.inv)
        for name in ("slurm.conf", "gres.conf", "cgroup.conf"):
            shutil.copy(os.path.join(HARDWARE, "inventory", name), self.dir)
        shutil.copytree(TREE, os.path.join(self.inv, "hgx01"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_inventory(self):
        env = dict(os.environ, NO_COLOR="1")
        env.pop("SLURM_CONF", None)
        return subprocess.run([GRESLINT, "node-check", self.dir, "--slurm-version", "24.11", "--inventory", self.inv,
                               "--format", "json"], capture_output=True, text=True, env=env)

    def test_stray_entries_do_not_abort(self):
        shutil.copytree(TREE, os.path.join(self.inv, "gpu99"))  # no such NodeName
        os.mkdir(os.path.join(self.inv, "empty01"))               # nothing captured
        with open(os.path.join(self.inv, "broken.tar.gz"), "w") as f:
            f.write("not a tarball")
        p = self.run_inventory()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("gpu99 is not a NodeName", p.stderr)
        self.assertIn("skipping gpu99", p.stderr)
        self.assertIn("skipping broken.tar.gz", p.stderr)
        self.assertIn("skipping empty01", p.stderr)
        nodes = {d.get("nodes") for d in json.loads(p.stdout)["diagnostics"]}
        self.assertEqual(nodes, {"hgx01"})

    def test_nodes_without_a_capture_are_named(self):
        p = self.run_inventory()
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("holds no capture of 1 of the 2 slurm.conf nodes, which were not checked: ws01", p.stderr)

    def test_nothing_readable_is_exit_2(self):
        shutil.rmtree(os.path.join(self.inv, "hgx01"))
        os.mkdir(os.path.join(self.inv, "empty01"))
        self.assertEqual(self.run_inventory().returncode, 2)


if __name__ == "__main__":
    unittest.main()
