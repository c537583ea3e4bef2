#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fuzz.py - differential fuzzing of greslint against the real Slurm daemons.

Each mutant is a conformance case (tests/conformance/cases/) with one to three admin
edits or mistakes applied (mutators.py). Every probed node of the case is run on the
real daemons of each live release (slurm_live.py: 22.05 on the host, 24.11 and 26.05 in
the Debian chroots) and compared with `greslint nodes --format json` exactly as the
conformance suite compares (check.py: verdict, reason, GRES records).

Mutant I of seed S is always the same (random.Random("S:I")), so a disagreement is
reproduced with `--seed S --only I`, and written out with `--write I DIR`.

    fuzz.py --greslint build/greslint --mutants 12                  # CI sample, all releases
    fuzz.py --greslint build/greslint --mutants 2000 --seed 7 -j 12 --save /tmp/dis
    fuzz.py --seed 7 --write 1234 /tmp/m1234                        # one mutant as a case folder
    fuzz.py --summarize run1.jsonl run2.jsonl      # the tables of campaigns run in parts (--json)

It prints the agreement per release and per operator, one line per disagreement, and
exits 1 if there was any disagreement (or a probe the harness could not run).
Standard library only; needs what the live conformance suite needs (root, the daemons,
the chroots of scripts/make-chroots.sh).
"""

import argparse
import collections
import concurrent.futures
import json
import os
import random
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(HERE, "..", "conformance")
sys.dont_write_bytecode = True
sys.path.insert(0, CONFORMANCE)
sys.path.insert(0, HERE)
import check  # noqa: E402
import mutators  # noqa: E402
import slurm_live  # noqa: E402

# A mutant is probed with the default time box; cases that need longer (Include
# retries, missing devices) are left out of the corpus to keep campaigns fast.
PROBE_TIMEOUT = 20.0
KNOWN = os.path.join(HERE, "known_classes.tsv")


def load_known(path=KNOWN):
    """[(name, regex)] of known_classes.tsv."""
    import re
    out = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, pattern = line.rstrip("\n").split("\t", 1)
                out.append((name, re.compile(pattern)))
    return out


def known_class(res, known):
    """The name of the known class a disagreement belongs to, or None."""
    s, g = res["slurm"], res.get("greslint") or {}
    text = "|".join([res["release"], s.get("verdict") or "", s.get("reason") or "", g.get("verdict") or "",
                     "; ".join(str(d) for d in res["diffs"])])
    return next((name for name, rx in known if rx.search(text)), None)


def corpus(cases_root):
    """[(name, {rel: text}, nodes, keep)] of the cases a mutant can start from
    (keep: case.conf's KEEP=, the site keys the sandbox must leave as written)."""
    out = []
    for cd in slurm_live.list_cases(cases_root):
        conf = slurm_live.read_case_conf(cd)
        if "TIMEOUT" in conf or conf.get("DEVICES", "fake") != "fake":
            continue
        files = {}
        for dirpath, _, filenames in os.walk(cd):
            for fn in filenames:
                rel = os.path.relpath(os.path.join(dirpath, fn), cd)
                if slurm_live.is_case_meta(rel):
                    continue
                with open(os.path.join(dirpath, fn), encoding="utf-8", errors="surrogateescape") as f:
                    files[rel] = f.read()
        out.append((os.path.basename(cd), files, slurm_live.case_nodes(conf), conf.get("KEEP", "")))
    return out


def make_mutant(seed, index, base_cases):
    """(base name, Mutant, [(operator, what it did)]) for mutant index of seed."""
    rng = random.Random("%d:%d" % (seed, index))
    name, files, nodes, keep = rng.choice(base_cases)
    m = mutators.Mutant(files, nodes, keep)
    wanted = rng.choice([1, 2, 2, 3])
    ops, names = [], sorted(mutators.OPERATORS)
    for _ in range(20):
        if len(ops) == wanted:
            break
        op = rng.choice(names)
        if any(op == o for o, _ in ops):
            continue
        what = mutators.OPERATORS[op](rng, m)
        if what:
            ops.append((op, what))
    return name, m, ops


def write_mutant(m, base, ops, folder):
    os.makedirs(folder, exist_ok=True)
    for rel, text in m.files.items():
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
    with open(os.path.join(folder, "case.conf"), "w") as f:
        f.write("# mutant of %s: %s\n" % (base, "; ".join("%s: %s" % tuple(o) for o in ops)))
        f.write("NODES=%s\n" % " ".join(m.nodes))
        if m.keep:
            f.write("KEEP=%s\n" % m.keep)


def probe_and_compare(folder, node, target, greslint):
    """{'outcome': agree|disagree|error|recorded, 'slurm': ..., 'greslint': ..., 'diffs': [...]}.
    Without greslint only Slurm's side is recorded (outcome 'recorded'), for --recompare."""
    res = slurm_live.probe_node(folder, node, "fake", PROBE_TIMEOUT, False, target)
    slurm = {k: res.get(k) for k in ("verdict", "reason", "gres")}
    if res.get("verdict") == "error":
        return {"outcome": "error", "slurm": slurm, "diffs": [res.get("reason")]}
    if not greslint:
        return {"outcome": "recorded", "slurm": slurm, "diffs": []}
    return compare_with_greslint(folder, node, target["text"] or target["release"], slurm, greslint)


def compare_with_greslint(folder, node, version, slurm, greslint):
    """The comparison half of probe_and_compare, given Slurm's answer for the node."""
    try:
        answers = check.run_greslint(greslint, folder, version)
    except RuntimeError as e:
        return {"outcome": "disagree", "slurm": slurm, "diffs": [str(e)]}
    mine = check.answer_for(answers, node)
    diffs = check.compare_node(check.expected_of(slurm), mine, folder)
    theirs = {k: (mine or {}).get(k) for k in ("verdict", "reason")}
    return {"outcome": "disagree" if diffs else "agree", "slurm": slurm,
            "greslint": theirs, "diffs": diffs}


def write_recorded_mutant(record, folder):
    """The case folder of the mutant a --json line was probed on."""
    m = mutators.Mutant(record["files"], record["nodes"], record.get("keep", ""))
    write_mutant(m, record["base"], record["ops"], folder)


def recompare(paths, greslint, save=None, json_out=None):
    """Compare another greslint binary with the Slurm answers of --json files, without the
    daemons: each line holds its mutant's files (a later corpus draws other mutants for the
    same seed, so the files, not the seed, say what was probed). Returns the exit status."""
    known = load_known()
    stats = collections.defaultdict(collections.Counter)
    work = tempfile.mkdtemp(prefix="greslint-recompare.")
    out = open(json_out, "w") if json_out else None
    try:
        for path in paths:
            with open(path) as f:
                for n, line in enumerate(f):
                    old = json.loads(line)
                    if old["outcome"] == "error" or "files" not in old:
                        continue
                    folder = os.path.join(work, "p%d" % n)
                    write_recorded_mutant(old, folder)
                    version = old.get("slurm_version") or old["release"]
                    res = dict(old, **compare_with_greslint(folder, old["node"], version, old["slurm"], greslint))
                    res["known"] = known_class(res, known) if res["outcome"] == "disagree" else None
                    tally(stats, res)
                    report_result(res, folder, save)
                    if out:
                        out.write(json.dumps(res) + "\n")
                    shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if out:
            out.close()
    releases = [r for r in slurm_live.RELEASES if stats[(r, None)]]
    print(summary(stats, releases))
    total = collections.Counter()
    for r in releases:
        total.update(stats[(r, None)])
    print("\nrecompare: %d agree, %d disagree (%d of known classes)"
          % (total["agree"], total["disagree"], total["known"]))
    return 1 if total["disagree"] > total["known"] else 0


def report_result(res, folder, save):
    """One line per disagreement or harness error; --save writes the mutant out."""
    if res["outcome"] in ("agree", "recorded"):
        return
    print("%s mutant %d (%s: %s) %s %s: %s" % (
        "KNOWN " + res["known"] if res.get("known") else res["outcome"].upper(), res["mutant"],
        res["base"], "; ".join("%s: %s" % tuple(o) for o in res["ops"]), res["release"], res["node"],
        "; ".join(str(d) for d in res["diffs"])))
    if save and res["outcome"] == "disagree":
        dest = os.path.join(save, "s%d-m%05d-%s-%s" % (res["seed"], res["mutant"], res["release"], res["node"]))
        shutil.copytree(folder, dest, dirs_exist_ok=True)
        with open(os.path.join(dest, "disagreement.json"), "w") as f:
            json.dump({k: v for k, v in res.items() if k != "files"}, f, indent=1)
    sys.stdout.flush()


def rate(counter):
    done = counter["agree"] + counter["disagree"]
    return "%6.2f %%" % (100.0 * counter["agree"] / done) if done else "     - "


def summary(stats, releases):
    """Agreement tables: per release, then per operator and release."""
    lines = ["", "%-22s %s" % ("release", "  ".join("%-28s" % r for r in releases)),
             "%-22s %s" % ("", "  ".join("%-28s" % "agree/probes (rate) errors" for _ in releases))]

    def cell(c):
        return "%-28s" % ("%d/%d %s %d" % (c["agree"], c["agree"] + c["disagree"], rate(c), c["error"]))
    lines.append("%-22s %s" % ("all", "  ".join(cell(stats[(r, None)]) for r in releases)))
    for op in sorted(mutators.OPERATORS):
        lines.append("%-22s %s" % (op, "  ".join(cell(stats[(r, op)]) for r in releases)))
    return "\n".join(lines)


def tally(stats, res):
    if res.get("known"):
        stats[(res["release"], None)]["known"] += 1
    stats[(res["release"], None)][res["outcome"]] += 1
    for op, _ in res["ops"]:
        stats[(res["release"], op)][res["outcome"]] += 1


def summarize(paths):
    """Tables and disagreement classes of campaigns written with --json (in parts)."""
    stats, mutants = collections.defaultdict(collections.Counter), collections.defaultdict(set)
    classes = collections.Counter()
    for path in paths:
        with open(path) as f:
            for line in f:
                res = json.loads(line)
                tally(stats, res)
                mutants[res["release"]].add((res["seed"], res["mutant"]))
                if res["outcome"] == "disagree":
                    s, g = res["slurm"], res.get("greslint") or {}
                    classes[(res["release"], s.get("verdict"), (s.get("reason") or "")[:70],
                              g.get("verdict"))] += 1
    releases = [r for r in slurm_live.RELEASES if r in mutants]
    print("mutants: %s" % ", ".join("%s %d" % (r, len(mutants[r])) for r in releases))
    print(summary(stats, releases))
    print("\ndisagreements by class (release, Slurm's verdict and reason, greslint's verdict):")
    for (r, sv, sr, gv), n in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])):
        print("%5d  %s  slurm %s %r  greslint %s" % (n, r, sv, sr, gv))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="Differential fuzzing of greslint against real Slurm.")
    ap.add_argument("--greslint", help="path of the binary")
    ap.add_argument("--release", action="append", choices=list(slurm_live.RELEASES),
                    help="live release (repeatable; default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mutants", type=int, default=12, help="mutants (default 12)")
    ap.add_argument("--first", type=int, default=0, help="index of the first mutant")
    ap.add_argument("--only", type=int, action="append", help="only mutant I (repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=8, help="sandboxes at a time (default 8)")
    ap.add_argument("--cases", default=os.path.join(CONFORMANCE, "cases"))
    ap.add_argument("--save", metavar="DIR", help="write each disagreeing mutant (a case folder with "
                    "Slurm's and greslint's answers) under DIR")
    ap.add_argument("--json", metavar="FILE", help="write every result as JSON lines to FILE (with "
                    "--recompare: the new comparisons)")
    ap.add_argument("--write", nargs=2, metavar=("I", "DIR"), help="only write mutant I as a case folder")
    ap.add_argument("--summarize", nargs="+", metavar="JSONL", help="only print the tables of --json files")
    ap.add_argument("--recompare", nargs="+", metavar="JSONL",
                    help="compare --greslint with the Slurm answers of --json files (no daemons)")
    a = ap.parse_args(argv)
    if a.summarize:
        return summarize(a.summarize)
    base_cases = corpus(a.cases)
    if a.write:
        base, m, ops = make_mutant(a.seed, int(a.write[0]), base_cases)
        write_mutant(m, base, ops, a.write[1])
        print("mutant %s of seed %d: %s: %s" % (a.write[0], a.seed, base, "; ".join("%s: %s" % tuple(o) for o in ops)))
        return 0
    if a.recompare:
        if not a.greslint:
            ap.error("--recompare needs --greslint PATH")
        return recompare(a.recompare, a.greslint, a.save, a.json)
    if not a.greslint and not a.json:
        ap.error("--greslint PATH is required (or --json FILE, to record Slurm's answers only)")
    releases = a.release or list(slurm_live.RELEASES)
    problems = [p for r in releases for p in slurm_live.preflight(r)]
    if problems:
        for p in problems:
            print("fuzz: live run impossible: %s" % p)
        return 1
    targets = {r: slurm_live.live_target(r) for r in releases}
    known = load_known()
    indexes = a.only or list(range(a.first, a.first + a.mutants))
    work = tempfile.mkdtemp(prefix="greslint-fuzz.")
    mutants = {}
    for i in indexes:
        base, m, ops = make_mutant(a.seed, i, base_cases)
        folder = os.path.join(work, "m%05d" % i)
        write_mutant(m, base, ops, folder)
        mutants[i] = (base, m, ops, folder)
    tasks = [(i, r, node) for i in indexes for r in releases for node in mutants[i][1].nodes]
    stats = collections.defaultdict(collections.Counter)
    out = open(a.json, "w") if a.json else None
    t0 = time.time()
    print("fuzz: seed %d, %d mutants (%d..%d), %d probes on %s, %d at a time"
          % (a.seed, len(indexes), indexes[0], indexes[-1], len(tasks), ", ".join(releases), a.jobs))
    sys.stdout.flush()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futs = {ex.submit(probe_and_compare, mutants[i][3], node, targets[r], a.greslint): (i, r, node)
                    for i, r, node in tasks}
            for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
                i, r, node = futs[fut]
                base, m, ops, folder = mutants[i]
                res = dict(fut.result(), mutant=i, seed=a.seed, release=r, node=node, base=base, ops=ops)
                if res["outcome"] == "disagree":
                    res["known"] = known_class(res, known)
                tally(stats, res)
                if out:
                    out.write(json.dumps(dict(res, files=m.files, nodes=m.nodes, keep=m.keep,
                                              slurm_version=targets[r]["text"])) + "\n")
                    out.flush()
                report_result(res, folder, a.save)
                if n % 200 == 0:
                    print("fuzz: %d/%d probes, %.0f s" % (n, len(tasks), time.time() - t0))
                    sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if out:
            out.close()
    print(summary(stats, releases))
    total = collections.Counter()
    for r in releases:
        total.update(stats[(r, None)])
    print("\nfuzz: %d agree, %d disagree (%d of known classes), %d recorded, %d harness errors in %.0f s"
          % (total["agree"], total["disagree"], total["known"], total["recorded"], total["error"],
             time.time() - t0))
    return 1 if total["disagree"] > total["known"] or total["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
