#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""jobs_check.py - greslint job against real sbatch's verdicts.

For every job cluster under tests/conformance/jobs/ and every release it has
a recording of (recorded.json = 22.05, recorded-X.Y.json; written by
jobs_live.py --record), runs ``greslint job --cluster CLUSTER --slurm-version
X.Y --format json [--args ARGS] SCRIPT`` and compares greslint's verdict with
the one real slurmctld gave:

  accepted       no finding whose effect is "rejected" or "pends";
  rejected       a finding with effect "rejected"; its slurm_message must be
                 sbatch's message;
  never-starts   a finding with effect "pends".

    jobs_check.py --greslint BIN [--live] [--release R ...] [-v]

--live runs jobs_live.py first (real daemons, root) and checks greslint
against what they say now instead of the recordings; it also fails when a
recording is stale.  Exit 0 when every job agrees.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import jobs_live  # noqa: E402
import slurm_live  # noqa: E402

JOBS_ROOT = os.path.join(HERE, "jobs")


def greslint_verdict(greslint, cluster_dir, script, release):
    """(verdict, message) greslint gives the job."""
    cmd = [greslint, "job", "--no-config", "--cluster", cluster_dir,
           "--slurm-version", release, "--format", "json",
           "--fail-level", "never"]
    args = jobs_live.job_args(cluster_dir, script)
    if args:
        cmd += ["--args", shlex.join(args)]
    cmd.append(os.path.join(cluster_dir, "jobs", script))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return "error", p.stderr.decode(errors="replace").strip()
    for d in json.loads(p.stdout)["diagnostics"]:
        if d.get("effect") == "rejected":
            return "rejected", d.get("slurm_message")
        if d.get("effect") == "pends":
            return "never-starts", None
    return "accepted", None


def recorded_verdict(job):
    v = job.get("verdict")
    return v, (job.get("message") if v == "rejected" else None)


def check(greslint, recordings, verbose=False):
    """recordings: {release: {cluster_dir: recording}}.  Returns (agree,
    total, {release: [agree, total]}, disagreements)."""
    per_release, bad = {}, []
    for release, per in sorted(recordings.items()):
        counts = per_release.setdefault(release, [0, 0])
        for cd, rec in sorted(per.items()):
            for script, job in sorted(rec.get("jobs", {}).items()):
                want = recorded_verdict(job)
                got = greslint_verdict(greslint, cd, script, release)
                counts[1] += 1
                if got == want:
                    counts[0] += 1
                else:
                    bad.append("%s %s/%s: slurm %s, greslint %s" % (
                        release, os.path.basename(cd), script, want, got))
                if verbose:
                    print("%s %-8s %-28s %s" % (
                        "ok  " if got == want else "DIFF", release,
                        os.path.basename(cd) + "/" + script, want[0]))
    return per_release, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--live", action="store_true")
    ap.add_argument("--release", action="append",
                    choices=list(slurm_live.RELEASES))
    ap.add_argument("-j", "--jobs", type=int, default=6)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    releases = a.release or list(slurm_live.RELEASES)
    rc = 0
    if a.live:
        for r in releases:
            problems = slurm_live.preflight(r)
            if problems:
                sys.stderr.write("jobs_check: %s: %s\n" % (r, "; ".join(problems)))
                return 2
        clusters = jobs_live.list_clusters(JOBS_ROOT)
        live = jobs_live.run_all(clusters, releases, a.jobs)
        for r, per in live.items():
            for cd, res in per.items():
                if "error" in res:
                    sys.stderr.write("%s %s: harness error: %s\n" % (
                        r, os.path.basename(cd), res["error"]))
                    rc = 1
                    continue
                rc |= jobs_live.check_recording(
                    os.path.join(cd, slurm_live.recording_name(r)), res, r, cd)
        recordings = live
    else:
        recordings = slurm_live.load_recordings(jobs_live.list_clusters(JOBS_ROOT), releases)
    per_release, bad = check(a.greslint, recordings, a.verbose)
    for line in bad:
        sys.stderr.write(line + "\n")
    for r, (agree, total) in sorted(per_release.items()):
        sys.stderr.write("%s: greslint agrees with sbatch on %d of %d jobs\n"
                         % (r, agree, total))
    if not per_release:
        sys.stderr.write("no recordings found\n")
        return 1
    return 1 if bad or rc else 0


if __name__ == "__main__":
    sys.exit(main())
