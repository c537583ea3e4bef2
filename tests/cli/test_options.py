#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The command line's own correctness: -v, help, enumerated options in any case, gres.conf
as PATH, unreadable input, --nodes, rules and explain."""
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import GOOD_GRES, GOOD_SLURM, SHORT_GRES  # noqa: E402

GRESLINT = os.environ.get("GRESLINT", "greslint")


class Options(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-options-")
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")
        self.write("slurm.conf", GOOD_SLURM)
        self.write("gres.conf", GOOD_GRES)

    def tearDown(self):
        for root, dirs, _ in os.walk(self.dir):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_greslint(self, *args):
        return subprocess.run([GRESLINT, *args], capture_output=True, text=True, cwd=self.dir)

    def lint(self, *args):
        return self.run_greslint("lint", self.dir, "--slurm-version", "22.05", *args)

    def test_verbose_works_before_and_after_the_command(self):
        for args in (["-v", "lint", self.dir], ["lint", "-v", self.dir], ["-v", self.dir], ["nodes", "-vv", self.dir]):
            p = self.run_greslint(*args, "--slurm-version", "22.05")
            self.assertEqual(p.returncode, 0, (args, p.stderr))
            self.assertIn("slurm.conf:", p.stderr, args)
        self.assertNotIn("slurm.conf:", self.lint().stderr)

    def test_help_command(self):
        p = self.run_greslint("help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("Subcommands:", p.stdout)
        p = self.run_greslint("help", "nodes")
        self.assertEqual(p.returncode, 0)
        self.assertIn("--verdict", p.stdout)

    def test_enumerated_options_take_any_case(self):
        for args in (["--format", "JSON"], ["--fail-level", "ERROR"], ["--color", "Never"],
                     ["--severity", "grs301=NOTE"], ["--select", "grs301"]):
            p = self.lint(*args)
            self.assertEqual(p.returncode, 0, (args, p.stderr))

    def test_unknown_enumerated_values_are_usage_errors(self):
        for args, what in ((["--color", "sometimes"], "--color"), (["--format", "xml"], "format"),
                           (["--fail-level", "sometimes"], "--fail-level")):
            p = self.lint(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(what, p.stderr)

    def test_gres_conf_as_path_lints_the_slurm_conf_beside_it(self):
        self.write("gres.conf", SHORT_GRES)
        p = self.run_greslint("lint", os.path.join(self.dir, "gres.conf"), "--slurm-version", "22.05",
                              "--format", "json")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("linting", p.stderr)
        rules = [d["rule"] for d in json.loads(p.stdout)["diagnostics"]]
        self.assertEqual(rules, ["GRS301"])  # not GRS002 for every gres.conf key

    def test_gres_conf_without_slurm_conf_is_a_clear_error(self):
        os.remove(os.path.join(self.dir, "slurm.conf"))
        p = self.run_greslint("lint", os.path.join(self.dir, "gres.conf"), "--slurm-version", "22.05")
        self.assertEqual(p.returncode, 2)
        self.assertIn("holds no slurm.conf", p.stderr)

    def test_unreadable_input_is_exit_2_even_when_ignored(self):
        # A directory where gres.conf should be: Slurm cannot read it either.
        os.remove(os.path.join(self.dir, "gres.conf"))
        os.mkdir(os.path.join(self.dir, "gres.conf"))
        for extra in ([], ["--ignore", "GRS008"], ["--fail-level", "never"]):
            p = self.lint(*extra)
            self.assertEqual(p.returncode, 2, (extra, p.stdout, p.stderr))

    def test_nodes_naming_no_node_is_a_usage_error(self):
        p = self.lint("--nodes", "gpu99")
        self.assertEqual(p.returncode, 2)
        self.assertIn("names no node", p.stderr)
        p = self.run_greslint("nodes", self.dir, "--slurm-version", "22.05", "--nodes", "gpu99")
        self.assertEqual(p.returncode, 2)
        p = self.lint("--nodes", "gpu[01,99]")
        self.assertEqual(p.returncode, 0)
        self.assertIn("1 of the 2 hosts", p.stderr)

    def test_nodes_keeps_findings_that_name_no_nodes(self):
        # A slurm.conf-wide finding concerns every node, the selected ones too.
        self.write("slurm.conf", GOOD_SLURM + "NoSuchKey=1\n")
        p = self.lint("--nodes", "gpu01", "--format", "json")
        rules = [d["rule"] for d in json.loads(p.stdout)["diagnostics"]]
        self.assertIn("GRS002", rules)

    def test_rules_columns_align_and_json_lists_every_rule(self):
        p = self.run_greslint("rules")
        lines = [line for line in p.stdout.splitlines() if not line.startswith(" ")]
        starts = {[m.start() for m in re.finditer(r"\S+", line)][2] for line in lines}
        self.assertEqual(len(starts), 1, "severity column is not aligned")
        rules = json.loads(self.run_greslint("rules", "--format", "json").stdout)
        self.assertEqual(len(rules), len(lines))
        self.assertEqual(set(rules[0]), {"id", "name", "severity", "effect", "daemon", "summary", "placement"})

    def test_rules_and_explain_show_where_each_rule_is_checked(self):
        # Every rule has a place: a stage list entry (its step, the list, the Slurm function
        # it follows) or a step outside the lists (reader, suppressions, hardware).
        rules = {r["id"]: r for r in json.loads(self.run_greslint("rules", "--format", "json").stdout)}
        for rid, r in rules.items():
            self.assertTrue(r["placement"], rid)
        self.assertEqual(rules["GRS301"]["placement"],
                         [{"step": "registration", "stage": "registration: counts",
                           "follows": "gres.c:_node_config_validate"}])
        self.assertEqual(rules["GRS001"]["placement"], [{"step": "reader", "stage": None, "follows": None}])
        self.assertEqual([p["stage"] for p in rules["GRS105"]["placement"]],
                         ["NodeName line", "NodeAddr/BcastAddr/NodeHostname list"])
        self.assertEqual(rules["GRS407"]["placement"][0]["stage"], "cluster policy: a partition")
        self.assertEqual(rules["GRS216"]["placement"][0]["step"], "gres.conf read")
        self.assertNotIn("replay (moving)", {p["step"] for r in rules.values() for p in r["placement"]})
        text = self.run_greslint("rules").stdout.splitlines()
        at = text.index(next(line for line in text if line.startswith("GRS301 ")))
        self.assertEqual(text[at + 1].strip(),
                         "at registration: counts (registration), following gres.c:_node_config_validate")
        explain = self.run_greslint("explain", "GRS301").stdout
        self.assertIn("## Where greslint checks it\n\n- registration: counts (registration), following "
                      "gres.c:_node_config_validate\n", explain)
        self.assertTrue(self.run_greslint("explain", "GRS009").stdout.endswith("\n- suppressions\n"))

    def test_explain_takes_any_case(self):
        for name in ("grs301", "GRS301", "Count-Lower-Than-Configured"):
            p = self.run_greslint("explain", name)
            self.assertEqual(p.returncode, 0, name)
            self.assertIn("# GRS301", p.stdout)


if __name__ == "__main__":
    unittest.main()
