#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""limits_check.py - greslint job --limits against real slurmdbd + slurmctld.

For every limits case under tests/conformance/limits/ and every release it
has a recording of (recorded.json = 22.05, recorded-X.Y.json; written by
limits_live.py --record), runs for each job, in the order the harness
submitted them:

    greslint job --no-config --cluster CASE --slurm-version X.Y
                 --format json --fail-level never
                 --limits CASE/limits/F ... --user USER
                 [--running FILE] [--args ARGS] SCRIPT

--running names a JSON file listing the case's earlier jobs that were
running when this one was judged (a group limit counts them):
[{"script": PATH, "user": U, "args": "...", "nodes": "a01"}].  It is given
only when there are such jobs.

greslint's verdict is compared with the recorded one:

  rejected   a finding with effect "rejected"; its slurm_message must be
             sbatch's message;
  pending    a finding with effect "pends"; its slurm_message must be the
             job's pending Reason (QOSGrpGRES, ...);
  accepted   neither.

sacctmgr's refusals (a limit on a TRES slurmdbd does not know) are part of
the recording; greslint reports those as findings of `greslint limits`, not
as job verdicts.

    limits_check.py --greslint BIN [--live] [--release R ...] [-v]

--live runs limits_live.py first (real daemons, root) and checks greslint
against what they say now; it also fails when a recording is stale.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import jobs_live  # noqa: E402
import limits_live  # noqa: E402
import slurm_live  # noqa: E402

LIMITS_ROOT = os.path.join(HERE, "limits")


def greslint_verdict(greslint, case_dir, script, user, release, running):
    """(verdict, message) greslint gives one job."""
    cmd = [greslint, "job", "--no-config", "--cluster", case_dir,
           "--slurm-version", release, "--format", "json",
           "--fail-level", "never"]
    for f in (limits_live.limit_files(case_dir, ".cfg") +
              limits_live.limit_files(case_dir, ".psv")):
        cmd += ["--limits", f]
    cmd += ["--user", user]
    tmp = None
    if running:
        fd, tmp = tempfile.mkstemp(prefix="greslint-running.", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(running, f, indent=1)
        cmd += ["--running", tmp]
    args = jobs_live.job_args(case_dir, script)
    if args:
        cmd += ["--args", shlex.join(args)]
    cmd.append(os.path.join(case_dir, "jobs", script))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        if tmp:
            os.unlink(tmp)
    if p.returncode != 0:
        return "error", p.stderr.decode(errors="replace").strip()[:300]
    for d in json.loads(p.stdout)["diagnostics"]:
        if d.get("effect") == "rejected":
            return "rejected", d.get("slurm_message")
        if d.get("effect") == "pends":
            return "pending", d.get("slurm_message")
    return "accepted", None


def recorded_verdict(job):
    v = job.get("verdict")
    if v == "rejected":
        return v, job.get("message")
    if v == "pending":
        return v, job.get("reason")
    return v, None


def check(greslint, recordings, verbose=False):
    """recordings: {release: {case_dir: recording}}.  Returns
    ({release: [agree, total]}, disagreements)."""
    per_release, bad = {}, []
    for release, per in sorted(recordings.items()):
        counts = per_release.setdefault(release, [0, 0])
        for cd, rec in sorted(per.items()):
            running = []
            for script in jobs_live.job_scripts(cd):
                job = rec.get("jobs", {}).get(script)
                if job is None:
                    continue
                want = recorded_verdict(job)
                user = job.get("user") or limits_live.job_user(cd, script)
                got = greslint_verdict(greslint, cd, script, user, release,
                                       list(running))
                counts[1] += 1
                if got == want:
                    counts[0] += 1
                else:
                    bad.append("%s %s/%s: slurm %s, greslint %s" % (
                        release, os.path.basename(cd), script, want, got))
                if verbose:
                    print("%s %-8s %-40s %s" % (
                        "ok  " if got == want else "DIFF", release,
                        os.path.basename(cd) + "/" + script, want[0]))
                if job.get("state") == "RUNNING":
                    running.append({
                        "script": os.path.join(cd, "jobs", script),
                        "user": user,
                        "args": shlex.join(jobs_live.job_args(cd, script)),
                        "nodes": job.get("nodes", "")})
    return per_release, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--live", action="store_true")
    ap.add_argument("--release", action="append",
                    choices=list(slurm_live.RELEASES))
    ap.add_argument("-j", "--jobs", type=int, default=4)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    releases = a.release or list(slurm_live.RELEASES)
    rc = 0
    if a.live:
        for r in releases:
            problems = limits_live.preflight(r)
            if problems:
                sys.stderr.write("limits_check: %s: %s\n"
                                 % (r, "; ".join(problems)))
                return 2
        cases = limits_live.list_cases(LIMITS_ROOT)
        live = limits_live.run_all(cases, releases, a.jobs)
        for r, per in live.items():
            for cd, res in per.items():
                if "retried" in res:
                    sys.stderr.write("%s %s: run again after a harness error: "
                                     "%s\n" % (r, os.path.basename(cd),
                                                res["retried"]))
                if "error" in res:
                    sys.stderr.write("%s %s: harness error: %s\n" % (
                        r, os.path.basename(cd), res["error"]))
                    rc = 1
                    continue
                rc |= limits_live.check_recording(
                    os.path.join(cd, slurm_live.recording_name(r)), res, r, cd)
        recordings = live
    else:
        recordings = slurm_live.load_recordings(limits_live.list_cases(LIMITS_ROOT), releases)
    per_release, bad = check(a.greslint, recordings, a.verbose)
    for line in bad:
        sys.stderr.write(line + "\n")
    for r, (agree, total) in sorted(per_release.items()):
        sys.stderr.write("%s: greslint agrees with slurmctld on %d of %d "
                         "limit jobs\n" % (r, agree, total))
    if not per_release:
        sys.stderr.write("no recordings found\n")
        return 1
    return 1 if bad or rc else 0


if __name__ == "__main__":
    sys.exit(main())
