#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_why_cli.py - `greslint why` on hand-made controller output: each cause and drift
kind that the real captures (check_captures.py) do not reach.

    test_why_cli.py --greslint build/greslint
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

GRESLINT = None
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "greslint-why.schema.json")


def validate(report):
    """docs/greslint-why.schema.json holds (python3-jsonschema, a test dependency)."""
    import jsonschema
    with open(SCHEMA) as f:
        jsonschema.validate(report, json.load(f))

SLURM_CONF = """\
ClusterName=lab
SlurmctldHost=head01
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
GresTypes=gpu
ProctrackType=proctrack/cgroup
TaskPlugin=task/affinity,task/cgroup
NodeName=gpu[01-04] CPUs=64 Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=500000 Gres=gpu:a100:4
NodeName=gpu05 CPUs=64 Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=500000 Gres=gpu:a100:8
PartitionName=gpu Nodes=gpu[01-05] Default=YES
"""
GRES_CONF = "NodeName=gpu[01-05] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n"
CGROUP_CONF = "ConstrainDevices=yes\n"

CONFIG = """\
Configuration data as of 2026-12-01T12:00:00
BOOT_TIME               = 2026-12-01T11:00:00
GresTypes               = gpu
SelectType              = select/cons_tres
SelectTypeParameters    = CR_CORE_MEMORY
ProctrackType           = proctrack/cgroup
TaskPlugin              = task/affinity,task/cgroup
SlurmUser               = slurm(64030)
SLURM_VERSION           = 24.11.5
"""


def node(name, state, reason=None, gres="gpu:a100:4(S:0-1)", cpus=64, cores=32, started=True):
    text = ("NodeName=%s Arch=x86_64 CoresPerSocket=%d CPUAlloc=0 CPUTot=%d Gres=%s "
            "OS=Linux 6.1.0 #1 SMP  RealMemory=500000 Sockets=2 Boards=1 State=%s ThreadsPerCore=1 "
            "SlurmdStartTime=%s" % (name, cores, cpus, gres, state,
                                    "2026-12-01T11:00:05" if started else "None"))
    if reason:
        text += " Reason=%s" % reason
    return text


class Why(unittest.TestCase):
    def run_why(self, nodes, config=CONFIG, extra=(), sinfo=None, slurm_conf=None, gres_conf=None):
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("slurm.conf", slurm_conf or SLURM_CONF), ("gres.conf", gres_conf or GRES_CONF),
                               ("cgroup.conf", CGROUP_CONF)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            state = os.path.join(d, "state")
            os.mkdir(state)
            with open(os.path.join(state, "nodes.txt"), "w") as f:
                f.write("\n".join(nodes) + "\n")
            if config:
                with open(os.path.join(state, "config.txt"), "w") as f:
                    f.write(config)
            if sinfo:
                with open(os.path.join(state, "sinfo.txt"), "w") as f:
                    f.write(sinfo)
            p = subprocess.run([GRESLINT, "why", "--conf", d, "--state", state, "--format", "json"]
                               + list(extra), capture_output=True, text=True)
            self.assertIn(p.returncode, (0, 1), p.stderr)
            r = json.loads(p.stdout)
            validate(r)
            r["rc"] = p.returncode
            return r

    def healthy(self):
        return [node("gpu%02d" % i, "IDLE") for i in range(1, 5)]

    def cause(self, r, name):
        return {n["node"]: n for n in r["nodes"]}[name]

    def test_clean(self):
        r = self.run_why(self.healthy() + [node("gpu05", "IDLE+DRAIN+INVALID_REG",
                                                "gres/gpu count reported lower than configured (4 < 8) [slurm@2026-12-01T11:00:06]",
                                                gres="gpu:a100:4")])
        n = self.cause(r, "gpu05")
        self.assertEqual(n["cause"], "explained")
        self.assertEqual(n["rule"], "GRS301")
        self.assertTrue(n["file"].endswith("gres.conf"))
        self.assertIn("scontrol update NodeName=gpu05 State=RESUME", n["commands"])
        self.assertEqual(r["drift"], [])
        self.assertEqual(r["rc"], 1)

    def test_nothing_wrong(self):
        nodes = self.healthy() + [node("gpu05", "IDLE", gres="gpu:a100:8")]
        r = self.run_why(nodes, extra=["gpu[01-04]"])
        self.assertEqual((r["nodes"], r["drift"], r["rc"]), ([], [], 0))

    def test_admin_not_gres_topology_hardware(self):
        nodes = [node("gpu01", "IDLE+DRAIN", "replacing DIMM [root@2026-12-01T11:30:00]"),
                 node("gpu02", "DOWN+DRAIN", "Kill task failed [slurm@2026-12-01T11:30:00]"),
                 node("gpu03", "IDLE+DRAIN", "Low RealMemory (reported:250000 < 100.00% of configured:500000) [slurm@2026-12-01T11:30:00]"),
                 node("gpu04", "IDLE+DRAIN", "gres/gpu:a100 count too low (3 < 4) [slurm@2026-12-01T11:30:00]")]
        r = self.run_why(nodes, extra=["gpu[01-04]"])
        self.assertEqual([self.cause(r, "gpu0%d" % i)["cause"] for i in range(1, 5)],
                         ["admin", "not-gres", "topology", "hardware"])
        self.assertIn("run greslint node-check on the node", self.cause(r, "gpu04")["message"])

    def test_held_by_files(self):
        # slurm.conf's own DownNodes= lines hold gpu02 and gpu03 drained with Reason=rma.
        # gpu02 registers and stays drained: the model predicts that (GRS162). gpu03's slurmd
        # exits at start (its record's Count= does not match its one device), so no drain is
        # predicted, yet the reason is the line's, not an admin's. gpu01 shows the same text
        # with no line behind it. gpu04 is FUTURE, which the controller hides.
        conf = SLURM_CONF + ("DownNodes=gpu[02-03] State=DRAIN Reason=rma\n"
                             "DownNodes=gpu04 State=FUTURE\n")
        gres = ("NodeName=gpu[01-02,04-05] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n"
                "NodeName=gpu03 Name=gpu Type=a100 MultipleFiles=/dev/nvidia0,/dev/nvidia1 Count=4\n")
        nodes = [node("gpu01", "IDLE+DRAIN", "rma [root@2026-12-01T11:30:00]"),
                 node("gpu02", "IDLE+DRAIN", "rma [root@2026-12-01T11:00:01]"),
                 node("gpu03", "DOWN+DRAIN", "rma [root@2026-12-01T11:00:01]", started=False)]
        r = self.run_why(nodes, extra=["gpu[01-04]"], slurm_conf=conf, gres_conf=gres)
        self.assertEqual(self.cause(r, "gpu01")["cause"], "admin")
        self.assertEqual((self.cause(r, "gpu02")["cause"], self.cause(r, "gpu02")["rule"]), ("explained", "GRS162"))
        held = self.cause(r, "gpu03")
        self.assertEqual(held["cause"], "held-by-files", held)
        self.assertTrue(held["file"].endswith("slurm.conf"))
        self.assertEqual(held["line"], SLURM_CONF.count("\n") + 1)  # the DownNodes= line
        self.assertIn("DownNodes= line says State=DRAIN", held["message"])
        self.assertIn("slurmd on gpu03 exits at start", held["message"])
        self.assertTrue(held["related"][0]["file"].endswith("gres.conf"))
        self.assertEqual(r["summary"]["explained"], 2)
        self.assertNotIn("node-not-in-controller", [d["kind"] for d in r["drift"]])

    def test_gres_reason_by_another_user_is_still_slurms(self):
        r = self.run_why([node("gpu05", "IDLE+DRAIN+INVALID_REG",
                               "gres/gpu count reported lower than configured (4 < 8) [root@2026-12-01T11:00:06]",
                               gres="gpu:a100:4")], extra=["gpu05"])
        self.assertEqual(self.cause(r, "gpu05")["cause"], "explained")

    def test_not_registered_and_not_in_files(self):
        nodes = self.healthy()[:3] + [node("gpu04", "DOWN*", "Not responding [slurm@2026-12-01T11:10:00]", started=False),
                                      node("gpu09", "IDLE+DRAIN", "rack move [root@2026-12-01T11:10:00]")]
        r = self.run_why(nodes, extra=["gpu[01-04],gpu09"])
        self.assertEqual(self.cause(r, "gpu04")["cause"], "not-registered")
        self.assertEqual(self.cause(r, "gpu09")["cause"], "not-in-files")
        self.assertIn("node-not-in-files", [d["kind"] for d in r["drift"]])

    def test_joined_and_truncated_reasons(self):
        joined = node("gpu05", "IDLE+DRAIN+INVALID_REG",
                      "gres/gpu count reported lower than configured (4 < 8), Low CPUs [slurm@2026-12-01T11:00:06]",
                      gres="gpu:a100:4")
        r = self.run_why([joined], extra=["gpu05"])
        n = self.cause(r, "gpu05")
        self.assertEqual(n["cause"], "explained")
        self.assertIn("Low CPUs", n["message"])
        # only sinfo's default table: the reason cut at 20 columns still matches
        sinfo = ("REASON               USER      TIMESTAMP           NODELIST\n"
                 "gres/gpu count repor slurm     2026-12-01T11:00:06 gpu05\n")
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("slurm.conf", SLURM_CONF), ("gres.conf", GRES_CONF)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            with open(os.path.join(d, "sinfo"), "w") as f:
                f.write(sinfo)
            p = subprocess.run([GRESLINT, "why", "--conf", d, "--state", os.path.join(d, "sinfo"),
                                "--format", "json", "--slurm-version", "24.11"], capture_output=True, text=True)
            r = json.loads(p.stdout)
        validate(r)
        self.assertEqual(self.cause(r, "gpu05")["cause"], "explained")

    def test_drift(self):
        config = CONFIG.replace("CR_CORE_MEMORY", "CR_CORE").replace("GresTypes               = gpu",
                                                                    "GresTypes               = gpu,shard")
        nodes = [node("gpu01", "IDLE", cpus=32, cores=16), node("gpu02", "IDLE", gres="gpu:a100:2"),
                 node("gpu03", "IDLE"), node("gpu04", "IDLE")]
        r = self.run_why(nodes, config=config)
        kinds = sorted((d["kind"], d["subject"]) for d in r["drift"])
        self.assertEqual(kinds, [("node-gres", "gpu02"), ("node-not-in-controller", "gpu05"),
                                 ("node-topology", "gpu01"), ("setting", "GresTypes"),
                                 ("setting", "SelectTypeParameters")])
        for d in r["drift"]:
            self.assertTrue(d["commands"], d)
        self.assertEqual(r["rc"], 1)
        r = self.run_why(nodes, config=config, extra=["--no-drift"])
        self.assertEqual((r["drift"], r["summary"]["drift_checked"]), ([], False))

    def test_json_layout_of_23_02_and_later(self):
        doc = {"nodes": [{"name": "gpu05", "state": ["IDLE", "DRAIN", "INVALID_REG"],
                          "reason": "gres/gpu count reported lower than configured (4 < 8)",
                          "reason_set_by_user": "slurm", "gres": "gpu:a100:4", "cpus": 64, "sockets": 2,
                          "cores": 32, "threads": 1,
                          "slurmd_start_time": {"set": True, "infinite": False, "number": 1796126245},
                          "field_of_a_later_release": [1, 2]}],
               "meta": {}, "errors": [], "warnings": []}
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("slurm.conf", SLURM_CONF), ("gres.conf", GRES_CONF)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            with open(os.path.join(d, "n.json"), "w") as f:
                json.dump(doc, f)
            p = subprocess.run([GRESLINT, "why", "gpu05", "--conf", d, "--state", os.path.join(d, "n.json"),
                                "--format", "json", "--slurm-version", "24.11"], capture_output=True, text=True)
        r = json.loads(p.stdout)
        self.assertEqual(self.cause(r, "gpu05")["cause"], "explained")

    def test_files_slurmctld_would_not_start_with(self):
        global SLURM_CONF
        saved = SLURM_CONF
        SLURM_CONF = saved.replace("PartitionName=gpu Nodes=gpu[01-05]", "PartitionName=gpu Nodes=gpu[01-06]")
        try:
            r = self.run_why(self.healthy() + [node("gpu05", "IDLE", gres="gpu:a100:8")])
        finally:
            SLURM_CONF = saved
        kinds = [d["kind"] for d in r["drift"]]
        self.assertEqual(kinds, ["controller-would-fail"], r["drift"])

    def test_usage_errors(self):
        p = subprocess.run([GRESLINT, "why", "--state", "/nonexistent"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)
        p = subprocess.run([GRESLINT, "why", "--state", "/dev/null", "--format", "sarif"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--greslint", required=True)
    a, rest = ap.parse_known_args()
    GRESLINT = os.path.abspath(a.greslint)
    unittest.main(argv=[sys.argv[0]] + rest)
