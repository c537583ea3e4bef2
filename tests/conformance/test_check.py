#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Unit tests of check.py's comparison logic and of slurm_live.py's pure
helpers, run on the recordings (no daemons, no greslint binary needed)."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import check        # noqa: E402
import slurm_live   # noqa: E402

CASES = os.path.join(HERE, "cases")


def recordings(releases=tuple(slurm_live.RELEASES)):
    for release in releases:
        for cd in slurm_live.list_cases(CASES):
            with open(os.path.join(cd, slurm_live.recording_name(release))) as f:
                yield cd, json.load(f)


def perfect_answer(case_dir, recording):
    """The greslint output that agrees with Slurm on every probed node, with
    equivalent spellings where the contract allows them: paths under the case
    folder instead of <confdir>, file lists folded differently, core lists
    written differently."""
    out = []
    for node, rec in recording["nodes"].items():
        exp = check.expected_of(rec)
        if exp["verdict"] == "not-in-config":
            continue
        gres = []
        for g in exp["gres"]:
            files = g["files"]
            if files is not None:
                files = ",".join(slurm_live.expand_hostlist(files))
            cores = check.core_set(g["cores"])
            gres.append({"name": g["name"], "type": g["type"],
                         "count": g["count"], "files": files,
                         "cores": None if cores is None else
                         ",".join(str(c) for c in sorted(cores)),
                         "links": g.get("links"), "flags": ""})
        out.append({"node": node, "verdict": exp["verdict"],
                    "reason": exp["reason"].replace(
                        "<confdir>", os.path.abspath(case_dir)),
                    "gres": gres})
    return out


class Helpers(unittest.TestCase):
    def test_expand_hostlist(self):
        e = slurm_live.expand_hostlist
        self.assertEqual(e("/dev/nvidia[0-3]"),
                         ["/dev/nvidia%d" % i for i in range(4)])
        self.assertEqual(e("n[08-10]"), ["n08", "n09", "n10"])
        self.assertEqual(e("r[1-2]-n[1,3]"), ["r1-n1", "r1-n3", "r2-n1",
                                              "r2-n3"])
        self.assertEqual(e("a,b[1-2]"), ["a", "b1", "b2"])
        for bad in ("n[3-1]", "n[]", "n[1-2]x", "n[a-b]"):
            with self.assertRaises(ValueError):
                e(bad)

    def test_core_set(self):
        cs = check.core_set
        self.assertEqual(cs("0-3"), cs("0,1,2,3"))
        self.assertEqual(cs("[0-3]"), cs("0-3"))       # bit_unfmt ignores []
        self.assertNotEqual(cs("0-3"), cs("0-4"))
        self.assertIsNone(cs(None))
        self.assertEqual(cs("5-2"), frozenset())

    def test_logical_lines(self):
        text = "a=1 \\\n  b=2 # c\\\nd=3\n#x\\\ne=4"
        got = [l for _, _, l in slurm_live.logical_lines(text)]
        self.assertEqual(got[0], "a=1   b=2 ")
        self.assertEqual(got[1], "d=3")
        self.assertEqual(got[3], "e=4")    # a comment does not continue

    def test_log_level(self):
        self.assertEqual(slurm_live.log_level(
            "slurmd-gpu01: error: Invalid GRES data for gpu, Cores=64-95"),
            ("error", "Invalid GRES data for gpu, Cores=64-95"))
        self.assertEqual(slurm_live.log_level(
            "slurmd: WARNING: A line in gres.conf ...")[0], "warning")
        self.assertEqual(slurm_live.log_level(
            "slurmctld: fatal: Unable to process configuration file"),
            ("fatal", "Unable to process configuration file"))

    def test_misread_node_reg_mem_percent(self):
        m = slurm_live.misread_checked
        misread = ("validate_node_specs: Unable to convert "
                   "node_reg_mem_percent=0 value to double")
        other = "Invalid GRES configured on node gpu01: GPU:1"
        # no misread: the errors as they are
        self.assertEqual(m([other], {"Reason": "Low RealMemory"}), [other])
        # a misread that drained nothing: the run is a good one, minus the line
        self.assertEqual(m([misread, other], {"State": "IDLE"}), [other])
        self.assertEqual(m([misread], None), [])
        self.assertEqual(m([misread], {"Reason": "gres/gpu count reported "
                                       "lower than configured (2 < 4)"}), [])
        # a misread that drained the node for memory: run again
        with self.assertRaises(slurm_live.RetryRun):
            m([misread], {"Reason": "Low RealMemory (reported:24105 < "
                          "100.00% of configured:512000)"})

    def test_parse_gres_line(self):
        r = slurm_live.parse_gres_line(
            "Gres Name=gpu Type=a100 Count=2 Index=0 ID=7696487 "
            "File=/dev/nvidia[0-1] Cores=0-31 CoreCnt=64 Links=-1,0")
        self.assertEqual(r, {"name": "gpu", "type": "a100", "count": 2,
                             "files": "/dev/nvidia[0-1]", "cores": "0-31",
                             "links": "-1,0"})
        r = slurm_live.parse_gres_line("Gres Name=nic Type=(null) Count=2 "
                                       "ID=7105390 (null)")
        self.assertEqual((r["type"], r["files"], r["links"]),
                         (None, None, None))


class Compare(unittest.TestCase):
    def test_every_recording_accepts_its_perfect_answer(self):
        n = 0
        for cd, rec in recordings():
            answers = {o["node"]: o for o in perfect_answer(cd, rec)}
            for node, r in rec["nodes"].items():
                with self.subTest(case=os.path.basename(cd), node=node):
                    self.assertEqual(check.compare_node(
                        check.expected_of(r), answers.get(node), cd), [])
                    n += 1
        self.assertGreater(n, 60)

    def expected(self, verdict, reason="", gres=()):
        return {"verdict": verdict, "reason": reason, "gres": list(gres)}

    G = {"name": "gpu", "type": "a100", "count": 4,
         "files": "/dev/nvidia[0-3]", "cores": "0-31", "links": None}

    def answer(self, verdict, reason="", gres=None):
        return {"node": "gpu01", "verdict": verdict, "reason": reason,
                "gres": [dict(self.G)] if gres is None else gres}

    def test_verdict_mismatch(self):
        d = check.compare_node(self.expected("drain", "x", [self.G]),
                               self.answer("ok"), "/c")
        self.assertTrue(d and d[0].startswith("verdict"))

    def test_reason_exact_for_drain_and_fatal(self):
        for v in ("drain", "slurmd-fatal", "slurmctld-fatal"):
            d = check.compare_node(self.expected(v, "a (4 < 8)", [self.G]),
                                   self.answer(v, "a (4 <  8)"), "/c")
            self.assertTrue(d and "reason" in d[0], v)

    def test_reason_ignored_for_degraded(self):
        self.assertEqual(check.compare_node(
            self.expected("degraded", "slurm text", [self.G]),
            self.answer("degraded", "greslint text"), "/c"), [])

    def test_confdir_normalised(self):
        self.assertEqual(check.compare_node(
            self.expected("slurmd-fatal", "error opening/reading "
                          "<confdir>/gres.conf"),
            self.answer("slurmd-fatal",
                        "error opening/reading /x/case/gres.conf", []),
            "/x/case"), [])

    def test_gres_fields(self):
        exp = self.expected("ok", "", [self.G])
        for field, value in (("count", 3), ("type", "A100"),
                             ("files", "/dev/nvidia[0-2]"),
                             ("cores", "0-15"), ("name", "GPU")):
            g = dict(self.G)
            g[field] = value
            self.assertTrue(check.compare_node(exp, self.answer("ok", "", [g]),
                                               "/c"), field)
        g = dict(self.G, files="/dev/nvidia0,/dev/nvidia[1-3]", cores="0-7,8-31",
                 links="-1,0", flags="HAS_FILE")
        self.assertEqual(check.compare_node(exp, self.answer("ok", "", [g]),
                                            "/c"), [])

    def test_gres_record_split_and_order(self):
        a = dict(self.G, count=2, files="/dev/nvidia[0-1]")
        b = dict(self.G, count=2, files="/dev/nvidia[2-3]")
        exp = self.expected("ok", "", [a, b])
        self.assertEqual(check.compare_node(
            exp, self.answer("ok", "", [a, b]), "/c"), [])
        self.assertTrue(check.compare_node(
            exp, self.answer("ok", "", [b, a]), "/c"))
        self.assertTrue(check.compare_node(
            exp, self.answer("ok", "", [self.G]), "/c"))
        # order between different GRES names does not matter
        s = {"name": "shard", "type": "a100", "count": 8,
             "files": "/dev/nvidia0", "cores": None, "links": None}
        exp = self.expected("ok", "", [s, a])
        self.assertEqual(check.compare_node(
            exp, self.answer("ok", "", [a, s]), "/c"), [])

    def test_gres_not_compared_for_fatal(self):
        self.assertEqual(check.compare_node(
            self.expected("slurmctld-fatal", "x", [self.G]),
            self.answer("slurmctld-fatal", "x", []), "/c"), [])

    def test_not_in_config(self):
        exp = self.expected("not-in-config")
        self.assertEqual(check.compare_node(exp, None, "/c"), [])
        self.assertEqual(check.compare_node(
            exp, {"node": "gpu02", "verdict": "not-in-config"}, "/c"), [])
        self.assertTrue(check.compare_node(self.expected("ok"), None, "/c"))

    def test_offline_result_preferred(self):
        rec = {"verdict": "slurmd-fatal", "reason": "can't stat",
               "gres": [], "offline": {"verdict": "ok", "reason": "",
                                       "gres": [self.G]}}
        self.assertEqual(check.expected_of(rec)["verdict"], "ok")

    def test_node_objects_of_array_and_object_forms(self):
        nodes = [{"node": "gpu01", "verdict": "ok"}]
        self.assertEqual(check.node_objects(nodes), {"gpu01": nodes[0]})
        self.assertEqual(check.node_objects(
            {"schema": 1, "cluster": {}, "nodes": nodes}),
            {"gpu01": nodes[0], None: {}})
        with self.assertRaises(RuntimeError):
            check.node_objects({"cluster": {}})

    def test_a_node_greslint_does_not_list_gets_a_cluster_fatal(self):
        fatal = {"verdict": "slurmctld-fatal", "reason": "Invalid node names in partition gpu"}
        answers = check.node_objects({"cluster": fatal, "nodes": [{"node": "gpu1", "verdict": "ok"}]})
        self.assertEqual(check.answer_for(answers, "gpu01"), fatal)
        self.assertEqual(check.answer_for(answers, "gpu1"), {"node": "gpu1", "verdict": "ok"})
        answers = check.node_objects({"cluster": {"verdict": "drain"}, "nodes": []})
        self.assertIsNone(check.answer_for(answers, "gpu01"))

    def test_greslint_follows_the_recorded_build(self):
        self.assertEqual(check.greslint_version(
            {"slurmd_version": "slurm-wlm 24.11.5"}, "24.11"), "slurm-wlm 24.11.5")
        self.assertEqual(check.greslint_version({}, "24.11"), "24.11")

    def test_stale_differences(self):
        a = {"verdict": "ok", "gres": [], "log": {"slurmd_errors": []}}
        self.assertEqual(check.stale_differences(a, json.loads(
            json.dumps(a))), [])
        b = dict(a, log={"slurmd_errors": ["x"]})
        self.assertTrue(check.stale_differences(a, b))


class Reprobe(unittest.TestCase):
    """check_live's second probe of a result that differs from its
    recording, with a scripted probe_releases instead of the daemons."""

    CASE = os.path.join(CASES, "b_conf8_gres4")
    TARGET = {"release": "22.05"}

    def setUp(self):
        self.real = slurm_live.probe_releases
        self.calls = []

    def tearDown(self):
        slurm_live.probe_releases = self.real

    def script(self, second_verdict):
        def probe(cases, targets, jobs=2, node_filter=None, **_):
            self.calls.append((cases, jobs, node_filter))
            rec = check.load_recording(self.CASE)
            node = dict(rec["nodes"]["gpu01"], verdict=second_verdict)
            return {"22.05": {self.CASE: dict(rec, nodes={"gpu01": node})}}
        slurm_live.probe_releases = probe

    def first_result(self, verdict):
        rec = check.load_recording(self.CASE)
        node = dict(rec["nodes"]["gpu01"], verdict=verdict)
        return {"22.05": {self.CASE: dict(rec, nodes={"gpu01": node})}}

    def test_a_result_like_its_recording_is_not_probed_again(self):
        self.script("ok")
        recorded = check.load_recording(self.CASE)["nodes"]["gpu01"]
        fresh = self.first_result(recorded["verdict"])
        self.assertEqual(check.reprobe_alone(fresh, [self.TARGET]), {})
        self.assertEqual(self.calls, [])

    def test_a_flake_is_probed_alone_and_the_second_result_kept(self):
        recorded = check.load_recording(self.CASE)["nodes"]["gpu01"]
        self.script(recorded["verdict"])
        fresh = self.first_result("error")
        first = check.reprobe_alone(fresh, [self.TARGET])
        self.assertEqual(self.calls, [([self.CASE], 1, {"gpu01"})])
        self.assertIn("gpu01", first[("22.05", self.CASE)])
        self.assertEqual(check.fresh_problems(
            self.CASE, "22.05", fresh["22.05"][self.CASE]), {})

    def test_a_stale_recording_still_fails(self):
        self.script("slurmd-fatal")
        fresh = self.first_result("slurmd-fatal")
        check.reprobe_alone(fresh, [self.TARGET])
        problems = check.fresh_problems(self.CASE, "22.05",
                                        fresh["22.05"][self.CASE])
        self.assertTrue(problems["gpu01"].startswith("stale recording"))


class EndToEnd(unittest.TestCase):
    """check.py --recorded against fake greslint binaries."""

    def run_check(self, script, cases):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "greslint")
            with open(fake, "w") as f:
                f.write(script)
            os.chmod(fake, 0o755)
            p = subprocess.run([sys.executable, os.path.join(HERE, "check.py"),
                                "--recorded", "--greslint", fake] + cases,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, p.stdout.decode().splitlines()

    FAKE = textwrap.dedent("""\
        #!%s
        import json, os, sys
        sys.path.insert(0, %r)
        import test_check
        assert sys.argv[1:2] == ["nodes"] and "--format" in sys.argv
        cd = sys.argv[2]
        version = sys.argv[sys.argv.index("--slurm-version") + 1]
        release = ".".join(version.split()[-1].split(".")[:2])
        name = ("recorded.json" if release == "22.05"
                else "recorded-%%s.json" %% release)
        rec = json.load(open(os.path.join(cd, name)))
        out = test_check.perfect_answer(cd, rec)
        MUTATE
        json.dump({"schema": 1, "cluster": {"verdict": "ok", "reason": None},
                   "nodes": out}, sys.stdout)
        """) % (sys.executable, HERE)

    # one case per verdict, multi-node and DEVICES=host ones included (the
    # in-process test above covers every recording)
    SAMPLE = ["a_correct_4gpu", "b_conf8_gres4", "m_gres_conf_typo_key",
              "r_shard_without_cons_tres", "h_untyped_conf_typed_gres",
              "p_node_not_in_slurm_conf", "c19b_gres_nodename_padding",
              "k_missing_device_files", "ok04_shard_cluster"]

    def test_perfect_fake_passes(self):
        rc, lines = self.run_check(self.FAKE.replace("MUTATE", ""),
                                   self.SAMPLE)
        self.assertEqual(rc, 0, "\n".join(l for l in lines if "FAIL" in l))
        n = sum(len(r["nodes"]) for cd, r in recordings()
                if os.path.basename(cd) in self.SAMPLE)
        self.assertEqual(lines[-1], "%d passed, 0 failed" % n)
        self.assertEqual(len(lines), n + 1)

    def test_wrong_fake_fails(self):
        mutate = "for o in out: o['verdict'] = 'ok'"
        rc, lines = self.run_check(self.FAKE.replace("MUTATE", mutate),
                                   ["--release", "22.05", "b_conf8_gres4",
                                    "a_correct_4gpu"])
        self.assertEqual(rc, 1)
        self.assertEqual(lines[-1], "1 passed, 1 failed")
        self.assertTrue(any(l.startswith("FAIL b_conf8_gres4 gpu01: verdict")
                            for l in lines))
        # the failures again just before the count: CI keeps a log's tail
        self.assertEqual(lines[-3], "failures:")
        self.assertTrue(lines[-2].startswith("FAIL b_conf8_gres4 gpu01:"))

    def test_missing_binary_fails(self):
        p = subprocess.run([sys.executable, os.path.join(HERE, "check.py"),
                            "--recorded", "--greslint", "/nonexistent/greslint",
                            "--release", "22.05", "a_correct_4gpu"],
                           stdout=subprocess.PIPE)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout.decode().splitlines()[-1],
                         "0 passed, 1 failed")


if __name__ == "__main__":
    unittest.main()
