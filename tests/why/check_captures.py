#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_captures.py - `greslint why` on what the real controllers showed.

The conformance harness captures, for each probed node that registered, what
scontrol and sinfo showed (`slurm_live.py --capture`: CASE/captured-RELEASE/
NODE/).  For every capture this runs `greslint why --state` with the case's
files and holds it to what that Slurm did (the case's recording):

  * every node Slurm drained has a capture, and is explained: why names the rule and the line, or
    the node is listed in unexplained.tsv (case, node, release, why), which
    fails as soon as why explains it;
  * no other node is reported unavailable (but a probed node that Slurm drains
    in its own probe: a node held DOWN or DRAIN by slurm.conf shows so in every
    sandbox), and there is no drift but the settings the sandbox itself
    rewrites (slurm_live.SITE_KEYS).

    check_captures.py --greslint build/greslint [--every N] [CASE ...]

--every N checks every Nth capture only (the suite under the sanitizers: each `why` there
costs ten times a Release one, and the Release suite checks them all).
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(HERE, "..", "conformance")
sys.path.insert(0, CONFORMANCE)
import slurm_live  # noqa: E402  (stdlib only)

CASES = os.path.join(CONFORMANCE, "cases")
with open(os.path.join(HERE, "..", "..", "docs", "greslint-why.schema.json")) as _f:
    SCHEMA = json.load(_f)


def load_unexplained(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            case, node, release, why = line.split("\t", 3)
            out[(case, node, release)] = why
    return out


def sandbox_setting(drift):
    """Drift the sandbox makes: it runs its own value of a site key."""
    return drift["kind"] == "setting" and (
        drift["subject"].lower() in slurm_live.SITE_KEYS or
        drift["subject"].lower() in slurm_live.SITE_KEYS_SINCE)


def captures(case_dir):
    """[(release, node, folder)] of a case's captures."""
    out = []
    for release in slurm_live.RELEASES:
        top = os.path.join(case_dir, slurm_live.capture_dir_name(release))
        if os.path.isdir(top):
            out += [(release, n, os.path.join(top, n)) for n in sorted(os.listdir(top))]
    return out


def missing_captures(case_dir):
    """[(release, node)] Slurm drained that have no capture."""
    out = []
    for release in slurm_live.RELEASES:
        path = os.path.join(case_dir, slurm_live.recording_name(release))
        if not os.path.isfile(path):
            continue
        for node, r in json.load(open(path))["nodes"].items():
            folder = os.path.join(case_dir, slurm_live.capture_dir_name(release), node)
            if r.get("verdict") == "drain" and not os.path.isdir(folder):
                out.append((release, node))
    return out


def held_by_line(case_dir, node):
    """Whether slurm.conf's NodeName line for `node` holds it DOWN, DRAIN or FAIL: a State=
    that starts so (state_str2int; DRAIN+CLOUD is UNKNOWN+DRAIN), e.g. gm74's gpu01, whose own
    slurmd exits before it registers."""
    with open(os.path.join(case_dir, "slurm.conf"), errors="replace") as f:
        text = f.read()
    state = None
    for _, _, logical in slurm_live.logical_lines(text):
        if slurm_live.first_key(logical) != "nodename":
            continue
        toks = dict(slurm_live.kv_tokens(logical))
        try:
            if node in slurm_live.expand_hostlist(toks.get("nodename", "")):
                state = toks.get("state", state)
        except ValueError:
            continue
    return bool(state) and state.upper().startswith(("DOWN", "DRAIN", "FAIL"))


def check_capture(greslint, case_dir, release, node, folder, unexplained, seen, drained):
    """Problems with why's report on one capture (empty list: as expected)."""
    case = os.path.basename(case_dir)
    rec = json.load(open(os.path.join(case_dir, slurm_live.recording_name(release))))
    verdict = rec["nodes"].get(node, {}).get("verdict")
    argv = [greslint, "why", "--conf", case_dir, "--state", folder, "--format", "json",
            "--slurm-version", rec.get("slurmd_version") or release]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if p.returncode not in (0, 1):
        return ["exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])]
    report = json.loads(p.stdout)
    problems = []
    try:
        import jsonschema
        jsonschema.validate(report, SCHEMA)
    except ImportError:
        pass
    except Exception as e:      # jsonschema.ValidationError
        problems.append("report does not follow docs/greslint-why.schema.json: %s" % str(e)[:300])
    by_node = {n["node"]: n for n in report["nodes"]}
    key = (case, node, release)
    if verdict == "drain":
        mine = by_node.pop(node, None)
        explained = bool(mine is not None and mine["cause"] == "explained"
                         and mine["rule"] and mine["line"])
        drained[0] += 1
        drained[1] += explained
        if key in unexplained:
            seen.add(key)
            if explained:
                problems.append("explained now (%s %s:%s): remove it from unexplained.tsv"
                                % (mine["rule"], mine["file"], mine["line"]))
        elif not explained:
            problems.append("drained (%s) but not explained: %s" % (
                rec["nodes"][node].get("reason"),
                json.dumps(mine) if mine else "why does not list it"))
    for n in by_node.values():
        # A node its line or a DownNodes= line holds DOWN or DRAIN is unavailable in every
        # sandbox of the case, registered or not (rw126, rw127, s133): another probed node
        # whose own recording drains it, or whose line holds it (gm74), may show so in this
        # capture.
        if n["node"] != node and (rec["nodes"].get(n["node"], {}).get("verdict") == "drain" or
                                  held_by_line(case_dir, n["node"])):
            continue
        problems.append("%s reported unavailable (%s): %s" % (n["node"], n["cause"], n["message"]))
    for d in report["drift"]:
        if not sandbox_setting(d):
            problems.append("drift %s %s: %s" % (d["kind"], d["subject"], d["message"]))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--unexplained", default=os.path.join(HERE, "unexplained.tsv"))
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="check every Nth capture only (and not that unexplained.tsv is all seen)")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    unexplained = load_unexplained(a.unexplained)
    dirs = [os.path.join(CASES, c) for c in a.cases] if a.cases else slurm_live.list_cases(CASES)
    seen, failed, passed = set(), 0, 0
    drained = [0, 0]   # drained captures, of which explained
    per_release = {}
    index = 0
    for cd in dirs:
        for release, node in missing_captures(cd):
            failed += 1
            print("FAIL %s %s %s: Slurm drained it but there is no capture "
                  "(slurm_live.py %s --release %s --capture)" % (
                      os.path.basename(cd), node, release, cd, release))
        for release, node, folder in captures(cd):
            index += 1
            if (index - 1) % a.every:
                continue
            problems = check_capture(a.greslint, cd, release, node, folder, unexplained, seen, drained)
            name = "%s %s %s" % (os.path.basename(cd), node, release)
            per_release[release] = per_release.get(release, 0) + 1
            if problems:
                failed += 1
                for pr in problems:
                    print("FAIL %s: %s" % (name, pr))
            else:
                passed += 1
                print("PASS %s" % name)
    if not a.cases and a.every == 1:
        for key in sorted(set(unexplained) - seen):
            failed += 1
            print("FAIL %s: in unexplained.tsv but no such drained capture" % " ".join(key))
    if not per_release:
        print("FAIL no captures found (slurm_live.py --capture)")
        return 1
    print("%d passed, %d failed (captures per release: %s; %d drained, %d explained "
          "with rule and line, %d in unexplained.tsv)" % (
              passed, failed, ", ".join("%s %d" % kv for kv in sorted(per_release.items())),
              drained[0], drained[1], len(seen)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
