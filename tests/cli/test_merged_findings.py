#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The same mistake on several lines is one finding: the first line's, the other lines its
related locations (text notes, JSON related, SARIF relatedLocations). A suppression on one
of those lines takes that line out and leaves the finding for the others."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import HEAD  # noqa: E402

GRESLINT = os.path.abspath(os.environ["GRESLINT"]) if "GRESLINT" in os.environ else "greslint"
SLURM = HEAD + "NodeName=gpu[1-8] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n"
# Eight nodes, eight lines, each its own device files (so each node is a class of its own),
# each with the same core indexes past the node's 32 cores.
LINES = ["NodeName=gpu{0} Name=gpu Type=a100 File=/dev/nvidia[{1}-{2}] Cores=0-63\n".format(n, 4 * n, 4 * n + 3)
         for n in range(1, 9)]


class MergedFindings(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="greslint-merged-")
        self.write("slurm.conf", SLURM)
        self.write("cgroup.conf", "ConstrainCores=yes\nConstrainDevices=yes\n")
        self.write("gres.conf", "".join(LINES))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)

    def lint(self, fmt, *args):
        p = subprocess.run([GRESLINT, "lint", ".", "--slurm-version", "22.05", "--format", fmt, "--color", "never",
                            *args], capture_output=True, text=True, cwd=self.dir)
        return p.stdout

    def findings(self, rule="GRS208"):
        return [d for d in json.loads(self.lint("json"))["diagnostics"] if d["rule"] == rule]

    def test_eight_lines_one_finding_seven_related(self):
        [d] = self.findings()
        self.assertEqual(d["line"], 1)
        self.assertEqual(d["nodes"], "gpu[1-8]")
        same = [r for r in d["related"] if r["file"] == "gres.conf"]
        self.assertEqual([r["line"] for r in same], [2, 3, 4, 5, 6, 7, 8])
        self.assertEqual(same[0]["message"], "the same for gpu2")
        sarif = json.loads(self.lint("sarif"))
        [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "GRS208"]
        lines = sorted(loc["physicalLocation"]["region"]["startLine"] for loc in result["relatedLocations"])
        self.assertEqual(lines, [2, 3, 4, 5, 6, 7, 8])
        text = self.lint("text")
        self.assertEqual(text.count("[GRS208 "), 1)
        # Text folds the seven into one note that lists their lines (JSON and SARIF list each).
        self.assertEqual(text.count("note: the same at 7 more places: gres.conf:2, 3, 4, 5, 6, 7, 8"), 1)
        self.assertEqual(len(self.lint("concise").splitlines()), 1)

    def test_a_suppression_on_one_line_takes_that_line_out(self):
        self.write("gres.conf", "".join(LINES[:2]) + "# greslint: disable=GRS208\n" + "".join(LINES[2:]))
        [d] = self.findings()
        self.assertEqual([r["line"] for r in d["related"] if r["file"] == "gres.conf"], [2, 5, 6, 7, 8, 9])
        self.assertEqual(self.findings("GRS010"), [])
        # On the first line: the next line becomes the finding's place.
        self.write("gres.conf", "# greslint: disable=GRS208\n" + "".join(LINES))
        [d] = self.findings()
        self.assertEqual(d["line"], 3)
        self.assertEqual(self.findings("GRS010"), [])
        # On every line: nothing is left.
        self.write("gres.conf", "".join("# greslint: disable=GRS208\n" + line for line in LINES))
        self.assertEqual(self.findings(), [])
        self.assertEqual(self.findings("GRS010"), [])

    def test_different_mistakes_stay_apart(self):
        self.write("gres.conf", "".join(LINES[:4]) + "".join(line.replace("Cores=0-63", "Cores=0-99") for line in LINES[4:]))
        found = self.findings()
        self.assertEqual([d["line"] for d in found], [1, 5])
        self.assertEqual([d["nodes"] for d in found], ["gpu[1-4]", "gpu[5-8]"])

    def test_more_than_sixteen_lines_are_counted(self):
        slurm = HEAD + "NodeName=gpu[1-30] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n"
        self.write("slurm.conf", slurm)
        self.write("gres.conf", "".join("NodeName=gpu{0} Name=gpu Type=a100 File=/dev/nvidia[{1}-{2}] Cores=0-63\n"
                                        .format(n, 4 * n, 4 * n + 3) for n in range(1, 31)))
        [d] = self.findings()
        self.assertEqual(d["nodes"], "gpu[1-30]")
        same = [r for r in d["related"] if r["file"] == "gres.conf"]
        self.assertEqual(len(same), 16)
        self.assertTrue(same[-1]["message"].endswith("; 13 more lines say the same"), same[-1]["message"])

    def test_merged_classes_count_every_line(self):
        # Seven classes (each its own device files, every node its own line): gpu1 alone, then
        # six of 20 nodes, whose findings name 3 of their other lines and count 16. Merged into
        # one finding, the notes and counts still add up to the 120 other lines, and the note
        # that takes the count of the lines past the 16 named says one count.
        group = lambda n: 0 if n == 1 else (n - 2) // 20 + 1  # noqa: E731
        self.write("slurm.conf", HEAD + "NodeName=gpu[1-121] Sockets=2 CoresPerSocket=16 Gres=gpu:a100:4\n")
        self.write("gres.conf", "".join("NodeName=gpu{0} Name=gpu Type=a100 File=/dev/nvidia[{1}-{2}] Cores=0-63\n"
                                        .format(n, 4 * group(n), 4 * group(n) + 3) for n in range(1, 122)))
        [d] = self.findings()
        self.assertEqual(d["nodes"], "gpu[1-121]")
        same = [r for r in d["related"] if r["file"] == "gres.conf"]
        messages = [r["message"] for r in same]
        counted = sum(int(m.group(1)) for text in messages for m in re.finditer(r"; (\d+) more lines? say the same", text))
        self.assertEqual(len(same), 16)
        self.assertEqual(len(same) + counted, 120, messages)
        self.assertTrue(all(text.count(" more line") <= 1 for text in messages), messages)
        self.assertIn("note: the same at 120 more places: ", self.lint("text"))

if __name__ == "__main__":
    unittest.main()
