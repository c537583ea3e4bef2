#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`greslint limits`, `lint --limits` and `job --limits`: exit codes, errors naming
file:line:column, and --running (the GPUs of jobs already running count against the group
and per-user limits, as slurmctld's usage does)."""
import json
import os
import subprocess
import tempfile
import unittest

GRESLINT = os.environ.get("GRESLINT", "greslint")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LAB = os.path.join(ROOT, "examples", "lab-pool")
FIX = os.path.join(ROOT, "tests", "fixtures", "GRS440")


def run(*args):
    p = subprocess.run([GRESLINT, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class Limits(unittest.TestCase):
    def test_limits_reports_and_exits_like_lint(self):
        rc, out, _ = run("limits", "--no-config", "--slurm-version", "22.05", "--cluster", LAB, "--format", "json",
                         os.path.join(LAB, "lab.cfg"), os.path.join(LAB, "limits.psv"))
        self.assertEqual(rc, 1)
        rules = sorted(d["rule"] for d in json.loads(out)["diagnostics"])
        self.assertEqual(rules, ["GRS420", "GRS420", "GRS422"])
        rc, _, _ = run("limits", "--no-config", "--slurm-version", "22.05", "--cluster", LAB, "--fail-level", "never",
                       os.path.join(LAB, "lab.cfg"))
        self.assertEqual(rc, 0)

    def test_lint_adds_the_limits_findings(self):
        rc, out, _ = run("lint", LAB, "--no-config", "--slurm-version", "22.05", "--format", "json",
                         "--limits", os.path.join(LAB, "lab.cfg"), "--limits", os.path.join(LAB, "limits.psv"))
        self.assertEqual(rc, 1)
        report = json.loads(out)
        self.assertEqual(len(report["diagnostics"]), 3)
        self.assertTrue(any(i.endswith("limits.psv") for i in report["inputs"]))

    def test_a_bad_file_names_its_place_and_exits_2(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
            f.write("Cluster - 'lab'\nAccount - 'a':GrpTRES=gres/gpu=lots\n")
        try:
            rc, out, err = run("limits", "--no-config", "--cluster", LAB, f.name)
            self.assertEqual(rc, 2)
            self.assertEqual(out, "")
            self.assertIn(f.name + ":2:23: GrpTRES item \"gres/gpu=lots\"", err)
        finally:
            os.unlink(f.name)

    def job(self, script, *extra):
        rc, out, err = run("job", "--no-config", "--slurm-version", "22.05", "--cluster", FIX, "--format", "json",
                           "--fail-level", "never", "--limits", os.path.join(FIX, "limits", "lab.cfg"),
                           "--limits", os.path.join(FIX, "limits", "qos.psv"), *extra, script)
        self.assertEqual(rc, 0, err)
        return [(d["rule"], d["effect"], d["slurm_message"]) for d in json.loads(out)["diagnostics"]
                if d["rule"].startswith("GRS44")]

    def test_running_jobs_count_against_group_limits(self):
        with tempfile.TemporaryDirectory() as d:
            script = os.path.join(d, "four.sh")
            with open(script, "w") as f:
                f.write("#!/bin/bash\n#SBATCH --qos=normal -N 2 --gres=gpu:2\nsrun ./run\n")
            # Alone, 4 GPUs fit bio's GrpTRES=gres/gpu=6.
            self.assertEqual(self.job(script), [])
            running = os.path.join(d, "running.json")
            with open(running, "w") as f:
                json.dump([{"script": script, "user": "alice", "args": "", "nodes": "a[01-02]"}], f)
            # With one such job running, a second one would make 8: it waits (AssocGrpGRES).
            self.assertEqual(self.job(script, "--running", running), [("GRS440", "pends", "AssocGrpGRES")])
            with open(running, "w") as f:
                f.write("[{\"user\": \"alice\"}]")
            rc, _, err = run("job", "--no-config", "--cluster", FIX, "--limits", os.path.join(FIX, "limits", "lab.cfg"),
                             "--running", running, script)
            self.assertEqual(rc, 2)
            self.assertIn("needs a \"script\"", err)


if __name__ == "__main__":
    unittest.main()
