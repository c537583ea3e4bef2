#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The views of a lint report an admin of a big cluster reaches for: --format concise,
--statistics, --min-severity, the cluster headline at the end of the text report, and
--prefix-map for a checkout of /etc/slurm whose Includes are absolute."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import GOOD_GRES, GOOD_SLURM, HEAD, SHORT_GRES  # noqa: E402

GRESLINT = os.path.abspath(os.environ["GRESLINT"]) if "GRESLINT" in os.environ else "greslint"
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")
BROKEN = os.path.abspath(os.path.join(EXAMPLES, "broken"))
CONCISE = re.compile(r"^(\S+):(\d+):(\d+): (error|warning|note): (.+) \[(GRS\d{3})\]$")


def greslint(*args, cwd=None):
    return subprocess.run([GRESLINT, *args], capture_output=True, text=True, cwd=cwd)


def lint_json(path, *args):
    p = greslint("lint", path, "--slurm-version", "22.05", "--format", "json", *args)
    return p, json.loads(p.stdout)


class TempDir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-views-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path


class Concise(unittest.TestCase):
    def test_one_line_per_finding(self):
        p = greslint("lint", BROKEN, "--slurm-version", "22.05", "--format", "concise")
        _, report = lint_json(BROKEN)
        self.assertEqual(p.returncode, 1)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), len(report["diagnostics"]))
        for line, d in zip(lines, report["diagnostics"]):
            m = CONCISE.match(line)
            self.assertTrue(m, line)
            self.assertTrue(m.group(1).endswith(d["file"]), (line, d["file"]))
            self.assertEqual((int(m.group(2)), int(m.group(3))), (d["line"], d["column"]))
            self.assertEqual((m.group(4), m.group(5), m.group(6)), (d["severity"], d["message"], d["rule"]))

    def test_nodes_refuses_concise(self):
        p = greslint("nodes", BROKEN, "--slurm-version", "22.05", "--format", "concise")
        self.assertEqual(p.returncode, 2)


class Statistics(unittest.TestCase):
    def test_counts_per_rule_match_the_findings(self):
        _, report = lint_json(BROKEN)
        expected = collections.Counter((d["rule"], d["severity"]) for d in report["diagnostics"])
        p = greslint("lint", BROKEN, "--slurm-version", "22.05", "--statistics")
        self.assertEqual(p.returncode, 1)  # the exit code is lint's
        rows = [line.split() for line in p.stdout.splitlines()]
        self.assertEqual({(r[1], r[2]): int(r[0]) for r in rows}, dict(expected))
        self.assertEqual([int(r[0]) for r in rows], sorted((int(r[0]) for r in rows), reverse=True))
        p = greslint("lint", BROKEN, "--slurm-version", "22.05", "--statistics", "--format", "json")
        stats = json.loads(p.stdout)
        self.assertEqual({(s["rule"], s["severity"]): s["count"] for s in stats}, dict(expected))
        self.assertTrue(all(s["name"] for s in stats))

    def test_other_formats_are_usage_errors(self):
        p = greslint("lint", BROKEN, "--slurm-version", "22.05", "--statistics", "--format", "sarif")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--statistics", p.stderr)


class MinSeverity(TempDir):
    def test_only_errors_are_shown_and_decide_the_exit_code(self):
        _, everything = lint_json(BROKEN)
        self.assertTrue(any(d["severity"] == "warning" for d in everything["diagnostics"]))
        p, errors = lint_json(BROKEN, "--min-severity", "ERROR")
        self.assertEqual(p.returncode, 1)
        self.assertEqual([d for d in everything["diagnostics"] if d["severity"] == "error"], errors["diagnostics"])
        # Warnings only: with --min-severity error nothing is shown, so nothing fails.
        self.write("slurm.conf", GOOD_SLURM.replace("TaskPlugin=task/affinity,task/cgroup\n", ""))
        self.write("gres.conf", GOOD_GRES)
        p, _ = lint_json(self.dir)
        self.assertEqual(p.returncode, 1)
        p, shown = lint_json(self.dir, "--min-severity", "error")
        self.assertEqual((p.returncode, shown["diagnostics"]), (0, []))

    def test_greslint_conf_sets_it_and_the_command_line_wins(self):
        self.write("slurm.conf", GOOD_SLURM.replace("TaskPlugin=task/affinity,task/cgroup\n", ""))
        self.write("gres.conf", GOOD_GRES)
        self.write(".greslint.conf", "MinSeverity=error\n")
        p, shown = lint_json(self.dir)
        self.assertEqual((p.returncode, shown["diagnostics"]), (0, []))
        p, shown = lint_json(self.dir, "--min-severity", "note")
        self.assertEqual(p.returncode, 1)
        self.assertTrue(shown["diagnostics"])
        self.write(".greslint.conf", "MinSeverity=fatal\n")
        self.assertEqual(greslint("lint", self.dir, "--slurm-version", "22.05").returncode, 2)
        self.assertEqual(greslint("lint", self.dir, "--min-severity", "loud").returncode, 2)


class Headline(TempDir):
    def text(self, *args):
        return greslint("lint", self.dir, "--slurm-version", "22.05", "--color", "never", *args).stdout.splitlines()

    def test_broken_example(self):
        lines = greslint("lint", BROKEN, "--slurm-version", "22.05", "--color", "never").stdout.splitlines()
        self.assertEqual(lines[-2], "cluster: 8 of 11 nodes drain (gpu[01-08]), 3 nodes degraded; "
                                    "44 of 52 configured GPUs lost")
        self.assertTrue(lines[-1].startswith("3 errors, 7 warnings"))

    def test_drain_counts_the_gpus_of_drained_nodes(self):
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        self.assertEqual(self.text()[-2], "cluster: 4 of 4 nodes drain (gpu[01-04]); 16 of 16 configured GPUs lost")
        # --nodes narrows the headline to the nodes asked about.
        self.assertEqual(self.text("--nodes", "gpu01")[-2],
                         "cluster: 1 of 1 node drains (gpu01); 4 of 4 configured GPUs lost")

    def test_slurmd_fatal_and_slurmctld_fatal(self):
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")
        self.write("slurm.conf", GOOD_SLURM)
        # A line without Flags, then one with env flags: slurmd exits on gpu[01-02] (GRS206).
        self.write("gres.conf", "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-1]\n"
                                "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[2-3] Flags=nvidia_gpu_env\n"
                                "NodeName=gpu[03-04] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n")
        line = self.text()[-2]
        self.assertRegex(line, r"^cluster: slurmd exits on 2 of 4 nodes \(gpu\[01-02\]\); 8 of 16 configured GPUs lost$")
        self.write("slurm.conf", HEAD.replace("SelectType=select/cons_tres", "SelectType=select/nonsense")
                   + "NodeName=gpu[01-04] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n")
        self.write("gres.conf", GOOD_GRES)
        line = self.text()[-2]
        self.assertEqual(line, 'cluster: slurmctld does not start, so none of the 4 nodes comes up: '
                               '"Can\'t find plugin for select/nonsense"')

    def test_degraded_nodes_lose_no_gpus_to_count(self):
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", GOOD_GRES + "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[4-7]\n")
        self.assertEqual(self.text()[-2], "cluster: 2 nodes degraded")

    def test_clean_configuration_has_no_headline(self):
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", GOOD_GRES)
        self.assertFalse([line for line in self.text() if line.startswith("cluster:")])

    def test_only_the_text_report_has_it(self):
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", SHORT_GRES)
        for fmt in ("concise", "github"):
            out = greslint("lint", self.dir, "--slurm-version", "22.05", "--format", fmt).stdout
            self.assertNotIn("cluster:", out, fmt)


class PrefixMap(TempDir):
    """A configuration repository: cluster/etc-slurm is a checkout of /etc/slurm, and
    slurm.conf includes /etc/slurm/nodes.conf as the head node has it."""

    def setUp(self):
        super().setUp()
        self.conf = os.path.join(self.dir, "cluster", "etc-slurm")
        self.write("cluster/etc-slurm/slurm.conf", HEAD + "Include /etc/slurm/nodes.conf\n")
        self.write("cluster/etc-slurm/nodes.conf", "NodeName=gpu[01-04] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n")
        self.write("cluster/etc-slurm/gres.conf", SHORT_GRES)
        self.write("cluster/etc-slurm/cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")

    def rules_and_files(self, *args):
        """Run from the repository's top, as CI does: paths in findings are relative to it."""
        p = greslint("lint", self.conf, "--slurm-version", "22.05", "--format", "json", *args, cwd=self.dir)
        report = json.loads(p.stdout) if p.stdout else {"diagnostics": [], "inputs": []}
        return p, [(d["rule"], d["file"]) for d in report["diagnostics"]], report

    def test_without_a_map_the_checkout_copy_is_read_and_help_names_the_map(self):
        p, found, report = self.rules_and_files()
        self.assertEqual(p.returncode, 1)
        self.assertEqual([r for r, _ in found], ["GRS011", "GRS301"])
        self.assertEqual(report["diagnostics"][0]["severity"], "note")
        self.assertIn("--prefix-map /etc/slurm=" + self.conf, report["diagnostics"][0]["help"])
        self.assertIn("cluster/etc-slurm/nodes.conf", report["inputs"])

    def test_without_a_map_or_a_copy_the_rest_is_checked(self):
        os.remove(os.path.join(self.conf, "nodes.conf"))
        p, found, report = self.rules_and_files()
        rules = [r for r, _ in found]
        self.assertIn(("GRS011", "cluster/etc-slurm/slurm.conf"), found)
        self.assertEqual(report["diagnostics"][rules.index("GRS011")]["severity"], "warning")
        # Slurm's verdict on what is left: the nodes were all in the missing file.
        self.assertIn("GRS150", rules)
        self.assertNotIn("GRS005", rules)

    def test_the_map_reads_the_checkout_and_findings_name_the_real_file(self):
        p, found, report = self.rules_and_files("--prefix-map", "/etc/slurm=" + self.conf)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual([r for r, _ in found], ["GRS301"])
        self.assertIn("cluster/etc-slurm/nodes.conf", report["inputs"])
        related = report["diagnostics"][0]["related"]
        self.assertTrue(any(r["file"].endswith("etc-slurm/nodes.conf") for r in related), related)
        # A relative NEW is relative to where greslint runs; a trailing slash on OLD is the same prefix.
        _, found2, _ = self.rules_and_files("--prefix-map", "/etc/slurm/=cluster/etc-slurm")
        self.assertEqual(found2, found)

    def test_longest_prefix_wins(self):
        other = os.path.join(self.dir, "elsewhere")
        os.makedirs(other)
        _, found, _ = self.rules_and_files("--prefix-map", "/etc=" + other, "--prefix-map", "/etc/slurm=" + self.conf)
        self.assertEqual([r for r, _ in found], ["GRS301"])
        _, found, report = self.rules_and_files("--prefix-map", "/etc/slurm=" + other)
        self.assertEqual(found[0][0], "GRS005")
        self.assertIn("by the prefix map", report["diagnostics"][0]["message"])

    def test_greslint_conf_sets_it_relative_to_itself(self):
        self.write(".greslint.conf", "PrefixMap=/etc/slurm=cluster/etc-slurm\n")
        _, found, _ = self.rules_and_files()
        self.assertEqual([r for r, _ in found], ["GRS301"])
        self.write(".greslint.conf", "PrefixMap=/etc/slurm\n")
        p = greslint("lint", self.conf, "--slurm-version", "22.05")
        self.assertEqual(p.returncode, 2)
        self.assertIn("PrefixMap takes OLD=NEW", p.stderr)
        self.assertEqual(greslint("lint", self.conf, "--prefix-map", "nothing").returncode, 2)

    def test_nodes_takes_it_too(self):
        p = greslint("nodes", self.conf, "--slurm-version", "22.05", "--format", "json",
                     "--prefix-map", "/etc/slurm=" + self.conf)
        nodes = json.loads(p.stdout)["nodes"]
        self.assertEqual([n["node"] for n in nodes], ["gpu01", "gpu02", "gpu03", "gpu04"])
        self.assertEqual({n["verdict"] for n in nodes}, {"drain"})


if __name__ == "__main__":
    unittest.main()
