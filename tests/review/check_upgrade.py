#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`greslint upgrade` against real Slurm: every conformance case recorded under more than
one release must show exactly the verdict changes the recordings show.

Recordings, by release:
  * ../conformance/cases/*/recorded*.json: real Slurm's per-node verdicts (22.05.8 from the
    installed Debian daemons, written by slurm_live.py --record);
  * ../releases/recorded.tsv: real Slurm 23.11.11, 24.11.7, 25.11.7 and 26.05.3 on the same
    cases (copied from shared/conformance/*/oracle-X.Y.out), read with check_releases.py's
    mapping of Slurm's outcome to greslint's verdict.

For every case with two or more recorded releases, for every pair of consecutive recorded
releases A < B and for the first and last, run

    greslint upgrade CASE --slurm-version A --to B --format json

and require: the releases evaluated are every modelled profile from A to B; the total
lists a verdict change for exactly the recorded nodes whose verdict differs between A and
B, from and to the recorded verdicts (with the recorded drain reason); every step that
changes a node's verdict lies between A and B; and chaining the steps' verdict changes
gives the total.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
CASES = os.path.join(TESTS, "conformance", "cases")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(TESTS, "releases"))
import check_releases  # noqa: E402  (the recorded.tsv reader and its verdict mapping)

MODELLED = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]


def lists_nodes(case_dir, release):
    """Whether greslint's `nodes` lists any node of the case at release."""
    p = subprocess.run([ARGS.greslint, "nodes", case_dir, "--slurm-version", release, "--format", "json",
                        "--no-config"], capture_output=True, text=True)
    return p.returncode in (0, 1) and bool(json.loads(p.stdout)["nodes"])


def release_of(version):
    major, minor = version.split(".")[:2]
    return f"{int(major):02d}.{int(minor):02d}"


def load_known():
    """(case, node, release) of tests/conformance/known_disagreements.tsv."""
    known = set()
    with open(os.path.join(TESTS, "conformance", "known_disagreements.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            case, node, release = line.split("\t")[:3]
            known.add((case, node, release))
    return known


KNOWN = load_known()
DEBIAN_RECORDED = {"22.05", "24.11", "26.05"}


def load_recordings():
    """case -> release -> node -> (verdict, drain reason or None)."""
    records = {}
    for path in sorted(glob.glob(os.path.join(CASES, "*", "recorded*.json"))):
        case = os.path.basename(os.path.dirname(path))
        with open(path) as f:
            rec = json.load(f)
        by_node = records.setdefault(case, {}).setdefault(release_of(rec["slurm_version"]), {})
        for node, r in rec["nodes"].items():
            verdict = "absent" if r["verdict"] == "not-in-config" else r["verdict"]
            by_node[node] = (verdict, r["reason"] if verdict == "drain" else None)
    with open(os.path.join(TESTS, "releases", "recorded.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            case, node, release, verdict, detail = line.rstrip("\n").split("\t")
            want, reason = check_releases.expected(verdict, detail)
            records.setdefault(case, {}).setdefault(release, {})[node] = (want, reason if want == "drain" else None)
    return {case: by_release for case, by_release in records.items() if len(by_release) > 1}


def net_changes(change):
    """node -> (before verdict, after verdict, before reason, after reason) for the nodes whose
    verdict or reason changes."""
    out = {}
    for c in change["verdict_changes"]:
        hosts = subprocess.run([ARGS.greslint, "hostlist", "--expand", c["nodes"]], capture_output=True,
                               text=True, check=True).stdout.split()
        for h in hosts:
            # A change groups the nodes it applies to, and its reason names them all (as the
            # text report folds them); Slurm's reason for one node names that node.
            per_node = [r.replace(c["nodes"], h) if isinstance(r, str) else r
                        for r in (c["before"]["reason"], c["after"]["reason"])]
            out[h] = (c["before"]["verdict"], c["after"]["verdict"], per_node[0], per_node[1])
    return out


def check_pair(case, records, a, b):
    case_dir = os.path.join(CASES, case)
    # The cases' own recordings (22.05, 24.11, 26.05) were made by Debian's packages, whose
    # build counts node addresses differently up to 24.05 (GRS106): upgrade from that build.
    start = f"{a}-debian" if a in DEBIAN_RECORDED else a
    p = subprocess.run([ARGS.greslint, "upgrade", case_dir, "--slurm-version", start, "--to", b, "--format", "json",
                        "--no-config"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return [f"greslint exited {p.returncode}: {p.stderr.strip()}"]
    report = json.loads(p.stdout)
    problems = []
    want_releases = MODELLED[MODELLED.index(a):MODELLED.index(b) + 1]
    if report["releases"] != want_releases:
        problems.append(f"evaluated {report['releases']}, want every profile {want_releases}")
    got = net_changes(report["total"])
    total = {n: (c[0], c[1], c[3]) for n, c in got.items()}
    nodes = set(records[a]) & set(records[b])
    for node in sorted(nodes):
        # Nodes the live suites list as not modelled yet at a release (XFAIL there) say
        # nothing about upgrade: greslint's verdict at that release is known to differ.
        if {(case, node, a), (case, node, b)} & KNOWN:
            continue
        (va, ra), (vb, rb) = records[a][node], records[b][node]
        # A configuration that defines no node (s97, rw104): greslint lists no node at any
        # release, so upgrade has no node whose verdict could change; check.py compares the
        # cluster's verdict for such a case instead.
        if "absent" in (va, vb) and not report["total"]["verdict_changes"] and not lists_nodes(case_dir, start):
            continue
        g = got.get(node)
        if va == vb and (va != "drain" or ra == rb):
            # A fatal whose message changes is a change greslint reports; the recordings keep
            # no message for fatals, so only a verdict change contradicts them.
            if g is not None and (g[0] != g[1] or va == "drain"):
                problems.append(f"{node}: Slurm keeps {va} from {a} to {b}, greslint reports {g[0]} -> {g[1]}")
            continue
        if g is None:
            problems.append(f"{node}: Slurm goes {va} -> {vb} from {a} to {b}, greslint reports no change")
        elif (g[0], g[1]) != (va, vb):
            problems.append(f"{node}: Slurm goes {va} -> {vb}, greslint {g[0]} -> {g[1]}")
        elif vb == "drain" and (g[3] or "") != (rb or ""):  # 24.11+ may drain with an empty reason
            problems.append(f"{node}: Slurm's drain reason at {b} is {rb!r}, greslint's {g[3]!r}")
    # The steps name where each change happens and add up to the total.
    first_seen, last_seen = {}, {}
    for step in report["steps"]:
        if not (step["from"] in want_releases and step["to"] in want_releases):
            problems.append(f"step {step['from']} -> {step['to']} is outside {a} -> {b}")
        for node, change in net_changes(step).items():
            first_seen.setdefault(node, change)
            last_seen[node] = change
    chained = {n: (first_seen[n][0], last_seen[n][1], last_seen[n][3]) for n in first_seen
               if (first_seen[n][0], first_seen[n][2]) != (last_seen[n][1], last_seen[n][3])}
    if chained != total:
        problems.append(f"the steps chain to {chained}, the total says {total}")
    return problems


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--first-to-last-only", action="store_true",
                    help="only each case's upgrade from its first recorded release to its last (the "
                    "sanitizer build's suite: the same code, a third of the processes)")
    ARGS = ap.parse_args()
    records = load_recordings()
    passed = failed = 0
    work = []
    for case in sorted(records):
        releases = sorted(records[case], key=MODELLED.index)
        first_to_last = (releases[0], releases[-1])
        pairs = [] if ARGS.first_to_last_only else list(zip(releases, releases[1:]))
        if first_to_last not in pairs:
            pairs.append(first_to_last)
        work += [(case, a, b) for a, b in pairs]
    # One greslint at a time per core (under the sanitizers each costs ~0.1 s); the report
    # keeps the order of the cases.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = pool.map(lambda job: check_pair(job[0], records[job[0]], job[1], job[2]), work)
        for (case, a, b), problems in zip(work, results):
            changes = sorted(n for n in set(records[case][a]) & set(records[case][b])
                             if records[case][a][n] != records[case][b][n])
            if problems:
                failed += 1
                for p in problems:
                    print(f"FAIL {case} {a} -> {b}: {p}")
            else:
                passed += 1
                print(f"PASS {case} {a} -> {b}: " + (f"{len(changes)} verdict change(s): {', '.join(changes)}" if changes else "no change"))
    print(f"{len(records)} multi-release cases; {passed} passed, {failed} failed")
    return 1 if failed or not records else 0


if __name__ == "__main__":
    sys.exit(main())
