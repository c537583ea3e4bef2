#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""jobs_live.py - ask the real slurmctld what it does with job scripts.

A job cluster folder (tests/conformance/jobs/CLUSTER/) holds a slurm.conf
(and gres.conf) and a jobs/ folder of job scripts; a script NAME.sh may have
a NAME.args beside it, the sbatch command line given before the script (one
line, shell quoting).  For each cluster and release this starts one munged
and one slurmctld in slurm_live.py's sandbox (the same rewritten configs,
private network namespace and chroots; no slurmd: no node registers) and
runs, for every script:

  * ``sbatch --test-only ARGS SCRIPT``: accepted (with the partition and
    nodes it names) or rejected (with sbatch's error line);
  * a real ``sbatch ARGS SCRIPT`` and then ``scontrol show job``: rejected
    (with the message), or pending with the Reason the controller gives it
    (a job that can never start shows it at once: BadConstraints,
    PartitionConfig, ...).

    jobs_live.py CLUSTER_DIR [--release R]          print the result (JSON)
    jobs_live.py CLUSTER_DIR --record               write CLUSTER_DIR/recorded*.json
    jobs_live.py --all JOBS_ROOT [--release R ...] [--record] [--check]

Releases and clusters run in parallel, one controller per cluster and
release.  The verdicts are recorded as slurm_live.py records nodes:
recorded.json (22.05), recorded-24.11.json, recorded-26.05.json.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_live  # noqa: E402  (the sandbox, namespaces and chroots)

JOBS_HARNESS_VERSION = 1
# Pending reasons that mean the job can never start as the cluster is
# configured (slurmctld sets them when it first tries the job; no node
# registering in the sandbox does not cause them).  Anything else (Resources,
# Priority, None, ReqNodeNotAvail of nodes that are merely not up) means the
# job waits for nodes to come up.
NEVER_REASONS = ("BadConstraints", "PartitionConfig", "PartitionNodeLimit",
                 "PartitionTimeLimit", "PartitionDown", "PartitionInactive",
                 "InvalidQOS", "InvalidAccount")


def job_scripts(cluster_dir):
    d = os.path.join(cluster_dir, "jobs")
    return sorted(f for f in os.listdir(d) if f.endswith(".sh"))


def job_args(cluster_dir, script):
    path = os.path.join(cluster_dir, "jobs", script[:-3] + ".args")
    if not os.path.isfile(path):
        return []
    with open(path) as f:
        return shlex.split(f.read())


def first_node(conf_path):
    """A node name of slurm.conf: the controller answers for it once up."""
    with open(conf_path, errors="replace") as f:
        text = f.read()
    for _, _, logical in slurm_live.logical_lines(text):
        toks = slurm_live.kv_tokens(logical)
        if toks and toks[0][0].lower() == "nodename" and \
                toks[0][1].lower() != "default":
            return slurm_live.expand_hostlist(toks[0][1])[0]
    raise slurm_live.HarnessError("%s names no node" % conf_path)


def sbatch_line(out):
    """The line of sbatch's output that says what happened: the controller's
    answer when sbatch got one (an error sbatch logs itself may precede it),
    else sbatch's own first error."""
    lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
    for ln in lines:
        if "submission failed:" in ln or "allocate failed:" in ln:
            return re.sub(r"^sbatch: (error: )?", "", ln)
    for ln in lines:
        if "error:" in ln or "to start at" in ln:
            return re.sub(r"^sbatch: (error: )?", "", ln)
    return lines[-1] if lines else ""


def rejection(line):
    """sbatch's error line without its prefixes: the controller's message."""
    for prefix in ("Batch job submission failed: ",
                   "Job submit/allocate failed: ", "sbatch: fatal: "):
        if prefix in line:
            return line.split(prefix, 1)[1]
    return line


START_RE = re.compile(r"Job \d+ to start at \S+ using (\d+) processors on "
                      r"nodes (\S+) in partition (\S+)")


class JobsProbe(slurm_live.Probe):
    """One controller of one cluster; every job script against it."""

    def __init__(self, cluster_dir, root, version):
        node = first_node(os.path.join(cluster_dir, "slurm.conf"))
        super().__init__(cluster_dir, node, "fake", 20.0, root, version)

    def run(self):
        self.sb = slurm_live.Sandbox(self.case_dir, self.devices, self.version)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("SLURM", "HWLOC"))}
        if self.wrap:
            self.env["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
            self.env.pop("LD_LIBRARY_PATH", None)
        self.env["SLURM_CONF"] = self.sb.conf
        self.sb.build()
        self.start_munge()
        ctld, _ = self.start_controller()
        if ctld != "up":
            tail = self.sb.scrub(self.log("slurmctld"))[-600:]
            raise slurm_live.HarnessError("slurmctld %s: %s" % (ctld, tail))
        jobs = {}
        for script in job_scripts(self.case_dir):
            jobs[script] = self.test_only(script)
        submitted = {}
        for script in jobs:
            submitted[script] = self.submit(script, jobs[script])
        cycles_before = self.sched_cycles()
        # The scheduler's first look at each job: a cycle after the last sbatch. Without
        # slurmd the nodes never register, and a controller may then go without a counted
        # cycle (a 24.11 CI run waited 30 s for one); past 6 s, twice batch_sched_delay,
        # the states are read as they are.
        if any(submitted.values()):
            self.wait_sched_cycle(cycles_before, limit=6.0)
        for script, job_id in submitted.items():
            if job_id:
                jobs[script].update(self.job_state(job_id))
        self.stop_all()
        return jobs

    def script_path(self, script):
        # inside the sandbox: a chroot sees /tmp, not the source tree
        return os.path.join(self.sb.etc, "jobs", script)

    def test_only(self, script):
        cmd = ["sbatch", "--test-only"] + job_args(self.case_dir, script) + \
              [self.script_path(script)]
        rc, out = self.run_cmd(cmd, 15)
        line = self.sb.scrub(sbatch_line(out))
        res = {"test_only": "accepted" if rc == 0 else "rejected",
               "test_only_line": line}
        m = START_RE.search(line)
        if m:
            res["partition"] = m.group(3)
        return res

    def submit(self, script, res):
        cmd = ["sbatch", "--parsable"] + job_args(self.case_dir, script) + \
              [self.script_path(script)]
        rc, out = self.run_cmd(cmd, 15, stderr=subprocess.PIPE)
        if rc != 0:
            rc2, err = self.run_cmd(cmd[:1] + cmd[2:], 15)
            res["verdict"] = "rejected"
            res["message"] = rejection(self.sb.scrub(sbatch_line(err)))
            return None
        job_id = out.strip().split(";")[0]
        res["verdict"] = "accepted"
        return job_id

    def job_state(self, job_id):
        rc, out = self.run_cmd(["scontrol", "-o", "show", "job", job_id], 10)
        fields = dict(tok.split("=", 1) for tok in out.split() if "=" in tok)
        reason = fields.get("Reason", "")
        state = fields.get("JobState", "")
        res = {"state": state, "reason": reason}
        if state == "PENDING" and reason in NEVER_REASONS:
            res["verdict"] = "never-starts"
        return res


def run_in_namespace(a):
    """Entry point inside the private namespace (--_run)."""
    if a.root:
        slurm_live.mount_chroot(a.root)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "addr", "add", "127.0.0.2/32", "dev", "lo"],
                   check=True)
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)               # child subreaper
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)   # die with the driver
    except Exception:
        pass

    def on_signal(signum, frame):
        raise slurm_live.HarnessError("stopped by signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGALRM, on_signal)
    signal.alarm(int(a.hard_limit))
    probe = JobsProbe(a.cluster_dir, a.root,
                      slurm_live.release_tuple(a.slurm_version))
    try:
        result = {"jobs": probe.run()}
    except slurm_live.HarnessError as e:
        result = {"error": str(e)}
    except Exception as e:
        result = {"error": "harness exception: %r" % (e,)}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        probe.stop_all()
        if probe.sb and not a.keep:
            probe.sb.remove()
        elif probe.sb:
            sys.stderr.write("sandbox kept: %s\n" % probe.sb.root)
    json.dump(result, sys.stdout, sort_keys=True)
    return 0


def run_cluster(cluster_dir, target, keep=False, hard=120):
    ns = ["unshare", "-n"] + (["-m", "--propagation", "private"]
                              if target["root"] else [])
    cmd = ns + ["--", sys.executable, "-S", os.path.abspath(__file__),
                os.path.abspath(cluster_dir), "--_run", "--root",
                target["root"], "--slurm-version", target["version"] or "",
                "--hard-limit", str(hard)] + (["--keep"] if keep else [])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=hard + 30)
    if p.stderr.strip():
        sys.stderr.write(p.stderr.decode(errors="replace"))
    try:
        res = json.loads(p.stdout.decode())
    except ValueError:
        res = {"error": "run failed (rc=%s): %s" % (
            p.returncode, p.stderr.decode(errors="replace")[-500:])}
    res.update(harness_version=JOBS_HARNESS_VERSION,
               slurm_version=target["version"])
    return res


def list_clusters(root):
    return sorted(os.path.join(root, d) for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d, "jobs")))


def run_all(clusters, releases, jobs=6, keep=False, progress=None):
    """{release: {cluster_dir: result}}, every cluster x release at once."""
    targets = [slurm_live.live_target(r) for r in releases]
    out = {t["release"]: {} for t in targets}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {}
        for t in targets:
            for cd in clusters:
                futs[ex.submit(slurm_live.timed, run_cluster, cd, t, keep)] = \
                    (t["release"], cd)
        for fut in concurrent.futures.as_completed(futs):
            release, cd = futs[fut]
            res, secs = fut.result()
            out[release][cd] = res
            if progress:
                progress(release, cd, res, secs)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cluster_dir", nargs="?")
    ap.add_argument("--all", metavar="JOBS_ROOT")
    ap.add_argument("--release", action="append",
                    choices=list(slurm_live.RELEASES))
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="fail when a verdict differs from the recording")
    ap.add_argument("-j", "--jobs", type=int, default=6)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--_run", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", default="", help=argparse.SUPPRESS)
    ap.add_argument("--slurm-version", default="", help=argparse.SUPPRESS)
    ap.add_argument("--hard-limit", type=float, default=120,
                    help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a._run:
        return run_in_namespace(a)
    if bool(a.all) == bool(a.cluster_dir):
        ap.error("give a cluster folder or --all JOBS_ROOT")
    releases = a.release or [slurm_live.HOST_RELEASE]
    for r in releases:
        problems = slurm_live.preflight(r)
        if problems:
            for p in problems:
                sys.stderr.write("jobs_live: %s: %s\n" % (r, p))
            return 2
    clusters = list_clusters(a.all) if a.all else \
        [os.path.abspath(a.cluster_dir)]

    def progress(release, cd, res, secs):
        sys.stderr.write("%-6s %-24s %3d jobs %5.1f s%s\n" % (
            release, os.path.basename(cd), len(res.get("jobs", {})), secs,
            "  ERROR " + res["error"] if "error" in res else ""))
    t0 = time.time()
    results = run_all(clusters, releases, a.jobs, a.keep, progress)
    rc = 0
    for release, per in results.items():
        for cd, res in sorted(per.items()):
            if "error" in res:
                rc = 1
                continue
            path = os.path.join(cd, slurm_live.recording_name(release))
            if a.check:
                rc |= check_recording(path, res, release, cd)
            if a.record:
                with open(path, "w") as f:
                    json.dump(res, f, indent=1, sort_keys=True)
                    f.write("\n")
    if not (a.record or a.check):
        json.dump({r: {os.path.basename(c): v for c, v in per.items()}
                   for r, per in results.items()}, sys.stdout, indent=1,
                  sort_keys=True)
        sys.stdout.write("\n")
    sys.stderr.write("%d cluster(s) x %d release(s) in %.1f s\n" % (
        len(clusters), len(releases), time.time() - t0))
    return rc


# What a live run must reproduce of a recording: each job's verdict and
# rejection message.  Not the pending Reason: the scheduler replaces the first
# one it gives (PartitionConfig, then PartitionNodeLimit on 22.05) while the
# job waits; not the test-only line, which names a job id and a start time.
VERDICT_KEYS = ("verdict", "message")


def check_recording(path, res, release, cd):
    try:
        with open(path) as f:
            old = json.load(f)
    except (OSError, ValueError):
        sys.stderr.write("%s: no recording for %s\n" % (cd, release))
        return 1
    rc = 0
    for script in sorted(set(old.get("jobs", {})) | set(res["jobs"])):
        a = {k: old.get("jobs", {}).get(script, {}).get(k) for k in VERDICT_KEYS}
        b = {k: res["jobs"].get(script, {}).get(k) for k in VERDICT_KEYS}
        if a != b:
            rc = 1
            sys.stderr.write("%s %s/%s: recorded %s, live %s\n" % (
                release, os.path.basename(cd), script, a, b))
    return rc


if __name__ == "__main__":
    sys.exit(main())
