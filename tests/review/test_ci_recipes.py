#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The pull-request recipes of docs/ci.md, run as written on a throw-away repository.

The commands come out of the YAML blocks of docs/ci.md (the GitHub step "What this change
does to nodes and GPUs", the GitLab job greslint-diff); only the lines that install and
build greslint are left out, since the greslint under test is on PATH. The repository has
an upstream ("origin") and a real history of three merge requests against main, whose base
configuration is examples/production (a100-[01-08] with 4 GPUs, l40s-[01-04] with 8) plus a
gres.conf line for a node slurm.conf does not define (GRS310, a warning):

  1. "drain": a100-[05-08] keep one of their two device lines -> they drain; the job fails;
  2. "more-gpus": l40s-[05-08] join with 8 GPUs each -> the job passes; merged;
  3. "fix": the stray gres.conf line goes -> one finding fixed; the job passes.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GRESLINT = os.environ.get("GRESLINT", "greslint")
CI_MD = os.path.join(ROOT, "docs", "ci.md")
STRAY = "NodeName=a100-09 Name=gpu Type=a100 File=/dev/nvidia0\n"
A100_LINES = ("NodeName=a100-[01-08] Name=gpu Type=a100 File=/dev/nvidia[0-1] Cores=0-31\n"
              "NodeName=a100-[01-08] Name=gpu Type=a100 File=/dev/nvidia[2-3] Cores=32-63\n")
A100_HALF = ("NodeName=a100-[01-08] Name=gpu Type=a100 File=/dev/nvidia[0-1] Cores=0-31\n"
             "NodeName=a100-[01-04] Name=gpu Type=a100 File=/dev/nvidia[2-3] Cores=32-63\n")
BUILD_LINES = re.compile(r"^(apt-get|git clone|cmake) ")


def yaml_blocks():
    with open(CI_MD) as f:
        return [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", f.read(), re.S)]


def github_script():
    for doc in yaml_blocks():
        for job in (doc.get("jobs") or {}).values():
            for step in job.get("steps", []):
                if step.get("name") == "What this change does to nodes and GPUs":
                    return step["run"]
    raise AssertionError("docs/ci.md has no GitHub step 'What this change does to nodes and GPUs'")


def gitlab_script():
    for doc in yaml_blocks():
        if "greslint-diff" in doc and "script" in doc["greslint-diff"]:
            lines = [l for l in doc["greslint-diff"]["script"] if not BUILD_LINES.match(l)]
            assert len(lines) == len(doc["greslint-diff"]["script"]) - 4, "the install/build lines changed"
            return "\n".join(lines) + "\n"
    raise AssertionError("docs/ci.md has no GitLab job greslint-diff")


class Recipes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="greslint-ci-")
        self.env = dict(os.environ, HOME=self.tmp, GIT_CONFIG_NOSYSTEM="1",
                        GIT_AUTHOR_NAME="Admin", GIT_AUTHOR_EMAIL="admin@example.org",
                        GIT_COMMITTER_NAME="Admin", GIT_COMMITTER_EMAIL="admin@example.org",
                        PATH=os.path.dirname(os.path.abspath(GRESLINT)) + os.pathsep + os.environ["PATH"])
        self.upstream = os.path.join(self.tmp, "upstream.git")
        self.git(self.tmp, "init", "-q", "--bare", "-b", "main", self.upstream)
        seed = os.path.join(self.tmp, "seed")
        self.git(self.tmp, "clone", "-q", self.upstream, seed)
        shutil.copytree(os.path.join(ROOT, "examples", "production"), os.path.join(seed, "cluster"),
                        ignore=shutil.ignore_patterns("expected.txt"))
        self.edit(seed, "gres.conf", lambda t: t + STRAY)
        self.git(seed, "add", ".")
        self.git(seed, "commit", "-qm", "Cluster configuration")
        self.git(seed, "push", "-q", "origin", "main")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def git(self, cwd, *args):
        return subprocess.run(["git", *args], cwd=cwd, env=self.env, check=True, capture_output=True, text=True).stdout

    def edit(self, clone, name, fn):
        path = os.path.join(clone, "cluster", name)
        with open(path) as f:
            text = f.read()
        new = fn(text)
        self.assertNotEqual(new, text, name)
        with open(path, "w") as f:
            f.write(new)

    def merge_request(self, branch, edits, message):
        """A fresh clone of upstream with `branch` holding one commit: what CI checks out."""
        clone = os.path.join(self.tmp, branch)
        self.git(self.tmp, "clone", "-q", "--depth", "1", "file://" + self.upstream, clone)
        self.git(clone, "checkout", "-q", "-b", branch)
        for name, fn in edits:
            self.edit(clone, name, fn)
        self.git(clone, "commit", "-qam", message)
        return clone

    def run_recipes(self, clone):
        """Both recipes on the clone; returns (exit code, markdown, json report)."""
        summary = os.path.join(self.tmp, "summary.md")
        open(summary, "w").close()
        gh = subprocess.run(["bash", "-e", "-c", github_script().replace("${{ github.base_ref }}", "main")], cwd=clone,
                            env=dict(self.env, GITHUB_STEP_SUMMARY=summary, GITHUB_WORKSPACE=clone),
                            capture_output=True, text=True)
        with open(summary) as f:
            gh_markdown = f.read()
        os.remove(os.path.join(clone, "greslint-diff.md"))
        gl = subprocess.run(["bash", "-eo", "pipefail", "-c", gitlab_script()], cwd=clone,
                            env=dict(self.env, CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main"),
                            capture_output=True, text=True)
        with open(os.path.join(clone, "greslint-diff.md")) as f:
            gl_markdown = f.read()
        with open(os.path.join(clone, "greslint-diff.json")) as f:
            report = json.load(f)
        self.assertEqual(gh.returncode, gl.returncode, gh.stderr + gl.stderr)
        self.assertIn(gh.returncode, (0, 1), gh.stderr)
        self.assertEqual(gh_markdown, gl_markdown)
        self.assertFalse(report["fails"])  # --fail-level never: the JSON artifact never fails
        return gh.returncode, gh_markdown, report

    def lint_fingerprints(self, directory):
        p = subprocess.run([GRESLINT, "lint", directory, "--slurm-version", "23.11", "--format", "json"],
                           capture_output=True, text=True, env=self.env)
        return {d["rule"] + ":" + (d["nodes"] or ""): d["fingerprint"] for d in json.loads(p.stdout)["diagnostics"]}

    def test_three_merge_requests(self):
        stray = self.lint_fingerprints(os.path.join(self.tmp, "seed", "cluster"))["GRS310:"]

        # 1. A change that drains nodes fails, and says which and why.
        clone = self.merge_request("drain", [("gres.conf", lambda t: t.replace(A100_LINES, A100_HALF))],
                                   "gres.conf: a100-[05-08] keep two GPUs")
        rc, md, report = self.run_recipes(clone)
        self.assertEqual(rc, 1, md)
        drained = self.lint_fingerprints(os.path.join(clone, "cluster"))["GRS301:a100-[05-08]"]
        self.assertIn("**4 nodes stop serving; 1 finding introduced, 0 fixed**. Nodes: 76 → 76 (76 ok → 72 ok, 4 drain).", md)
        self.assertIn('| :x: `a100-[05-08]` | 4 | ok | **drain** | "gres/gpu count reported lower than configured (2 \\< 4)" |  |', md)
        self.assertIn("| gpu | a100 | 32 | 16 | **-16** |", md)
        self.assertIn("| (all nodes) | l40s | 32 | 32 | 0 |", md)
        self.assertIn("| :x: | GRS301 | `cluster/gres.conf:2:47` | ", md)
        self.assertIn(f"`{drained}`", md)
        self.assertEqual([f["fingerprint"] for f in report["findings"]["introduced"]], [drained])
        self.assertEqual(report["regressed_nodes"], 4)

        # 2. A change that only adds GPUs passes; it is merged.
        clone = self.merge_request("more-gpus", [
            ("slurm.conf", lambda t: t.replace("l40s-[01-04]", "l40s-[01-08]")),
            ("gres.conf", lambda t: t.replace("NodeName=l40s-[01-04]", "NodeName=l40s-[01-08]"))],
            "Four more L40S nodes")
        rc, md, report = self.run_recipes(clone)
        self.assertEqual(rc, 0, md)
        self.assertIn("**no node stops serving; 0 findings introduced, 0 fixed**. Nodes: 76 → 80 (76 ok → 80 ok).", md)
        self.assertIn("| `l40s-[05-08]` | 4 | absent | ok |  |  |", md)
        self.assertIn("| gpu | l40s | 32 | 64 | **+32** |", md)
        self.assertIn("| gpu | a100 | 32 | 32 | 0 |", md)
        self.assertEqual([(g["partition"], g["type"], g["before"], g["after"]) for g in report["gpus"]], [
            ("gpu", "a100", 32, 32), ("gpu", "l40s", 32, 64), (None, "a100", 32, 32), (None, "l40s", 32, 64)])
        self.git(clone, "push", "-q", "origin", "more-gpus:main")

        # 3. A change that fixes a finding passes, and names the fixed finding.
        clone = self.merge_request("fix", [("gres.conf", lambda t: t.replace(STRAY, ""))], "gres.conf: no a100-09")
        rc, md, report = self.run_recipes(clone)
        self.assertEqual(rc, 0, md)
        self.assertIn("**no node stops serving; 0 findings introduced, 1 fixed**. Nodes: 80 → 80 (80 ok → 80 ok).", md)
        self.assertIn("### Findings fixed (1)", md)
        self.assertIn(f"| :warning: | GRS310 | `cluster/gres.conf:6:10` |", md)
        self.assertIn(f"`{stray}`", md)
        self.assertEqual([f["fingerprint"] for f in report["findings"]["fixed"]], [stray])
        self.assertEqual(report["verdict_changes"], [])


if __name__ == "__main__":
    unittest.main(verbosity=1)
