#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/new_rule.py on a copy of the repository: the rule it starts compiles with the
registry (whose static_asserts check kRules' order), rules.hpp and kRules stay sorted, the
check sits in the chosen stage list, and the docs page, index line and fixture pass the
rule-coverage check. A second run with the same id is refused."""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ARGS = None


class NewRule(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="greslint-new-rule-")
        for part in ("src", "include", "docs", "scripts", os.path.join("tests", "fixtures"),
                     os.path.join("tests", "hardware")):
            shutil.copytree(os.path.join(ARGS.source_dir, part), os.path.join(self.tmp, part),
                            ignore=shutil.ignore_patterns("__pycache__"))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def new_rule(self, rid, check=True, stage="node-name-line"):
        cmd = [sys.executable, os.path.join(self.tmp, "scripts", "new_rule.py"), rid, "gres-on-future-node",
               stage, "--follows", "node_conf.c:expand_nodeline_info",
               "--summary", "Gres= on a FUTURE node is ignored", "--severity", "warning",
               "--effect", "degraded", "--root", self.tmp]
        return subprocess.run(cmd, capture_output=True, text=True, check=check)

    def read(self, path):
        with open(os.path.join(self.tmp, path), encoding="utf-8") as f:
            return f.read()

    def compile(self, path):
        cmd = [ARGS.cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror",
               "-I", os.path.join(self.tmp, "include"), "-I", os.path.join(self.tmp, "src"),
               "-DGRESLINT_VERSION=\"test\"", os.path.join(self.tmp, path)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_starts_a_rule_that_compiles_and_is_registered(self):
        self.new_rule("GRS199")
        self.compile("src/rules/grs199_gres_on_future_node.cpp")
        self.compile("src/rules/registry.cpp")

        header = re.findall(r"^extern const RuleInfo (GRS\d{3});", self.read("src/rules/rules.hpp"), re.M)
        self.assertIn("GRS199", header)
        self.assertEqual(header, sorted(header))
        self.assertIn("Outcome check_grs199(const NodeNameLineView&, Findings&);", self.read("src/rules/rules.hpp"))

        registry = self.read("src/rules/registry.cpp")
        rows = re.findall(r'^\s*\{"(GRS\d{3})", &GRS\d{3}\},', registry, re.M)
        self.assertEqual(rows, sorted(rows))
        self.assertIn("GRS199", rows)
        stage = re.search(r"constexpr Check<NodeNameLineView> kNodeNameLine\[\] = \{(.*?)\n\};", registry, re.S)
        self.assertIn('{&GRS199, check_grs199, "node_conf.c:expand_nodeline_info"},', stage.group(1))

        coverage = subprocess.run([sys.executable, os.path.join(ARGS.source_dir, "tests", "fixtures",
                                                                "check_rule_coverage.py"), "--source-dir", self.tmp],
                                  capture_output=True, text=True)
        self.assertEqual(coverage.returncode, 0, coverage.stdout + coverage.stderr)

    def test_a_limits_rule_is_declared_beside_the_other_limits_rules(self):
        self.new_rule("GRS429", stage="limits")
        self.compile("src/rules/grs429_gres_on_future_node.cpp")
        self.compile("src/rules/registry.cpp")
        self.assertIn("Outcome check_grs429(const LimitsView&, Findings&);", self.read("src/rules/limits_rules.hpp"))
        self.assertNotIn("GRS429", self.read("src/rules/rules.hpp"))
        self.compile("src/rules/registry_policy.cpp")
        stage = re.search(r"constexpr Check<LimitsView> kLimits\[\] = \{(.*?)\n\};",
                          self.read("src/rules/registry_policy.cpp"), re.S)
        self.assertIn('{&GRS429, check_grs429, "node_conf.c:expand_nodeline_info"},', stage.group(1))

    def test_a_node_registration_rule_is_declared_beside_its_view(self):
        self.new_rule("GRS169", stage="registration-node")
        self.compile("src/rules/grs169_gres_on_future_node.cpp")
        self.compile("src/rules/registry.cpp")
        header = self.read("src/rules/node_registration_rules.hpp")
        self.assertIn("Outcome check_grs169(const NodeRegistrationView&, Findings&);", header)
        self.assertEqual(re.findall(r"^extern const RuleInfo (GRS\d{3});", header, re.M), ["GRS162", "GRS169", "GRS317"])
        self.assertNotIn("GRS169", self.read("src/rules/rules.hpp"))

    def test_every_stage_names_a_list_of_its_view(self):
        # STAGES must follow registry.cpp: each name a stage list there, over the view given.
        sys.path.insert(0, os.path.join(self.tmp, "scripts"))
        try:
            import new_rule
        finally:
            sys.path.pop(0)
        registry = self.read("src/rules/registry.cpp") + self.read("src/rules/registry_policy.cpp")
        lists = dict((name, view) for view, name in
                     re.findall(r"^constexpr Check<(\w+)> (k\w+)\[\] = \{", registry, re.M))
        for stage, (name, view) in new_rule.STAGES.items():
            self.assertEqual(lists.get(name), view, stage)
        self.assertEqual(set(lists) - {n for n, _ in new_rule.STAGES.values()}, set(),
                         "stage lists new_rule.py cannot write into")

    def test_an_id_between_existing_ones_lands_in_order(self):
        self.new_rule("GRS109")
        header = re.findall(r"^extern const RuleInfo (GRS\d{3});", self.read("src/rules/rules.hpp"), re.M)
        self.assertEqual(header, sorted(header))
        self.assertEqual(header[header.index("GRS109") - 1], "GRS108")
        self.compile("src/rules/registry.cpp")

    def test_refuses_an_id_twice(self):
        self.new_rule("GRS199")
        again = self.new_rule("GRS199", check=False)
        self.assertNotEqual(again.returncode, 0)
        taken = subprocess.run([sys.executable, os.path.join(self.tmp, "scripts", "new_rule.py"), "GRS107", "x",
                                "partition", "--follows", "a.c:b", "--summary", "s", "--root", self.tmp],
                               capture_output=True, text=True)
        self.assertNotEqual(taken.returncode, 0)
        self.assertIn("GRS107", taken.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--cxx", default="c++")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
