#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which Slurm release greslint models when nothing pins one, and what it says about it.

A fake scontrol on PATH stands in for the installed Slurm where the test needs to count its
runs or change its answer; like the real one it fails unless SLURM_CONF names a readable
slurm.conf. The real scontrol (Debian's 22.05, which CI installs) is asked once, with no
/etc/slurm/slurm.conf in reach. Usage: test_release.py GRESLINT SOURCE_DIR"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

GRESLINT, SRC = sys.argv[1], sys.argv[2]
BROKEN = os.path.join(SRC, "examples", "broken")
TREE = os.path.join(SRC, "tests", "hardware", "trees", "workstation-4gpu")
NODE_CASE = os.path.join(SRC, "tests", "hardware", "cases", "workstation-4gpu", "correct")
FAKE = """#!/bin/sh
echo run >> "{log}"
[ -r "$SLURM_CONF" ] && grep -q '^ClusterName=' "$SLURM_CONF" || {{ echo "scontrol: fatal: Could not establish a configuration source" >&2; exit 1; }}
echo "{answer}"
"""


class Release(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="greslint-release-")
        self.bin = os.path.join(self.tmp, "bin")
        os.mkdir(self.bin)
        self.log = os.path.join(self.tmp, "scontrol.log")
        self.cache = os.path.join(self.tmp, "cache")
        self.cluster = os.path.join(self.tmp, "cluster")
        shutil.copytree(BROKEN, self.cluster)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def fake_scontrol(self, answer):
        path = os.path.join(self.bin, "scontrol")
        with open(path + ".new", "w") as f:
            f.write(FAKE.format(log=self.log, answer=answer))
        os.chmod(path + ".new", 0o755)
        os.replace(path + ".new", path)  # a new inode, as an upgrade gives

    def runs(self):
        try:
            with open(self.log) as f:
                return len(f.readlines())
        except FileNotFoundError:
            return 0

    def greslint(self, *args, path=None, cache=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM")}
        env["PATH"] = path if path is not None else self.bin + ":/usr/bin:/bin"
        env["XDG_CACHE_HOME"] = cache or self.cache
        env["HOME"] = self.tmp
        return subprocess.run([GRESLINT, *args], capture_output=True, text=True, env=env, cwd=self.tmp)

    def report(self, *args, **kw):
        p = self.greslint("lint", self.cluster, "--format", "json", *args, **kw)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        return json.loads(p.stdout), p.stderr

    def test_installed_release_without_a_slurm_conf(self):
        self.fake_scontrol("slurm 23.11.4")
        doc, err = self.report()
        self.assertEqual((doc["slurm_version"], doc["version_source"]), ("23.11", "scontrol --version"))
        self.assertEqual(err, "")

    def test_real_scontrol_without_etc_slurm_conf(self):
        # The issue's case: Debian's 22.05 with no /etc/slurm/slurm.conf printed nothing
        # usable, and the broken example gave 4 errors instead of 3.
        self.assertTrue(os.access("/usr/bin/scontrol", os.X_OK), "scontrol is missing (scripts/install-deps.sh --test)")
        if os.path.exists("/etc/slurm/slurm.conf"):
            env_note = "a slurm.conf in /etc/slurm: scontrol would have worked before the fix too"
        else:
            env_note = ""
        doc, err = self.report(path="/usr/bin:/bin")
        self.assertEqual((doc["slurm_version"], doc["version_source"]), ("22.05", "scontrol --version"), env_note)
        self.assertEqual(doc["summary"]["error"], 3)
        self.assertEqual(err, "")

    def test_answer_is_cached_until_the_binary_changes(self):
        self.fake_scontrol("slurm 23.11.4")
        for _ in range(3):
            self.assertEqual(self.report()[0]["slurm_version"], "23.11")
        self.assertEqual(self.runs(), 1)
        self.fake_scontrol("slurm 24.11.1")  # upgraded in place
        self.assertEqual(self.report()[0]["slurm_version"], "24.11")
        self.assertEqual(self.runs(), 2)
        os.utime(os.path.join(self.bin, "scontrol"), (time.time() + 5, time.time() + 5))
        self.report()
        self.assertEqual(self.runs(), 3)

    def test_unwritable_cache_is_ignored(self):
        self.fake_scontrol("slurm 23.11.4")
        blocker = os.path.join(self.tmp, "not-a-dir")
        open(blocker, "w").close()
        for _ in range(2):
            doc, err = self.report(cache=blocker)
            self.assertEqual(doc["slurm_version"], "23.11")
            self.assertEqual(err, "")
        self.assertEqual(self.runs(), 2)

    def test_concurrent_runs_share_one_cache(self):
        self.fake_scontrol("slurm 24.05.2")
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            docs = list(pool.map(lambda _: self.report()[0], range(16)))
        self.assertEqual({d["slurm_version"] for d in docs}, {"24.05"})
        runs = self.runs()
        self.report()
        self.assertEqual(self.runs(), runs, "the cache was not usable after concurrent writers")
        with open(os.path.join(self.cache, "greslint", "scontrol-version")) as f:
            self.assertEqual(len(f.read().splitlines()), 1)

    def test_no_release_found_says_so(self):
        p = self.greslint("lint", self.cluster, "--format", "json", path=self.bin)  # no scontrol
        doc = json.loads(p.stdout)
        self.assertEqual((doc["slurm_version"], doc["version_source"]), ("26.05", "default"))
        self.assertIn("no scontrol on PATH", p.stderr)
        self.assertIn("assuming 26.05", p.stderr)
        self.assertIn("--slurm-version", p.stderr)
        self.assertIn("SlurmVersion=", p.stderr)

    def test_unmodelled_installed_release_says_so(self):
        self.fake_scontrol("slurm 21.08.8")
        doc, err = self.report()
        self.assertEqual(doc["version_source"], "default")
        self.assertIn("reports 'slurm 21.08.8', a release greslint does not model", err)

    def test_config_file_pin_is_named(self):
        self.fake_scontrol("slurm 22.05.8")
        with open(os.path.join(self.cluster, ".greslint.conf"), "w") as f:
            f.write("SlurmVersion=23.11\n")
        doc, _ = self.report()
        self.assertEqual((doc["slurm_version"], doc["version_source"]), ("23.11", ".greslint.conf"))
        text = self.greslint("lint", self.cluster).stdout
        self.assertIn("(Slurm 23.11 profile from .greslint.conf)", text)
        doc, _ = self.report("--slurm-version", "24.05")
        self.assertEqual((doc["slurm_version"], doc["version_source"]), ("24.05", "--slurm-version"))
        self.assertEqual(self.runs(), 0, "a pinned release needs no scontrol")

    def test_node_check_honours_the_config_file(self):
        case = os.path.join(self.tmp, "node")
        shutil.copytree(NODE_CASE, case)
        with open(os.path.join(case, ".greslint.conf"), "w") as f:
            f.write("SlurmVersion=24.11\n")
        self.fake_scontrol("slurm 22.05.8")
        p = self.greslint("node-check", case, "--sysroot", TREE, "--format", "json")
        self.assertIn(p.returncode, (0, 1), p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual((doc["slurm_version"], doc["version_source"]), ("24.11", ".greslint.conf"))
        lint = self.greslint("lint", case, "--format", "json")
        self.assertEqual(json.loads(lint.stdout)["slurm_version"], "24.11")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
