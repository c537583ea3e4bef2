#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""greslint diff, lint --baseline/--write-baseline and the fingerprints they match on:
every format asserts the real numbers (nodes, verdicts, GPUs per partition, fingerprints).

The base configuration is examples/production: 64 CPU nodes, a100-[01-08] with 4 A100
each and l40s-[01-04] with 8 L40S each, in partitions cpu and gpu.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
GRESLINT = os.environ.get("GRESLINT", "greslint")
PRODUCTION = os.path.join(ROOT, "examples", "production")
BROKEN = os.path.join(ROOT, "examples", "broken")
GEN_CLUSTER = os.path.join(ROOT, "bench", "gen_cluster.py")
DIFF_SCHEMA = os.path.join(ROOT, "docs", "greslint-diff.schema.json")
DRAIN_REASON = "gres/gpu count reported lower than configured (2 < 4)"

# a100-[05-08] lose the second device line: they report 2 of their 4 GPUs and drain.
A100_LINES = ("NodeName=a100-[01-08] Name=gpu Type=a100 File=/dev/nvidia[0-1] Cores=0-31\n"
              "NodeName=a100-[01-08] Name=gpu Type=a100 File=/dev/nvidia[2-3] Cores=32-63\n")
A100_HALF = ("NodeName=a100-[01-08] Name=gpu Type=a100 File=/dev/nvidia[0-1] Cores=0-31\n"
             "NodeName=a100-[01-04] Name=gpu Type=a100 File=/dev/nvidia[2-3] Cores=32-63\n")


def run(*args, cwd=None, env=None):
    return subprocess.run([GRESLINT, *args], capture_output=True, text=True, cwd=cwd, env=env)


def validator():
    try:
        import jsonschema
    except ImportError:  # Debian: python3-jsonschema; the suite needs it
        raise
    with open(DIFF_SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.validator = validator()

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="greslint-review-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def tree(self, name, source=PRODUCTION, edit=None):
        """A copy of `source` as tmp/name, with edit(file name, text) -> text applied."""
        dest = os.path.join(self.tmp, name)
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns("expected.txt"))
        if edit:
            for f in os.listdir(dest):
                path = os.path.join(dest, f)
                with open(path) as fh:
                    text = fh.read()
                new = edit(f, text)
                if new != text:
                    with open(path, "w") as fh:
                        fh.write(new)
        return dest

    def diff_json(self, *args, rc=None):
        p = run("diff", *args, "--slurm-version", "24.11", "--format", "json", cwd=self.tmp)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        if rc is not None:
            self.assertEqual(p.returncode, rc, p.stdout)
        report = json.loads(p.stdout)
        self.validator.validate(report)
        self.assertEqual(report["fails"], p.returncode == 1)
        return report

    def lint_fingerprints(self, path, *args):
        p = run("lint", path, "--slurm-version", "24.11", "--format", "json", *args, cwd=self.tmp)
        return {d["fingerprint"]: d for d in json.loads(p.stdout)["diagnostics"]}


def gpus(report):
    return {(g["partition"], g["type"]): (g["before"], g["after"]) for g in report["gpus"]}


class Diff(Base):
    def drained(self, name="drained"):
        return self.tree(name, edit=lambda f, t: t.replace(A100_LINES, A100_HALF) if f == "gres.conf" else t)

    def test_drain_is_reported_folded_with_gpus_and_the_new_finding(self):
        old, new = self.tree("old"), self.drained()
        report = self.diff_json("old", "drained", rc=1)
        self.assertEqual(report["before"]["nodes"], 76)
        self.assertEqual(report["before"]["verdicts"]["ok"], 76)
        self.assertEqual(report["after"]["verdicts"]["ok"], 72)
        self.assertEqual(report["after"]["verdicts"]["drain"], 4)
        self.assertEqual(report["regressed_nodes"], 4)
        [change] = report["verdict_changes"]
        self.assertEqual(change["nodes"], "a100-[05-08]")
        self.assertEqual(change["count"], 4)
        self.assertEqual(change["before"], {"verdict": "ok", "reason": None})
        self.assertEqual(change["after"], {"verdict": "drain", "reason": DRAIN_REASON})
        self.assertTrue(change["regression"])
        self.assertEqual(gpus(report), {
            ("gpu", "a100"): (32, 16), ("gpu", "l40s"): (32, 32),
            (None, "a100"): (32, 16), (None, "l40s"): (32, 32)})
        [finding] = report["findings"]["introduced"]
        self.assertEqual(finding["rule"], "GRS301")
        self.assertEqual(finding["nodes"], "a100-[05-08]")
        self.assertEqual(finding["slurm_message"], DRAIN_REASON)
        self.assertEqual(report["findings"]["fixed"], [])
        # The fingerprint is the one lint prints for the same finding.
        self.assertEqual(list(self.lint_fingerprints(new)), [finding["fingerprint"]])

    def test_text_format(self):
        self.tree("old"), self.drained()
        p = run("diff", "old", "drained", "--slurm-version", "24.11", cwd=self.tmp)
        self.assertEqual(p.returncode, 1)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[0], "old (Slurm 24.11) -> drained (Slurm 24.11)")
        self.assertEqual(lines[1], "nodes: 76 -> 76 (76 ok -> 72 ok, 4 drain)")
        self.assertIn(f'  a100-[05-08]: ok -> drain "{DRAIN_REASON}"', lines)
        self.assertIn("  gpu          a100        32        16       -16", lines)
        self.assertIn("  (all nodes)  l40s        32        32         0", lines)
        fp = list(self.lint_fingerprints(os.path.join(self.tmp, "drained")))[0]
        [added] = [l for l in lines if l.startswith("  + ")]
        self.assertTrue(added.startswith("  + error GRS301 drained/gres.conf:2:47 "), added)
        self.assertTrue(added.endswith(f"[a100-[05-08]] ({fp})"), added)
        self.assertEqual(lines[-1], "4 nodes stop serving; 1 finding introduced, 0 fixed")

    def test_markdown_format(self):
        self.tree("old"), self.drained()
        p = run("diff", "old", "drained", "--slurm-version", "24.11", "--format", "markdown", cwd=self.tmp)
        self.assertEqual(p.returncode, 1)
        md = p.stdout
        self.assertTrue(md.startswith("## greslint: old (Slurm 24.11) → drained (Slurm 24.11)\n"), md)
        self.assertIn("**4 nodes stop serving; 1 finding introduced, 0 fixed**. Nodes: 76 → 76 (76 ok → 72 ok, 4 drain).", md)
        self.assertIn(f"| :x: `a100-[05-08]` | 4 | ok | **drain** | \"{DRAIN_REASON.replace('<', chr(92) + '<')}\" |  |", md)
        self.assertIn("| gpu | a100 | 32 | 16 | **-16** |", md)
        self.assertIn("| gpu | l40s | 32 | 32 | 0 |", md)
        fp = list(self.lint_fingerprints(os.path.join(self.tmp, "drained")))[0]
        self.assertRegex(md, r"\| :x: \| GRS301 \| `drained/gres.conf:2:47` \| .* \| `a100-\[05-08\]` \| `%s` \|" % fp)
        self.assertNotIn("Findings fixed", md)

    def test_nodesets_feature_sets_and_bracket_lists_count_in_partitions(self):
        def edit(f, t):
            if f != "slurm.conf":
                return t
            t = t.replace("Gres=gpu:l40s:8", "Gres=gpu:l40s:8 Features=fast")
            return t.replace("PartitionName=gpu Nodes=a100-[01-08],l40s-[01-04] State=UP",
                             "NodeSet=a100s Nodes=a100-[01-08]\nNodeSet=fast Feature=fast\n"
                             "PartitionName=gpu Nodes=a100s,fast State=UP\n"
                             "PartitionName=odd Nodes=a100-[01,03,05,07] State=UP")
        self.tree("old", edit=edit)
        self.tree("drained", source=os.path.join(self.tmp, "old"),
                  edit=lambda f, t: t.replace(A100_LINES, A100_HALF) if f == "gres.conf" else t)
        report = self.diff_json("old", "drained", rc=1)
        self.assertEqual(gpus(report), {
            ("gpu", "a100"): (32, 16), ("gpu", "l40s"): (32, 32),
            ("odd", "a100"): (16, 8),
            (None, "a100"): (32, 16), (None, "l40s"): (32, 32)})

    def test_markdown_stays_under_the_pull_request_comment_limit(self):
        # 600 nodes, each drained with its own reason: 600 verdict rows and 600 findings,
        # some 150 KB of tables if nothing were cut.
        def cluster(name, counts):
            d = os.path.join(self.tmp, name)
            os.makedirs(d)
            nodes = "".join(f"NodeName=n{i:04d} CPUs=8 Gres=gpu:{c}\n" for i, c in enumerate(counts))
            with open(os.path.join(d, "slurm.conf"), "w") as f:
                f.write("ClusterName=big\nSlurmctldHost=head\nGresTypes=gpu\nSelectType=select/cons_tres\n"
                        f"{nodes}PartitionName=all Nodes=ALL Default=YES\n")
            with open(os.path.join(d, "gres.conf"), "w") as f:
                f.write("Name=gpu File=/dev/nvidia0\n")
        cluster("old", [1] * 600)
        cluster("new", [2 + i for i in range(600)])
        p = run("diff", "old", "new", "--slurm-version", "24.11", "--format", "markdown", cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stderr)
        md = p.stdout
        self.assertLess(len(md), 65536)
        self.assertIn("**600 nodes stop serving", md)
        self.assertRegex(md, r"\n\d+ more rows not shown here: `--format json` lists them all\.\n")
        shown = md.count("| :x: `n0")
        self.assertGreater(shown, 20)
        self.assertLess(shown, 600)
        # Every table still starts, even when the first ones took most of the budget.
        for heading in ("### Verdict changes", "### Usable GPUs", "### Findings introduced"):
            self.assertIn(heading, md)
        self.assertEqual(len(json.loads(run("diff", "old", "new", "--slurm-version", "24.11", "--format", "json",
                                            cwd=self.tmp).stdout)["verdict_changes"]), 600)

    def test_reverting_fixes_and_exits_0(self):
        self.tree("old"), self.drained()
        report = self.diff_json("drained", "old", rc=0)
        [change] = report["verdict_changes"]
        self.assertEqual((change["before"]["verdict"], change["after"]["verdict"], change["regression"]), ("drain", "ok", False))
        self.assertEqual(gpus(report)[("gpu", "a100")], (16, 32))
        [fixed] = report["findings"]["fixed"]
        self.assertEqual(fixed["fingerprint"], list(self.lint_fingerprints(os.path.join(self.tmp, "drained")))[0])
        self.assertEqual(report["findings"]["introduced"], [])

    def test_moved_and_reindented_lines_keep_every_fingerprint(self):
        self.drained("a")
        self.tree("b", source=os.path.join(self.tmp, "a"), edit=lambda f, t: (
            "# a comment\n\n" + t.replace("NodeName=a100-[01-04] Name=gpu", "NodeName=a100-[01-04]   Name=gpu")
            if f == "gres.conf" else t))
        report = self.diff_json("a", "b", rc=0)
        self.assertEqual(report["verdict_changes"], [])
        self.assertEqual(report["findings"], {"introduced": [], "fixed": [], "reworded": []})
        fa = self.lint_fingerprints(os.path.join(self.tmp, "a"))
        fb = self.lint_fingerprints(os.path.join(self.tmp, "b"))
        self.assertEqual(set(fa), set(fb))
        self.assertEqual([d["line"] for d in fa.values()], [2])
        self.assertEqual([d["line"] for d in fb.values()], [4])

    def test_old_configuration_already_broken_exits_0(self):
        self.tree("b1", source=BROKEN)
        self.tree("b2", source=BROKEN, edit=lambda f, t: "# reviewed\n" + t if f == "slurm.conf" else t)
        report = self.diff_json("b1", "b2", rc=0)
        self.assertEqual(report["after"]["verdicts"]["drain"], 10)
        self.assertEqual(report["regressed_nodes"], 0)
        self.assertEqual(report["findings"]["introduced"], [])

    def test_added_gpu_nodes_count_and_pass(self):
        self.tree("old")

        def grow(f, t):
            if f == "slurm.conf":
                return t.replace("l40s-[01-04]", "l40s-[01-06]")
            if f == "gres.conf":
                return t.replace("NodeName=l40s-[01-04]", "NodeName=l40s-[01-06]")
            return t
        self.tree("grown", edit=grow)
        report = self.diff_json("old", "grown", rc=0)
        [change] = report["verdict_changes"]
        self.assertEqual((change["nodes"], change["before"]["verdict"], change["after"]["verdict"]), ("l40s-[05-06]", "absent", "ok"))
        self.assertEqual(gpus(report)[("gpu", "l40s")], (32, 48))
        self.assertEqual(gpus(report)[(None, "l40s")], (32, 48))
        self.assertEqual(report["after"]["nodes"], 78)

    def test_gres_change_without_verdict_change(self):
        self.tree("old")

        def more(f, t):
            if f == "slurm.conf":
                return t.replace("Gres=gpu:a100:4", "Gres=gpu:a100:8")
            if f == "gres.conf":
                return t.replace("File=/dev/nvidia[0-1] Cores=0-31", "File=/dev/nvidia[0-3] Cores=0-31").replace(
                    "File=/dev/nvidia[2-3] Cores=32-63", "File=/dev/nvidia[4-7] Cores=32-63")
            return t
        self.tree("more", edit=more)
        report = self.diff_json("old", "more", rc=0)
        self.assertEqual(report["verdict_changes"], [])
        self.assertEqual(report["gres_changes"], [
            {"nodes": "a100-[01-08]", "count": 8, "before": "gpu:a100:4", "after": "gpu:a100:8"}])
        self.assertEqual(gpus(report)[("gpu", "a100")], (32, 64))

    def test_fail_level_decides_for_new_warnings(self):
        self.tree("old")
        self.tree("typo", edit=lambda f, t: t + "NodeName=a100-9 Name=gpu Type=a100 File=/dev/nvidia0\n" if f == "gres.conf" else t)
        report = self.diff_json("old", "typo", rc=1)
        [finding] = report["findings"]["introduced"]
        self.assertEqual((finding["rule"], finding["severity"]), ("GRS310", "warning"))
        self.assertEqual(report["verdict_changes"], [])
        p = run("diff", "old", "typo", "--slurm-version", "24.11", "--fail-level", "error", cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stdout)

    def test_usage_errors_exit_2(self):
        self.tree("old")
        for args in (["diff", "old"], ["diff", "old", "old", "old"], ["diff", "old", "missing"],
                     ["diff", "old", "old", "--format", "sarif"], ["diff", "--git", "HEAD", "a", "b"]):
            p = run(*args, "--slurm-version", "24.11", cwd=self.tmp)
            self.assertEqual(p.returncode, 2, (args, p.stdout, p.stderr))
            self.assertTrue(p.stderr.startswith("greslint:"), p.stderr)


class Git(Base):
    def git(self, *args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=self.repo,
                       check=True, capture_output=True)

    def setUp(self):
        super().setUp()
        self.repo = os.path.join(self.tmp, "repo")
        os.makedirs(self.repo)
        self.git("init", "-q", "-b", "main")
        with open(os.path.join(self.repo, "README"), "w") as f:
            f.write("config\n")
        self.git("add", ".")
        self.git("commit", "-qm", "before the cluster")

    def test_revision_before_the_configuration_is_an_empty_cluster(self):
        shutil.copytree(PRODUCTION, os.path.join(self.repo, "cluster"), ignore=shutil.ignore_patterns("expected.txt"))
        p = run("diff", "--git", "HEAD", "cluster", "--slurm-version", "24.11", "--format", "json", cwd=self.repo)
        self.assertEqual(p.returncode, 0, p.stderr)
        report = json.loads(p.stdout)
        self.validator.validate(report)
        self.assertFalse(report["before"]["exists"])
        self.assertEqual(report["after"]["nodes"], 76)
        [change] = report["verdict_changes"]
        self.assertEqual((change["count"], change["before"]["verdict"], change["after"]["verdict"]), (76, "absent", "ok"))

    def test_uncommitted_edit_against_head_and_an_include_in_another_folder(self):
        cluster = os.path.join(self.repo, "etc", "slurm")
        shutil.copytree(PRODUCTION, cluster, ignore=shutil.ignore_patterns("expected.txt"))
        # gres.conf moves to a shared folder, reached by an absolute-free relative Include.
        os.makedirs(os.path.join(self.repo, "shared"))
        shutil.move(os.path.join(cluster, "gres.conf"), os.path.join(self.repo, "shared", "gres-nodes.conf"))
        with open(os.path.join(cluster, "gres.conf"), "w") as f:
            f.write("Include ../../shared/gres-nodes.conf\n")
        self.git("add", ".")
        self.git("commit", "-qm", "cluster")
        shared = os.path.join(self.repo, "shared", "gres-nodes.conf")
        with open(shared) as f:
            text = f.read()
        with open(shared, "w") as f:
            f.write(text.replace(A100_LINES, A100_HALF))
        # A TMPDIR of its own: other tests running greslint diff at the same time (ctest -j)
        # make their own greslint-diff-* directories in the shared one.
        tmpdir = tempfile.mkdtemp(prefix="greslint-review-tmp-")
        self.addCleanup(shutil.rmtree, tmpdir, True)
        p = run("diff", "--git", "HEAD", "etc/slurm/slurm.conf", "--slurm-version", "24.11", "--format", "json",
                cwd=self.repo, env=dict(os.environ, TMPDIR=tmpdir))
        self.assertEqual(p.returncode, 1, p.stderr)
        report = json.loads(p.stdout)
        self.validator.validate(report)
        self.assertEqual((report["before"]["label"], report["after"]["label"]), ("HEAD", "work tree"))
        [change] = report["verdict_changes"]
        self.assertEqual((change["nodes"], change["after"]["reason"]), ("a100-[05-08]", DRAIN_REASON))
        [finding] = report["findings"]["introduced"]
        self.assertEqual(finding["location"], "shared/gres-nodes.conf:2:47")
        # git's tree went to a private temporary directory under TMPDIR, and it is gone.
        self.assertEqual(os.listdir(tmpdir), [])

    def test_unknown_revision_and_no_repository_exit_2(self):
        shutil.copytree(PRODUCTION, os.path.join(self.repo, "cluster"))
        p = run("diff", "--git", "no-such-branch", "cluster", "--slurm-version", "24.11", cwd=self.repo)
        self.assertEqual(p.returncode, 2)
        self.assertIn("no-such-branch names no commit", p.stderr)
        outside = self.tree("outside")
        p = run("diff", "--git", "HEAD", outside, "--slurm-version", "24.11", cwd=self.tmp)
        self.assertEqual(p.returncode, 2)
        self.assertIn("is not in a git work tree", p.stderr)


class Baseline(Base):
    def test_baseline_hides_known_findings_and_gates_on_new_ones(self):
        broken = self.tree("broken", source=BROKEN)
        baseline = os.path.join(self.tmp, "greslint.baseline")
        p = run("lint", broken, "--slurm-version", "24.11", "--write-baseline", baseline, "--format", "json")
        self.assertEqual(p.returncode, 1)
        known = {d["fingerprint"] for d in json.loads(p.stdout)["diagnostics"]}
        self.assertEqual(len(known), 10)
        with open(baseline) as f:
            entries = [l for l in f.read().splitlines() if l and not l.startswith("#")]
        self.assertEqual({l.split()[0] for l in entries}, known)
        self.assertIn("GRS301  gres.conf:1  gpu[01-04]  gpu[01-04] report 4 gpu but slurm.conf configures 8",
                      "\n".join(entries))

        p = run("lint", broken, "--slurm-version", "24.11", "--baseline", baseline)
        self.assertEqual((p.returncode, p.stdout.splitlines()[-1]), (0, "no findings (Slurm 24.11 profile from --slurm-version)"))

        # Lines move and a new mistake appears: only the new one is reported.
        with open(os.path.join(broken, "gres.conf")) as f:
            text = f.read()
        with open(os.path.join(broken, "gres.conf"), "w") as f:
            f.write("# moved\n# down\n" + text + "NodeName=gpux Name=gpu File=/dev/nvidia0\n")
        p = run("lint", broken, "--slurm-version", "24.11", "--baseline", baseline, "--format", "json")
        self.assertEqual(p.returncode, 1)
        [new] = json.loads(p.stdout)["diagnostics"]
        self.assertEqual((new["rule"], new["line"]), ("GRS310", 9))
        self.assertNotIn(new["fingerprint"], known)

    def test_sarif_and_gitlab_carry_the_same_fingerprints(self):
        broken = self.tree("broken", source=BROKEN)
        fps = [d for d in self.lint_fingerprints(broken)]
        sarif = json.loads(run("lint", broken, "--slurm-version", "24.11", "--format", "sarif").stdout)
        self.assertEqual([r["partialFingerprints"]["greslintFingerprint/v2"] for r in sarif["runs"][0]["results"]], fps)
        gitlab = json.loads(run("lint", broken, "--slurm-version", "24.11", "--format", "gitlab").stdout)
        self.assertEqual([i["fingerprint"] for i in gitlab], fps)

    def test_unreadable_or_malformed_baseline_exits_2(self):
        broken = self.tree("broken", source=BROKEN)
        p = run("lint", broken, "--slurm-version", "24.11", "--baseline", os.path.join(self.tmp, "missing"))
        self.assertEqual(p.returncode, 2)
        bad = os.path.join(self.tmp, "bad.baseline")
        with open(bad, "w") as f:
            f.write("# header\nnot-a-fingerprint GRS301\n")
        p = run("lint", broken, "--slurm-version", "24.11", "--baseline", bad)
        self.assertEqual(p.returncode, 2)
        self.assertIn(f"{bad}:2:1: error:", p.stderr)


class Generated(Base):
    """100,000 nodes from bench/gen_cluster.py: 200 nodes break on a few rack lines."""

    def gen(self, name, *inject):
        out = os.path.join(self.tmp, name)
        args = [sys.executable, GEN_CLUSTER, "--nodes", "100000", "--out", out]
        for i in inject:
            args += ["--inject", i]
        subprocess.run(args, check=True, capture_output=True)
        return out

    def test_diff_at_100000_nodes(self):
        self.gen("clean")
        self.gen("broken", "count-mismatch=200")
        report = self.diff_json("clean", "broken", rc=1)
        self.assertEqual((report["before"]["nodes"], report["after"]["nodes"]), (100000, 100000))
        self.assertEqual(report["regressed_nodes"], 200)
        self.assertEqual(report["after"]["verdicts"]["drain"], 200)
        self.assertEqual({c["after"]["reason"] for c in report["verdict_changes"]},
                         {"gres/gpu count reported lower than configured (7 < 8)"})
        self.assertEqual(sum(c["count"] for c in report["verdict_changes"]), 200)
        lost = sum(b - a for (part, _), (b, a) in gpus(report).items() if part is None)
        self.assertEqual(lost, 200 * 8)
        self.assertEqual(len(report["findings"]["introduced"]), len(report["verdict_changes"][0]["nodes"].split("],")))

    def test_upgrade_at_100000_nodes_names_the_release(self):
        self.gen("cores", "cores-out-of-range=200")
        p = run("upgrade", "cores", "--slurm-version", "22.05", "--to", "26.05", "--format", "json", cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stderr)
        report = json.loads(p.stdout)
        self.validator.validate(report)
        changed = [s["to"] for s in report["steps"] if s["verdict_changes"]]
        self.assertEqual(changed, ["24.11"])
        self.assertEqual(report["total"]["regressed_nodes"], 200)
        self.assertEqual(report["total"]["before"]["verdicts"]["degraded"], 200)


if __name__ == "__main__":
    unittest.main(verbosity=1)
