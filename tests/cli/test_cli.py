#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end tests of the greslint command line: exit codes, options, config file,
suppressions, nodes JSON. Each test builds its own small cluster in a temp dir."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

GRESLINT = os.environ.get("GRESLINT", "greslint")
HEAD = ("ClusterName=t\nSlurmctldHost=h\nSelectType=select/cons_tres\nGresTypes=gpu\n"
        "TaskPlugin=task/affinity,task/cgroup\nProctrackType=proctrack/cgroup\n"
        "PartitionName=all Nodes=ALL Default=YES\n")
GOOD_SLURM = HEAD + "NodeName=gpu[01-04] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\nPartitionName=p Nodes=gpu[01-04] Default=YES\n"
GOOD_GRES = "NodeName=gpu[01-04] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n"
SHORT_GRES = "NodeName=gpu[01-04] Name=gpu Type=a100 File=/dev/nvidia[0-1]\n"


class Cli(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-cli-")
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_greslint(self, *args, cwd=None):
        return subprocess.run([GRESLINT, *args], capture_output=True, text=True, cwd=cwd or self.dir)

    def lint_json(self, *args):
        p = self.run_greslint("lint", self.dir, "--slurm-version", "22.05", "--format", "json", *args)
        return p, json.loads(p.stdout)

    def test_clean_config_exits_0(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", GOOD_GRES)
        p = self.run_greslint(self.dir, "--slurm-version", "22.05")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("no findings", p.stdout)

    def test_drain_exits_1_with_slurm_message_and_folded_nodes(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        p, report = self.lint_json()
        self.assertEqual(p.returncode, 1)
        [d] = report["diagnostics"]
        self.assertEqual(d["rule"], "GRS301")
        self.assertEqual(d["nodes"], "gpu[01-04]")
        self.assertEqual(d["effect"], "drain")
        self.assertEqual(d["slurm_message"], "gres/gpu count reported lower than configured (2 < 4)")
        self.assertEqual((d["file"], d["line"], d["column"]), ("gres.conf", 1, 45))

    def test_missing_slurm_conf_exits_2(self):
        p = self.run_greslint(os.path.join(self.dir, "nope"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no such file", p.stderr)

    def test_unknown_version_and_rule_exit_2(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.assertEqual(self.run_greslint(self.dir, "--slurm-version", "21.08").returncode, 2)
        self.assertEqual(self.run_greslint(self.dir, "--select", "GRS999").returncode, 2)

    def test_fail_level_select_ignore(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        self.assertEqual(self.run_greslint(self.dir, "--slurm-version", "22.05", "--fail-level", "never").returncode, 0)
        p, report = self.lint_json("--ignore", "GRS301")
        self.assertEqual(report["diagnostics"], [])
        self.assertEqual(p.returncode, 0)
        p, report = self.lint_json("--select", "count-lower-than-configured")
        self.assertEqual(len(report["diagnostics"]), 1)

    def test_nodes_filter(self):
        self.write("slurm.conf", GOOD_SLURM + "NodeName=cpu01 Sockets=1 CoresPerSocket=4\n")
        self.write("gres.conf", SHORT_GRES)
        _, report = self.lint_json("--nodes", "cpu01")
        self.assertEqual(report["diagnostics"], [])
        _, report = self.lint_json("--nodes", "gpu03")
        self.assertEqual(len(report["diagnostics"]), 1)

    def test_nodes_json_contract(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        p = self.run_greslint("nodes", self.dir, "--slurm-version", "22.05", "--format", "json")
        report = json.loads(p.stdout)
        self.assertEqual(report["schema"], 1)
        self.assertEqual(report["cluster"], {"verdict": "ok", "reason": None})
        nodes = report["nodes"]
        self.assertEqual([n["node"] for n in nodes], ["gpu01", "gpu02", "gpu03", "gpu04"])
        self.assertEqual(nodes[0]["verdict"], "drain")
        self.assertEqual(nodes[0]["reason"], "gres/gpu count reported lower than configured (2 < 4)")
        self.assertEqual(nodes[0]["gres"], [{"name": "gpu", "type": "a100", "count": 2, "files": "/dev/nvidia[0-1]",
                                             "cores": None, "links": None, "flags": ""}])

    def test_suppressions(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", "# greslint: disable=GRS301\n" + SHORT_GRES +
                   "# greslint: disable=GRS208\nNodeName=gpu09 Name=gpu File=/dev/nvidia0\n# greslint: disable=NOPE\n")
        p, report = self.lint_json()
        rules = sorted(d["rule"] for d in report["diagnostics"])
        # GRS301 is silenced; the GRS208 one matches nothing; NOPE is no rule; gpu09 is unknown.
        self.assertEqual(rules, ["GRS009", "GRS010", "GRS310"])

    def test_suppression_on_the_slurm_conf_line_of_a_gres_conf_finding(self):
        # GRS301 points at gres.conf; its related note is slurm.conf's NodeName line (docs/rules/GRS301.md
        # "When to suppress"): a comment above that line silences it, and is not reported unused.
        self.write("slurm.conf", GOOD_SLURM.replace("NodeName=gpu[01-04]", "# greslint: disable=GRS301\nNodeName=gpu[01-04]"))
        self.write("gres.conf", SHORT_GRES)
        p, report = self.lint_json()
        self.assertEqual(report["diagnostics"], [], report)
        self.assertEqual(p.returncode, 0)
        # Only the other half counts: a comment on a line of the finding's own file that is
        # not its record still matches nothing.
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES + "# greslint: disable=GRS301\nNodeName=gpu05 Name=gpu File=/dev/nvidia0\n")
        _, report = self.lint_json()
        self.assertEqual(sorted(d["rule"] for d in report["diagnostics"]), ["GRS010", "GRS301", "GRS310"])
        # disable-file in slurm.conf covers slurm.conf's own findings only.
        self.write("gres.conf", SHORT_GRES)
        self.write("slurm.conf", "# greslint: disable-file=GRS301\n" + GOOD_SLURM)
        _, report = self.lint_json()
        self.assertEqual(sorted(d["rule"] for d in report["diagnostics"]), ["GRS010", "GRS301"])

    def test_config_file_is_found_upward_and_checked(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        sub = os.path.join(self.dir, "site")
        os.mkdir(sub)
        shutil.move(os.path.join(self.dir, "slurm.conf"), sub)
        shutil.move(os.path.join(self.dir, "gres.conf"), sub)
        shutil.move(os.path.join(self.dir, "cgroup.conf"), sub)
        self.write(".greslint.conf", "SlurmVersion=22.05\nIgnore=GRS301\n")
        p = self.run_greslint(sub, "--format", "json")
        self.assertEqual(json.loads(p.stdout)["diagnostics"], [])
        self.assertEqual(json.loads(p.stdout)["slurm_version"], "22.05")
        self.assertEqual(self.run_greslint(sub, "--no-config", "--slurm-version", "22.05").returncode, 1)
        self.write(".greslint.conf", "SlurmVersion=22.05\nIgnroe=GRS301\n")
        p = self.run_greslint(sub)
        self.assertEqual(p.returncode, 2)
        self.assertIn(".greslint.conf:2:1: error: unknown key Ignroe", p.stderr)
        self.assertIn("did you mean Ignore?", p.stderr)

    def test_severity_override(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        p, report = self.lint_json("--severity", "GRS301=note")
        self.assertEqual(report["diagnostics"][0]["severity"], "note")
        self.assertEqual(p.returncode, 0)

    def test_rules_and_explain(self):
        p = self.run_greslint("rules")
        self.assertEqual(p.returncode, 0)
        self.assertIn("GRS301  count-lower-than-configured", p.stdout)
        p = self.run_greslint("explain", "GRS301")
        self.assertEqual(p.returncode, 0)
        self.assertIn("# GRS301", p.stdout)
        self.assertEqual(self.run_greslint("explain", "GRS999").returncode, 2)

    def test_never_writes_to_the_linted_directory(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        os.chmod(self.dir, 0o555)
        try:
            before = {n: os.stat(os.path.join(self.dir, n)).st_mtime_ns for n in os.listdir(self.dir)}
            for fmt in ("text", "json", "sarif", "github", "junit", "gitlab"):
                self.run_greslint(self.dir, "--slurm-version", "22.05", "--format", fmt)
            after = {n: os.stat(os.path.join(self.dir, n)).st_mtime_ns for n in os.listdir(self.dir)}
            self.assertEqual(before, after)
        finally:
            os.chmod(self.dir, 0o755)


if __name__ == "__main__":
    unittest.main(verbosity=2)
