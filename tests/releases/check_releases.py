#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks greslint's per-release verdicts against real Slurm 23.11, 24.11, 25.11 and 26.05.

recorded.tsv holds the verdicts those releases gave on the cases in ../conformance/cases
(recorded with each release's real daemons). Debian only ships 22.05, so these releases
cannot be re-run here; this keeps the version profiles honest against what they did.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "..", "conformance", "cases")

# Slurm's observable outcome -> greslint's verdict. Errors about device-file types can
# only be seen on the node itself, so for those Slurm's "OK with errors" is greslint's ok.
def expected(verdict, detail):
    if verdict == "OK":
        return "ok", None
    if verdict == "INVALID":
        return "drain", detail
    if verdict == "SLURMD_FATAL":
        return "slurmd-fatal", detail
    if verdict == "CTLD_FATAL":
        return "slurmctld-fatal", detail
    if verdict in ("OK_WITH_WARNINGS", "OK_WITH_ERRORS"):
        if "is not a valid character or block device" in detail:
            return "ok", None
        return "degraded", None
    if verdict == "NODE_NOT_IN_SLURM_CONF":
        return "absent", None
    raise ValueError(f"unknown verdict {verdict}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--greslint", required=True)
    args = ap.parse_args()
    passed = failed = 0
    with open(os.path.join(HERE, "recorded.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    for case, node, release, verdict, detail in rows:
        want, reason = expected(verdict, detail)
        case_dir = os.path.join(CASES, case)
        proc = subprocess.run([args.greslint, "nodes", case_dir, "--slurm-version", release, "--format", "json"],
                              capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            print(f"FAIL {case} {node} {release}: greslint exited {proc.returncode}: {proc.stderr.strip()}")
            failed += 1
            continue
        objs = {o["node"]: o for o in json.loads(proc.stdout)["nodes"]}
        got = objs.get(node)
        problem = None
        if want == "absent":
            if got is not None:
                problem = f"Slurm does not know {node}, greslint lists it"
        elif got is None:
            problem = "greslint printed no object for this node"
        elif got["verdict"] != want:
            problem = f"verdict: slurm {want} ({detail}), greslint {got['verdict']} ({got['reason']})"
        elif reason is not None and want == "drain" and got["reason"] != reason:
            problem = f"reason: slurm {reason!r}, greslint {got['reason']!r}"
        elif reason is not None and want.endswith("fatal") and got["reason"].replace(case_dir, "<confdir>") != reason:
            problem = f"reason: slurm {reason!r}, greslint {got['reason']!r}"
        if problem:
            print(f"FAIL {case} {node} {release}: {problem}")
            failed += 1
        else:
            print(f"PASS {case} {node} {release}: {want}")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
