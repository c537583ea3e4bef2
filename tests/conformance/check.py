#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check.py - compare greslint's per-node verdicts with real Slurm's.

For every live release (22.05 from the host's packages, 24.11 and 26.05 from
Debian chroots), every case folder under cases/ and every node its case.conf
probes, run

    greslint nodes CASE_DIR --slurm-version 'slurm-wlm X.Y.Z' --format json

(the version text of the Slurm that was recorded, so that greslint models
Debian's build) and compare the node's object with what that Slurm did
(recorded.json for 22.05, recorded-X.Y.json for X.Y, written by
slurm_live.py --release X.Y --record):

  * the verdict must be the same;
  * for drain, slurmd-fatal and slurmctld-fatal, the reason must be the same
    string (greslint's paths under CASE_DIR are read as <confdir>);
  * when the node registered (ok, degraded, drain), greslint's GRES records
    must be the ones slurmd -G reported: same name, type, count, files (as
    expanded path lists) and cores (as core sets), in slurmd's order within
    each GRES name.

Modes:
  --recorded   compare with the recordings only (no daemons, runs anywhere);
               every release unless --release says which
  --live       run real Slurm of one release (--release, default 22.05) on
               every case first (root; the host's Debian packages, or the
               chroot); a recording that differs from the fresh result is
               stale and fails; greslint is compared with the fresh result

One line per case and node, then a last line 'N passed, M failed'.  The exit
status is 1 if anything failed.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import slurm_live  # noqa: E402  (same folder; stdlib only)

KNOWN = os.path.join(HERE, "known_disagreements.tsv")
FATAL_OR_DRAIN = ("drain", "slurmd-fatal", "slurmctld-fatal")
REGISTERED = ("ok", "degraded", "drain")


# ---------------------------------------------------------------------------
# value comparison
# ---------------------------------------------------------------------------
def expand_files(value):
    """A File= value as the list of paths it names (Slurm prints the string
    as written or as a folded hostlist; both expand to the same list)."""
    if value is None:
        return None
    try:
        return slurm_live.expand_hostlist(value)
    except ValueError:
        return [value]


def core_set(value):
    """A Cores= value as a set of core indexes, read the way bit_unfmt reads
    it: digits, '-' and ',' count, anything else is ignored; a reversed range
    sets nothing.  None stays None."""
    if value is None:
        return None
    text = re.sub(r"[^0-9,\-]", "", str(value))
    out = set()
    for part in text.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            out.update(range(lo, hi + 1))
    return frozenset(out)


def norm_type(value):
    return None if value in (None, "", "(null)") else value


def gres_differences(expected, actual):
    """Differences between slurmd's records and greslint's, as text lines.
    Records are matched by position within each GRES name."""
    diffs = []

    def by_name(recs):
        out = {}
        for r in recs or []:
            out.setdefault(r.get("name"), []).append(r)
        return out
    exp, act = by_name(expected), by_name(actual)
    for name in sorted(set(exp) | set(act), key=str):
        e, a = exp.get(name, []), act.get(name, [])
        if len(e) != len(a):
            diffs.append("gres %s: slurmd reported %d record(s) %s, greslint "
                         "%d %s" % (name, len(e), short(e), len(a), short(a)))
            continue
        for i, (x, y) in enumerate(zip(e, a)):
            where = "gres %s[%d]" % (name, i)
            if norm_type(x.get("type")) != norm_type(y.get("type")):
                diffs.append("%s type: slurmd %s, greslint %s" % (
                    where, x.get("type"), y.get("type")))
            if x.get("count") != y.get("count"):
                diffs.append("%s count: slurmd %s, greslint %s" % (
                    where, x.get("count"), y.get("count")))
            if expand_files(x.get("files")) != expand_files(y.get("files")):
                diffs.append("%s files: slurmd %s, greslint %s" % (
                    where, x.get("files"), y.get("files")))
            if core_set(x.get("cores")) != core_set(y.get("cores")):
                diffs.append("%s cores: slurmd %s, greslint %s" % (
                    where, x.get("cores"), y.get("cores")))
    return diffs


def short(recs):
    return "[%s]" % ", ".join(
        "%s:%s:%s" % (r.get("name"), r.get("type"), r.get("count"))
        for r in recs)


def normalise_reason(reason, case_dir):
    """greslint prints paths under the case folder it was given; Slurm's
    (sandbox) paths are recorded as <confdir>."""
    if reason is None:
        return ""
    for d in sorted({os.path.abspath(case_dir), os.path.realpath(case_dir),
                     case_dir.rstrip("/")}, key=len, reverse=True):
        if d:
            reason = reason.replace(d, "<confdir>")
    return reason.strip()


def expected_of(recorded_node):
    """What greslint must say: the recorded result, or, for a case whose
    devices are not faked (DEVICES=host|regular), the run with faked
    character devices (greslint assumes the device files exist)."""
    src = recorded_node.get("offline") or recorded_node
    return {"verdict": src.get("verdict"), "reason": src.get("reason") or "",
            "gres": src.get("gres") or []}


def compare_node(expected, actual, case_dir):
    """[] if greslint's object for a node agrees with Slurm, else the
    differences.  actual is None when greslint printed no object for it."""
    verdict = expected["verdict"]
    if actual is None:
        if verdict == "not-in-config":
            return []
        return ["greslint printed no object for this node"]
    got = actual.get("verdict")
    if got != verdict:
        return ["verdict: slurm %s%s, greslint %s%s" % (
            verdict, " (%s)" % expected["reason"] if expected["reason"] else "",
            got, " (%s)" % actual.get("reason") if actual.get("reason") else "")]
    diffs = []
    if verdict in FATAL_OR_DRAIN:
        want = expected["reason"]
        have = normalise_reason(actual.get("reason"), case_dir)
        if want != have:
            diffs.append("reason: slurm %r, greslint %r" % (want, have))
    if verdict in REGISTERED:
        diffs.extend(gres_differences(expected["gres"], actual.get("gres")))
    return diffs


# ---------------------------------------------------------------------------
# staleness (live mode)
# ---------------------------------------------------------------------------
def stale_differences(recorded, fresh):
    """Keys whose value differs between a recording and a fresh run of one
    node (the whole result is compared, log lines included)."""
    diffs = []
    for key in sorted(set(recorded) | set(fresh)):
        a, b = recorded.get(key), fresh.get(key)
        if key == "log" and isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if a.get(k) != b.get(k):
                    diffs.append("log.%s: recorded %s, now %s" % (
                        k, a.get(k), b.get(k)))
        elif a != b:
            diffs.append("%s: recorded %s, now %s" % (
                key, json.dumps(a), json.dumps(b)))
    return diffs


# ---------------------------------------------------------------------------
# running greslint
# ---------------------------------------------------------------------------
def greslint_version(recording, release):
    """--slurm-version for greslint: what the recorded Slurm called itself
    ('slurm-wlm 24.11.5' for Debian's build). Recordings older than that
    field were all made by the host's Debian packages, so they name Debian's
    build too (it counts node addresses differently up to 24.05, GRS106);
    else the release."""
    if recording.get("slurmd_version"):
        return recording["slurmd_version"]
    if recording.get("slurm_version"):
        return "slurm-wlm " + recording["slurm_version"]
    return release


def node_objects(data):
    """{node: object} of `greslint nodes --format json`: an array of node
    objects, or an object whose "nodes" member is that array.  The object's
    "cluster" verdict, if any, is kept under the key None (see answer_for)."""
    cluster = None
    if isinstance(data, dict):
        cluster = data.get("cluster")
        data = data.get("nodes")
    if not isinstance(data, list) or not all(
            isinstance(o, dict) and "node" in o for o in data):
        raise RuntimeError("greslint JSON holds no array of node objects")
    out = {o["node"]: o for o in data}
    if isinstance(cluster, dict):
        out[None] = cluster
    return out


def answer_for(answers, node):
    """greslint's object for node.  A node greslint does not list (say, its
    NodeName line was misspelt) still gets the cluster's verdict when that
    is a slurmctld fatal: the controller dies for every node."""
    if node in answers:
        return answers[node]
    cluster = answers.get(None) or {}
    return cluster if cluster.get("verdict") == "slurmctld-fatal" else None


def run_greslint(greslint, case_dir, version="22.05"):
    """{node: object} from greslint nodes, or raises RuntimeError."""
    cmd = [greslint, "nodes", case_dir, "--slurm-version", version,
           "--format", "json"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError("cannot run %s: %s" % (" ".join(cmd), e))
    out = p.stdout.decode("utf-8", "replace")
    try:
        data = json.loads(out)
    except ValueError:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError("greslint exit %d, no JSON on stdout%s" % (
            p.returncode, (": " + err[-1]) if err else ""))
    if p.returncode not in (0, 1):
        raise RuntimeError("greslint exit %d" % p.returncode)
    return node_objects(data)


def load_recording(case_dir, release=slurm_live.HOST_RELEASE):
    path = os.path.join(case_dir, slurm_live.recording_name(release))
    with open(path) as f:
        return json.load(f)


def load_known(path=KNOWN):
    """{(case, node, release): why} of known_disagreements.tsv: places where
    greslint does not model a release yet.  Such a node reports XFAIL; once
    greslint agrees it fails, so that the line is removed."""
    known = {}
    if os.path.isfile(path):
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    case, node, release, why = line.rstrip("\n").split("\t", 3)
                    known[(case, node, release)] = why
    return known


KNOWN_DISAGREEMENTS = load_known()


def check_case(case_dir, recording, greslint, report, skip=(),
               release=slurm_live.HOST_RELEASE, answers_ahead=None):
    """Compare one case; report(ok, case, node, text) per node (nodes in
    skip were already reported).  answers_ahead: a future of run_greslint's
    answer for this case and release, already started."""
    name = os.path.basename(case_dir.rstrip("/"))
    if release != slurm_live.HOST_RELEASE:
        name += "@" + release
    nodes = [n for n, _, _ in slurm_live.case_jobs(case_dir) if n not in skip]
    if not nodes:
        return
    missing = [n for n in nodes if n not in recording["nodes"]]
    try:
        answers = answers_ahead.result() if answers_ahead else run_greslint(
            greslint, case_dir, greslint_version(recording, release))
        err = None
    except RuntimeError as e:
        answers, err = {}, str(e)
    for node in nodes:
        if node in missing:
            report(False, name, node, "no recording for this node "
                   "(run slurm_live.py --release %s --record)" % release)
            continue
        exp = expected_of(recording["nodes"][node])
        if err:
            report(False, name, node, err)
            continue
        diffs = compare_node(exp, answer_for(answers, node), case_dir)
        why = KNOWN_DISAGREEMENTS.get(
            (os.path.basename(case_dir.rstrip("/")), node, release))
        if why and diffs:
            report(True, name, node, "XFAIL (known, %s): %s"
                   % (why, "; ".join(diffs)))
        elif why:
            report(False, name, node, "greslint agrees now: remove the line "
                   "from known_disagreements.tsv")
        elif diffs:
            report(False, name, node, "; ".join(diffs))
        else:
            report(True, name, node, exp["verdict"])


def tally_text(cases, release=slurm_live.HOST_RELEASE):
    """Counts of the recordings: cases, probed nodes, verdicts (the verdict
    greslint is held to, i.e. the faked-devices one where there is one)."""
    counts, nodes, multi = {}, 0, 0
    for cd in cases:
        rec = load_recording(cd, release)
        multi += len(rec["nodes"]) > 1
        for r in rec["nodes"].values():
            nodes += 1
            v = expected_of(r)["verdict"]
            counts[v] = counts.get(v, 0) + 1
    lines = ["Slurm %s: %d cases, %d probed nodes (%d multi-node cases)"
             % (release, len(cases), nodes, multi)]
    for v in slurm_live.VERDICTS:
        lines.append("  %-16s %d" % (v, counts.get(v, 0)))
    return "\n".join(lines)


def check_live(cases, releases, greslint, jobs, report):
    """Run every release's daemons on every case (one pool of sandboxes);
    stale recordings fail, then greslint is compared with the fresh
    results."""
    problems = [p for r in releases for p in slurm_live.preflight(r)]
    if problems:
        for p in problems:
            print("live run impossible: %s" % p)
        report(False, "(all)", " ".join(releases), "no live run")
        return
    targets = [slurm_live.live_target(r) for r in releases]
    fresh = slurm_live.probe_releases(cases, targets, jobs)
    first_tries = reprobe_alone(fresh, targets)
    for release in releases:
        for cd in cases:
            check_fresh(cd, release, fresh[release][cd], greslint, report,
                        first_tries.get((release, cd), {}))


def fresh_problems(cd, release, new):
    """{node: text} of the nodes whose fresh result cannot be used: a
    harness error, no recording, or a result that differs from it."""
    try:
        rec = load_recording(cd, release)
    except (OSError, ValueError):
        rec = None
    out = {}
    for node, res in new["nodes"].items():
        old = (rec or {}).get("nodes", {}).get(node)
        if res.get("verdict") == "error":
            out[node] = "harness error: %s" % res.get("reason")
        elif old is None:
            out[node] = ("no recording; fresh verdict %s (slurm_live.py "
                         "--release %s --record)" % (res.get("verdict"),
                                                     release))
        else:
            d = stale_differences(old, res)
            if d:
                out[node] = "stale recording: %s" % "; ".join(d)
    return out


def reprobe_alone(fresh, targets):
    """Probe once more, one sandbox at a time, every case whose fresh result
    differs from its recording, and keep the second result.  Six sandboxes
    on two cores can starve a daemon past one of Slurm's own timeouts (a
    CI run once failed one node this way, and the same binary passed every
    node on the next run); a recording that is really stale differs again.
    Returns {(release, case): {node: what the first probe gave}}, printed
    with the node's line so that a retry is never silent."""
    first_tries = {}
    for t in targets:
        for cd, rec in fresh[t["release"]].items():
            problems = fresh_problems(cd, t["release"], rec)
            if not problems:
                continue
            again = slurm_live.probe_releases(
                [cd], [t], jobs=1, node_filter=set(problems))
            rec["nodes"].update(again[t["release"]][cd]["nodes"])
            first_tries[(t["release"], cd)] = problems
    return first_tries


def check_fresh(cd, release, new, greslint, report, first_tries=None):
    name = os.path.basename(cd)
    if release != slurm_live.HOST_RELEASE:
        name += "@" + release
    bad = fresh_problems(cd, release, new)
    for node, text in bad.items():
        if node in (first_tries or {}):
            text += " (on a second probe too)"
        report(False, name, node, text)
    for node, text in (first_tries or {}).items():
        if node not in bad:
            print("RETRIED %s %s: the first probe gave: %s"
                  % (name, node, text))
    check_case(cd, new, greslint, report, skip=set(bad), release=release)


def check_recorded(cases, release, greslint, report):
    # greslint runs on every case at once, one process per core (under the
    # sanitizers each costs ~0.1 s); the report keeps the cases' order.
    loaded = []
    for cd in cases:
        try:
            loaded.append((cd, load_recording(cd, release)))
        except (OSError, ValueError) as e:
            loaded.append((cd, e))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        ahead = {cd: pool.submit(run_greslint, greslint, cd,
                                 greslint_version(rec, release))
                 for cd, rec in loaded if not isinstance(rec, Exception)}
        for cd, rec in loaded:
            if isinstance(rec, Exception):
                for node, _, _ in slurm_live.case_jobs(cd):
                    report(False, os.path.basename(cd), node,
                           "no usable %s: %s" % (
                               slurm_live.recording_name(release), rec))
                continue
            check_case(cd, rec, greslint, report, release=release,
                       answers_ahead=ahead[cd])


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Compare greslint's per-node verdicts with real Slurm's.")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--recorded", action="store_true",
                      help="compare with the recordings only")
    mode.add_argument("--live", action="store_true",
                      help="re-run real Slurm first; stale recordings fail")
    mode.add_argument("--tally", action="store_true",
                      help="only count cases, nodes and recorded verdicts")
    ap.add_argument("--release", action="append",
                    choices=list(slurm_live.RELEASES),
                    help="live release to check (repeatable; default: all "
                    "for --recorded and --tally, %s for --live)"
                    % slurm_live.HOST_RELEASE)
    ap.add_argument("--one-release-per-case", action="store_true",
                    help="--recorded: check case i only at release i mod "
                    "the number of releases (every case and release still "
                    "run: the sanitizer build's suite)")
    ap.add_argument("--greslint", help="path of the binary")
    ap.add_argument("--cases", default=os.path.join(HERE, "cases"),
                    help="folder of case folders (default: cases/ here)")
    ap.add_argument("-j", "--jobs", type=int, default=4,
                    help="live mode: sandboxes at a time (default 4)")
    ap.add_argument("case", nargs="*", help="only these case names")
    a = ap.parse_args(argv)
    if not a.tally and not a.greslint:
        ap.error("--greslint PATH is required with --recorded and --live")
    releases = a.release or (
        [slurm_live.HOST_RELEASE] if a.live else list(slurm_live.RELEASES))

    cases = slurm_live.list_cases(a.cases)
    if a.case:
        cases = [c for c in cases if os.path.basename(c) in a.case]
        unknown = set(a.case) - {os.path.basename(c) for c in cases}
        if unknown:
            ap.error("unknown case(s): %s" % ", ".join(sorted(unknown)))
    if a.tally:
        print("\n".join(tally_text(cases, r) for r in releases))
        return 0
    tally = {"passed": 0, "failed": 0}

    failures = []

    def report(ok, case, node, text):
        tally["passed" if ok else "failed"] += 1
        line = "%s %s %s: %s" % ("PASS" if ok else "FAIL", case, node, text)
        print(line)
        sys.stdout.flush()
        if not ok:
            failures.append(line)

    if a.live:
        check_live(cases, releases, a.greslint, a.jobs, report)
    else:
        for i, release in enumerate(releases):
            check_recorded([c for k, c in enumerate(cases)
                            if not a.one_release_per_case
                            or k % len(releases) == i],
                           release, a.greslint, report)
    # Again at the end: CI keeps the tail of a long log.
    if failures:
        print("\n".join(["failures:"] + failures))
    print("%d passed, %d failed" % (tally["passed"], tally["failed"]))
    return 1 if tally["failed"] or not tally["passed"] else 0


if __name__ == "__main__":
    sys.exit(main())
