#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""limits_live.py - ask a real slurmdbd + slurmctld what QOS and association
limits do to jobs.

A limits case (tests/conformance/limits/CASE/) holds a cluster (slurm.conf,
gres.conf; AccountingStorageType=accounting_storage/slurmdbd), its limits
and its jobs:

  limits/*.psv     `sacctmgr show qos -P` output (header of field names,
                   '|'-separated): every QOS is created (or, if it exists,
                   modified) with `sacctmgr -i add|modify qos` first;
  limits/*.cfg     `sacctmgr dump` files, loaded with `sacctmgr -i load`;
  jobs/NAME.sh     job scripts, submitted in name order;
  jobs/NAME.args   sbatch arguments given before the script (shell quoting);
  jobs/NAME.user   the submitting user (default: the first user of the dump
                   that is not root).

For each case and release this starts, in a private network and mount
namespace (nothing listens outside it, nothing is left behind):

  * a MariaDB server (the host's mariadbd) on an empty data directory in
    the sandbox, TCP on 127.0.0.1 only, --skip-grant-tables (the sandbox
    has no other client, so it needs no system tables and no
    mariadb-install-db, which costs 4.6 s and 114 MB per run);
  * munged, slurmdbd (the release's), the QOS and the dump loaded with the
    release's sacctmgr, then slurmctld and one slurmd per node (fake GPU
    devices, as slurm_live.py's probes), so that jobs really start and group
    limits count the GPUs of running jobs;
  * a generated /etc/passwd and /etc/group bind-mounted over the host's (and
    the chroot's) inside the mount namespace: the users the dumps name exist
    there only;

then submits every job as its user with the release's sbatch and records
what happened after the scheduler's first passes:

  rejected   sbatch failed; "message" is its error (the controller's text);
  pending    the job pends with a Reason that is not about free resources
             (QOSGrpGRES, AssocMaxTRESPerJob, InvalidQOS, ...);
  accepted   it runs, or waits only for resources (Resources, Priority).

    limits_live.py CASE_DIR [--release R]        print the result (JSON)
    limits_live.py --all LIMITS_ROOT [--release R ...] [--record] [--check]

Cases and releases run in parallel, one sandbox each.  Recordings are named
as slurm_live.py's: recorded.json (22.05), recorded-X.Y.json.
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
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jobs_live  # noqa: E402
import slurm_live  # noqa: E402

LIMITS_HARNESS_VERSION = 1
DBD_PORT = 6819
DB_PORT = 3306
# Pending reasons that say a job waits for its turn or for free nodes, not
# because of a limit or a never-satisfiable request: such a job is accepted.
WAITING_REASONS = ("None", "Priority", "Resources", "")
# Users of the sandbox's generated passwd: uid/gid from here on, in the order
# the cases name them (a fixed order: every run gives a user the same uid).
FIRST_UID = 21001

# `sacctmgr show qos -P` column -> `sacctmgr add qos` option.  Columns whose
# value is the default of a new QOS are not given (DEFAULTS).
QOS_COLUMNS = {
    "Priority": "Priority", "GraceTime": "GraceTime", "Preempt": "Preempt",
    "PreemptExemptTime": "PreemptExemptTime", "PreemptMode": "PreemptMode",
    "Flags": "Flags", "UsageThres": "UsageThreshold",
    "UsageFactor": "UsageFactor", "GrpTRES": "GrpTRES",
    "GrpTRESMins": "GrpTRESMins", "GrpTRESRunMins": "GrpTRESRunMins",
    "GrpJobs": "GrpJobs", "GrpSubmit": "GrpSubmitJobs", "GrpWall": "GrpWall",
    "MaxTRES": "MaxTRESPerJob", "MaxTRESPerNode": "MaxTRESPerNode",
    "MaxTRESMins": "MaxTRESMinsPerJob", "MaxWall": "MaxWallDurationPerJob",
    "MaxTRESPU": "MaxTRESPerUser", "MaxJobsPU": "MaxJobsPerUser",
    "MaxSubmitPU": "MaxSubmitJobsPerUser", "MaxTRESPA": "MaxTRESPerAccount",
    "MaxJobsPA": "MaxJobsPerAccount", "MaxSubmitPA": "MaxSubmitJobsPerAccount",
    "MinTRES": "MinTRESPerJob", "Description": "Description",
}
DEFAULTS = {"Priority": "0", "GraceTime": "00:00:00", "PreemptMode": "cluster",
            "UsageFactor": "1.000000", "PreemptExemptTime": ""}


class HarnessError(slurm_live.HarnessError):
    pass


# A server for one short test: small, no durability (the data dir is thrown
# away), no binary log.
MARIADB_OPTS = ["--no-defaults", "--user=root", "--skip-log-bin",
                "--skip-name-resolve", "--innodb-buffer-pool-size=32M",
                "--innodb-log-file-size=8M",
                "--innodb-flush-log-at-trx-commit=0",
                "--skip-innodb-doublewrite", "--innodb-flush-method=nosync",
                # many servers at once exhaust fs.aio-max-nr (io_setup EAGAIN)
                "--innodb-use-native-aio=0"]


def make_db_template():
    """An initialised MariaDB data dir (mariadb-install-db: the system
    tables; slurmdbd's stored procedures live in mysql.proc, and without them
    every association query returns partial rows).  Made once per run (5 s)
    and copied into each sandbox (26 MB)."""
    d = tempfile.mkdtemp(prefix="slimdb.", dir="/tmp")
    p = subprocess.run(["mariadb-install-db"] + MARIADB_OPTS + [
        "--datadir=" + os.path.join(d, "db"),
        "--auth-root-authentication-method=normal", "--skip-test-db"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, timeout=120)
    if p.returncode != 0:
        shutil.rmtree(d, ignore_errors=True)
        raise SystemExit("mariadb-install-db failed: %s"
                         % p.stdout.decode(errors="replace")[-600:])
    # slurmdbd's database, empty (a MariaDB database is a folder of the data
    # dir). Without it slurmdbd creates it on its first connection, and the
    # 24.11/26.05 client's next connect on that handle fails ("SSL is
    # required, but the server does not support it"): 5 s before it retries.
    os.makedirs(os.path.join(d, "db", "slurm_acct_db"))
    with open(os.path.join(d, "db", "slurm_acct_db", "db.opt"), "w") as f:
        f.write("default-character-set=utf8mb4\n"
                "default-collation=utf8mb4_general_ci\n")
    return d


# ---------------------------------------------------------------------------
# Reading a case
# ---------------------------------------------------------------------------
def limit_files(case_dir, ext):
    d = os.path.join(case_dir, "limits")
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(ext))


def read_psv(path):
    """[{column: value}] of a `sacctmgr show ... -P` file."""
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f if ln.strip()]
    if not lines:
        return []
    head = lines[0].split("|")
    return [dict(zip(head, ln.split("|"))) for ln in lines[1:]]


DUMP_USER_RE = re.compile(r"^\s*User\s*-\s*'([^']+)'", re.MULTILINE)


def dump_users(case_dir):
    """Users the case's dumps name, in order (root left out)."""
    out = []
    for path in limit_files(case_dir, ".cfg"):
        with open(path) as f:
            for u in DUMP_USER_RE.findall(f.read()):
                if u != "root" and u not in out:
                    out.append(u)
    return out


def job_user(case_dir, script):
    path = os.path.join(case_dir, "jobs", script[:-3] + ".user")
    if os.path.isfile(path):
        with open(path) as f:
            return f.read().strip()
    users = dump_users(case_dir)
    if not users:
        raise HarnessError("%s: no .user and no user in the dump" % script)
    return users[0]


def list_cases(root):
    return sorted(os.path.join(root, d) for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d, "jobs")))


def all_users(cases):
    users = []
    for cd in cases:
        for u in dump_users(cd) + [job_user(cd, s) for s in
                                   jobs_live.job_scripts(cd)]:
            if u not in users and u != "root":
                users.append(u)
    return users


def node_names(conf_path):
    """Every node of slurm.conf, one per NodeName record (the harness gives
    each its own slurmd port, so a record must name one node)."""
    with open(conf_path, errors="replace") as f:
        text = f.read()
    out = []
    for _, _, logical in slurm_live.logical_lines(text):
        toks = slurm_live.kv_tokens(logical)
        if toks and toks[0][0] == "nodename" and toks[0][1].lower() != "default":
            names = slurm_live.expand_hostlist(toks[0][1])
            if len(names) != 1:
                raise HarnessError("%s: NodeName=%s: a limits case writes one "
                                   "node per line" % (conf_path, toks[0][1]))
            out.append(names[0])
    return out


# ---------------------------------------------------------------------------
# The sandbox: slurm_live's, with accounting through the sandbox's slurmdbd
# ---------------------------------------------------------------------------
class LimitsSandbox(slurm_live.Sandbox):
    # AccountingStorageTRES and AccountingStorageEnforce are what a case is
    # about: kept as written.  The rest of accounting points at our slurmdbd.
    def replaces(self, key):
        if key == "accountingstoragetres":
            return False
        return super().replaces(key)

    def rewrite_node(self, phys, first, last, toks):
        super().rewrite_node(phys, first, last, toks)
        self.node_count = getattr(self, "node_count", 0) + 1
        code, comment = slurm_live.split_comment(phys[last])
        phys[last] = code.rstrip() + " Port=%d" % (
            DBD_PORT + 100 + self.node_count) + (" " + comment if comment else "")

    def append_overrides(self):
        super().append_overrides()
        with open(self.conf) as f:
            text = f.read()
        text = text.replace(
            "AccountingStorageType=accounting_storage/none\n",
            "AccountingStorageType=accounting_storage/slurmdbd\n"
            "AccountingStorageHost=127.0.0.1\n"
            "AccountingStoragePort=%d\n"
            # for slurmdbd, the munge socket of its connection
            "AccountingStoragePass=%s\n" % (DBD_PORT, self.munge_sock))
        r = self.root
        text += ("SlurmdSpoolDir=%s/spool/%%n\nSlurmdPidFile=%s/slurmd-%%n.pid\n"
                 % (r, r))
        with open(self.conf, "w") as f:
            f.write(text)
        dbd = os.path.join(self.etc, "slurmdbd.conf")
        with open(dbd, "w") as f:
            f.write("\n".join([
                "AuthType=auth/munge", "AuthInfo=socket=%s" % self.munge_sock,
                "DbdHost=localhost", "DbdAddr=127.0.0.1",
                "DbdPort=%d" % DBD_PORT, "SlurmUser=root",
                "StorageType=accounting_storage/mysql",
                "StorageHost=127.0.0.1", "StoragePort=%d" % DB_PORT,
                "StorageUser=root", "StorageLoc=slurm_acct_db",
                "PidFile=%s/slurmdbd.pid" % r, "DebugLevel=info", ""]))
        os.chmod(dbd, 0o600)


# ---------------------------------------------------------------------------
# One case: every daemon, the limits, the jobs
# ---------------------------------------------------------------------------
class LimitsProbe(slurm_live.Probe):
    def __init__(self, case_dir, root, version, users, db_template):
        super().__init__(case_dir, "", "fake", 20.0, root, version)
        self.users = users
        self.db_template = db_template
        self.timings = {}

    def mark(self, what, t0):
        self.timings[what] = round(time.time() - t0, 2)
        return time.time()

    def start_host(self, name, cmd):
        """A process of the host's, not the chroot's (mariadbd)."""
        wrap, self.wrap = self.wrap, []
        try:
            return self.start(name, cmd)
        finally:
            self.wrap = wrap

    def stop(self, name):
        """SIGKILL: the sandbox is thrown away, no daemon needs to save
        anything (a graceful stop costs ~2.5 s per case)."""
        p = self.procs.get(name)
        if p is None:
            return
        if p.poll() is None:
            try:
                os.kill(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=4)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop_all(self):
        for name in reversed(list(self.procs)):
            try:
                self.stop(name)
            except Exception:
                p = self.procs.get(name)
                if p is not None and p.poll() is None:
                    os.kill(p.pid, signal.SIGKILL)
        deadline = time.time() + 1.0
        while time.time() < deadline:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                time.sleep(0.02)

    def wait_port(self, port, name, limit=20.0):
        deadline = time.time() + limit
        while not self.port_listening(port):
            if self.procs[name].poll() is not None:
                raise HarnessError("%s exited: %s" % (
                    name, self.sb.scrub(self.log(name))[-600:]))
            if time.time() > deadline:
                raise HarnessError("%s did not listen in time: %s" % (
                    name, self.sb.scrub(self.log(name))[-600:]))
            time.sleep(0.02)

    def start_mariadb(self):
        db = os.path.join(self.sb.root, "db")
        shutil.copytree(self.db_template, db, symlinks=True)
        self.start_host("mariadbd", ["mariadbd"] + MARIADB_OPTS + [
            "--datadir=" + db,
            "--socket=" + os.path.join(self.sb.root, "mysql.sock"),
            "--pid-file=" + os.path.join(self.sb.root, "mysql.pid"),
            "--skip-grant-tables", "--bind-address=127.0.0.1",
            "--port=%d" % DB_PORT, "--log-error=" +
            os.path.join(self.sb.root, "log", "mariadbd.err")])

    def sacctmgr(self, args, what, fail=True):
        """Run sacctmgr -i ARGS.  Its error lines (scrubbed) when it fails:
        raised (fail) or returned; None when it did what it was asked."""
        rc, out = self.run_cmd(["sacctmgr", "-i"] + args, 30)
        ctld = self.procs.get("slurmctld")
        if ctld is not None and ctld.poll() is not None:
            raise HarnessError("slurmctld died (rc=%s) after sacctmgr %s" % (
                ctld.returncode, " ".join(args)))
        errs = [ln.strip() for ln in self.sb.scrub(out).splitlines()
                if re.match(r"\s*(sacctmgr: )?(error|fatal)", ln) or
                ln.strip().startswith("Problem ")]
        if rc == 0 and not errs:
            if os.environ.get("LIMITS_DEBUG"):
                sys.stderr.write(out)
            return None
        msg = "; ".join(errs) or "rc=%d" % rc
        if fail and "slurmdbd" in self.procs:
            msg += " | slurmdbd log: " + " / ".join(
                ln for ln in self.sb.scrub(self.log("slurmdbd")).splitlines()
                if "error" in ln or "fatal" in ln)[-800:]
        if fail:
            raise HarnessError("sacctmgr %s (%s): %s" % (
                " ".join(args), what, msg))
        return msg

    def qos_rows(self):
        """[(file, name, [non-TRES options], [TRES options])] of the .psv files."""
        out = []
        for path in limit_files(self.case_dir, ".psv"):
            rel = os.path.relpath(path, self.case_dir)
            for row in read_psv(path):
                name = row.get("Name")
                if not name:
                    raise HarnessError("%s: a row without Name" % rel)
                plain, tres = [], []
                for col, val in row.items():
                    if col == "Name" or col not in QOS_COLUMNS:
                        continue
                    if val == DEFAULTS.get(col, "") or (col == "Flags" and
                                                       not val):
                        continue
                    opt = "%s=%s" % (QOS_COLUMNS[col], val)
                    (tres if "TRES" in col else plain).append(opt)
                out.append((rel, name, plain, tres))
        return out

    def create_qos(self):
        """Every QOS by name with its options that name no TRES, before the
        controller starts: a partition's QOS= must exist then."""
        rc, out = self.run_cmd(["sacctmgr", "-n", "-P", "show", "qos",
                                "format=name"], 15)
        have = set(out.split())
        for rel, name, plain, _ in self.qos_rows():
            if name in have:
                if plain:
                    self.sacctmgr(["modify", "qos", name, "set"] + plain, rel)
            else:
                self.sacctmgr(["add", "qos", name] + plain, rel)
                have.add(name)

    def load_limits(self):
        """The QOS's TRES limits, then the dumps.  What sacctmgr refuses is
        recorded (a limit on a TRES the cluster does not track cannot be
        stored), not fatal: the jobs then show what the rest does."""
        refused = []
        for rel, name, _, tres in self.qos_rows():
            for opt in tres:
                err = self.sacctmgr(["modify", "qos", name, "set", opt], rel,
                                    fail=False)
                if err is not None:
                    refused.append({"file": rel, "qos": name, "set": opt,
                                    "sacctmgr": err})
        for path in limit_files(self.case_dir, ".cfg"):
            rel = os.path.relpath(path, self.case_dir)
            err = self.sacctmgr(["load", "file=" + os.path.join(self.sb.etc, rel)],
                                rel, fail=False)
            if err is not None:
                refused.append({"file": rel, "sacctmgr": err})
        return refused

    def run(self):
        t = t0 = time.time()
        self.sb = LimitsSandbox(self.case_dir, self.devices, self.version)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("SLURM", "HWLOC"))}
        if self.wrap:
            self.env["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
            self.env.pop("LD_LIBRARY_PATH", None)
        self.env["SLURM_CONF"] = self.sb.conf
        self.sb.build()
        os.chdir(self.sb.root)      # a daemon's core file lands in the sandbox
        nodes = node_names(self.sb.conf)
        for n in nodes:
            os.makedirs(os.path.join(self.sb.root, "spool", n))
        self.start_mariadb()
        self.start_munge()
        self.wait_port(DB_PORT, "mariadbd")
        t = self.mark("mariadb+munge", t)
        # A fresh slurmdbd on a loaded machine sometimes fails one of its
        # first queries and exits ("We should have gotten a result"); the
        # database is still empty, so it is simply started again.
        for attempt in range(3):
            self.start("slurmdbd", ["slurmdbd", "-D"])
            try:
                self.wait_port(DBD_PORT, "slurmdbd")
                break
            except HarnessError:
                if attempt == 2 or self.procs["slurmdbd"].poll() is None:
                    raise
                self.timings["slurmdbd restarted"] = attempt + 1
        t = self.mark("slurmdbd", t)
        # slurmdbd knows a TRES (gres/gpu:a100) only once a slurmctld whose
        # AccountingStorageTRES names it has registered: the controller
        # comes first, the limits are loaded into the running system (as an
        # admin does) and reach the controller through slurmdbd.
        # Under load the first request to a fresh slurmdbd sometimes fails
        # ("Problem adding clusters: Unspecified error") although it listens:
        # asked again a moment later it succeeds.
        for attempt in range(5):
            err = self.sacctmgr(["add", "cluster", self.sb.cluster], "cluster",
                                fail=attempt == 4)
            if err is None:
                break
            self.timings["add cluster retried"] = attempt + 1
            rc, out = self.run_cmd(["sacctmgr", "-n", "-P", "show", "cluster",
                                    "format=cluster"], 10)
            if self.sb.cluster.lower() in out.split():
                break           # it was added after all
            time.sleep(1.0)
        self.create_qos()
        self.node = nodes[0]
        ctld, _ = self.start_controller()
        if ctld != "up":
            raise HarnessError("slurmctld %s: %s" % (
                ctld, self.sb.scrub(self.log("slurmctld"))[-600:]))
        self.wait_registered()
        t = self.mark("slurmctld", t)
        refused = self.load_limits()
        t = self.mark("sacctmgr", t)
        for n in nodes:
            synth = "package:%d core:%d pu:%d" % slurm_live.fallback_topology(
                self.sb.conf, n)
            self.start("slurmd-" + n, ["slurmd", "-D", "-N", n, "-f",
                                       self.sb.conf],
                       {"HWLOC_SYNTHETIC": synth})
        self.wait_nodes(nodes)
        t = self.mark("slurmd", t)
        self.wait_associations(dump_users(self.case_dir))
        t = self.mark("associations", t)
        if os.environ.get("LIMITS_DEBUG"):
            for cmd in (["sacctmgr", "-P", "show", "assoc"],
                        ["sacctmgr", "-P", "show", "qos"],
                        ["scontrol", "show", "assoc_mgr"]):
                sys.stderr.write("$ %s\n%s\n" % (" ".join(cmd), self.run_cmd(cmd, 10)[1]))
        jobs = {}
        for script in jobs_live.job_scripts(self.case_dir):
            jobs[script] = self.submit(script)
        self.settle(jobs, self.sched_cycles())
        t = self.mark("jobs", t)
        self.stop_all()
        self.mark("total", t0)
        for res in jobs.values():
            res.pop("job_id", None)
        return jobs, refused

    def wait_associations(self, users, limit=20.0):
        """Until slurmctld's association manager holds every user of the
        dumps. sacctmgr's additions reach the controller through slurmdbd a
        moment after sacctmgr returns; a job submitted before that is refused
        ("Invalid account or account/partition combination specified", once
        on 22.05 and once on 24.11 in CI runs, both beside the ASan build).
        Past `limit`, a user slurmdbd never stored (sacctmgr refused it, as
        some cases ask) is what the case is about: the jobs go in and what
        Slurm makes of them is compared. A user slurmdbd holds but the
        controller has not seen is a slow machine, not a verdict: a harness
        error, so that the case runs again on its own."""
        deadline = time.time() + limit
        missing = list(users)
        while missing and time.time() < deadline:
            rc, out = self.run_cmd(["scontrol", "show", "assoc_mgr",
                                    "flags=assoc"], 5)
            missing = [u for u in missing if "UserName=%s(" % u not in out]
            if missing:
                time.sleep(0.1)
        if not missing:
            return
        rc, out = self.run_cmd(["sacctmgr", "-n", "-P", "show", "assoc",
                                "cluster=" + self.sb.cluster, "format=user"],
                               15)
        stored = set(out.split())
        slow = [u for u in missing if u in stored]
        if slow:
            raise HarnessError(
                "slurmctld had not received the associations of %s from "
                "slurmdbd %.0f s after sacctmgr stored them"
                % (", ".join(slow), limit))
        self.timings["users slurmdbd refused"] = len(missing)

    def wait_registered(self, limit=15.0):
        """Until slurmdbd lists the cluster with the controller's address
        (it has registered, and sent its TRES)."""
        deadline = time.time() + limit
        while time.time() < deadline:
            rc, out = self.run_cmd(["sacctmgr", "-n", "-P", "show", "cluster",
                                    "format=cluster,controlhost"], 5)
            for ln in out.splitlines():
                name, _, host = ln.partition("|")
                if name == self.sb.cluster.lower() and host:
                    return
            time.sleep(0.1)
        raise HarnessError("slurmctld did not register with slurmdbd: %s"
                           % self.sb.scrub(self.log("slurmctld"))[-600:])

    def wait_nodes(self, nodes, limit=20.0):
        deadline = time.time() + limit
        while time.time() < deadline:
            rc, out = self.run_cmd(["sinfo", "-h", "-N", "-o", "%N %T"], 5)
            states = dict(ln.split()[:2] for ln in out.splitlines()
                          if len(ln.split()) >= 2)
            if all(states.get(n, "").rstrip("*") == "idle" for n in nodes):
                return
            for name, p in self.procs.items():
                if name.startswith("slurm") and p.poll() is not None:
                    raise HarnessError("%s exited: %s" % (
                        name, self.sb.scrub(self.log(name))[-600:]))
            time.sleep(0.1)
        raise HarnessError("nodes not idle in %.0f s: %s" % (limit, out))

    def as_user(self, user):
        pw = self.users[user]
        return ["setpriv", "--reuid=%d" % pw[0], "--regid=%d" % pw[1],
                "--init-groups"]

    def submit(self, script):
        user = job_user(self.case_dir, script)
        args = jobs_live.job_args(self.case_dir, script)
        cmd = self.as_user(user) + [
            "sbatch", "--parsable", "--chdir=/tmp", "--output=/dev/null"] + \
            args + [os.path.join(self.sb.etc, "jobs", script)]
        rc, out = self.run_cmd(cmd, 15)
        res = {"user": user}
        if rc != 0:
            res["verdict"] = "rejected"
            res["message"] = jobs_live.rejection(
                self.sb.scrub(jobs_live.sbatch_line(out)))
            return res
        res["job_id"] = out.strip().splitlines()[-1].split(";")[0]
        return res

    def job_state(self, job_id):
        rc, out = self.run_cmd(["scontrol", "-o", "show", "job", job_id], 10)
        fields = dict(tok.split("=", 1) for tok in out.split() if "=" in tok)
        return (fields.get("JobState", ""), fields.get("Reason", ""),
                fields.get("NodeList", ""))

    def settle(self, jobs, cycles_before, limit=30.0):
        """Wait until the main scheduler has completed a cycle that began
        after the last submission (CYCLES_BEFORE, read once it returned), and
        every submitted job runs or has a reason the scheduler gave it (a
        fresh job pends with Reason=None until then). A job submitted behind
        a pending one pends with Priority until that cycle; on a loaded
        machine it can come after any fixed wait, and a later job then met
        earlier ones that were not yet running."""
        t0 = time.time()
        passed = self.wait_sched_cycle(cycles_before, limit)
        while True:
            done = passed
            for res in jobs.values():
                if "job_id" not in res:
                    continue
                state, reason, nodes = self.job_state(res["job_id"])
                res["state"], res["reason"] = state, reason
                if state == "RUNNING":
                    res["nodes"] = nodes
                if state == "PENDING" and reason == "None":
                    done = False
            if done or time.time() - t0 > limit:
                break
            time.sleep(0.25)
        if not passed:
            raise HarnessError("no main scheduler cycle in %.0f s after the "
                               "last submission" % limit)
        late = [s for s, r in jobs.items() if "job_id" in r and
                r["state"] == "PENDING" and r["reason"] == "None"]
        if late:
            raise HarnessError("the scheduler did not look at %s in %.0f s"
                               % (", ".join(late), limit))
        for res in jobs.values():
            if "job_id" not in res:
                continue
            if res["state"] == "PENDING" and res["reason"] not in WAITING_REASONS:
                res["verdict"] = "pending"
            else:
                res["verdict"] = "accepted"


# ---------------------------------------------------------------------------
# Namespaces: users, chroot, loopback
# ---------------------------------------------------------------------------
def passwd_files(users, out_dir):
    """A passwd and group of the host's plus one entry per user (uid = gid =
    FIRST_UID + index); returns {user: (uid, gid)}."""
    ids = {u: (FIRST_UID + i, FIRST_UID + i) for i, u in enumerate(users)}
    with open("/etc/passwd") as f:
        passwd = [ln for ln in f.read().splitlines()
                  if ln.split(":")[0] not in ids]
    with open("/etc/group") as f:
        group = [ln for ln in f.read().splitlines()
                 if ln.split(":")[0] not in ids]
    for u, (uid, gid) in ids.items():
        passwd.append("%s:x:%d:%d:%s:/tmp:/bin/sh" % (u, uid, gid, u))
        group.append("%s:x:%d:" % (u, gid))
    with open(os.path.join(out_dir, "passwd"), "w") as f:
        f.write("\n".join(passwd) + "\n")
    with open(os.path.join(out_dir, "group"), "w") as f:
        f.write("\n".join(group) + "\n")
    return ids


def run_in_namespace(a):
    users = json.loads(a.users)
    tmp = tempfile.mkdtemp(prefix="slim.", dir="/tmp")
    os.chmod(tmp, 0o755)
    try:
        ids = passwd_files(users, tmp)
        # our own mount namespace: the generated files hide the host's here
        subprocess.run(["mount", "--make-rprivate", "/"], check=True)
        if a.root:
            slurm_live.mount_chroot(a.root)
        for root in ("", a.root) if a.root else ("",):
            for f in ("passwd", "group"):
                subprocess.run(["mount", "--bind", os.path.join(tmp, f),
                                root + "/etc/" + f], check=True)
        return run_probe(a, ids)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_probe(a, ids):
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
        raise HarnessError("stopped by signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGALRM, on_signal)
    signal.alarm(int(a.hard_limit))
    probe = LimitsProbe(a.case_dir, a.root,
                        slurm_live.release_tuple(a.slurm_version), ids,
                        os.path.join(a.db_template, "db"))
    try:
        jobs, refused = probe.run()
        result = {"jobs": jobs, "sacctmgr_refused": refused}
    except slurm_live.HarnessError as e:
        result = {"error": str(e)}
    except Exception as e:
        result = {"error": "harness exception: %r" % (e,)}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        probe.stop_all()
        kill_the_rest()
        os.chdir("/")
        if probe.sb and not a.keep:
            probe.sb.remove()
        elif probe.sb:
            sys.stderr.write("sandbox kept: %s\n" % probe.sb.root)
    result["timings"] = probe.timings
    json.dump(result, sys.stdout, sort_keys=True)
    return 0


def kill_the_rest():
    """We are the init of the case's PID namespace: every other process in
    it (job tasks, slurmstepd) goes now, and is reaped."""
    if os.getpid() != 1:
        return
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break


def run_case(case_dir, target, users, db_template, keep=False, hard=150):
    # a PID namespace too: slurmstepd and the jobs' tasks leave slurmd's
    # session; whatever is left dies with the namespace's init (ours)
    cmd = ["unshare", "-n", "-m", "-p", "--fork", "--mount-proc",
           "--propagation", "private", "--",
           sys.executable, "-S", os.path.abspath(__file__),
           os.path.abspath(case_dir), "--_run", "--root", target["root"],
           "--slurm-version", target["version"] or "", "--hard-limit",
           str(hard), "--users", json.dumps(users),
           "--db-template", db_template] + \
        (["--keep"] if keep else [])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=hard + 30)
    if p.stderr.strip():
        sys.stderr.write(p.stderr.decode(errors="replace"))
    try:
        res = json.loads(p.stdout.decode())
    except ValueError:
        res = {"error": "run failed (rc=%s): %s" % (
            p.returncode, p.stderr.decode(errors="replace")[-500:])}
    res.update(harness_version=LIMITS_HARNESS_VERSION,
               slurm_version=target["version"])
    return res


def run_all(cases, releases, jobs=4, keep=False, progress=None):
    """{release: {case_dir: result}}, every case x release at once."""
    users = all_users(cases)
    targets = [slurm_live.live_target(r) for r in releases]
    out = {t["release"]: {} for t in targets}
    template = make_db_template()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = {}
            for t in targets:
                for cd in cases:
                    futs[ex.submit(slurm_live.timed, run_case, cd, t, users,
                                   template, keep)] = (t["release"], cd)
            for fut in concurrent.futures.as_completed(futs):
                release, cd = futs[fut]
                res, secs = fut.result()
                out[release][cd] = res
                if progress:
                    progress(release, cd, res, secs)
            # A harness error (not a verdict) on a loaded machine: slurmdbd
            # failing its first queries, its connection to MariaDB timing out
            # (2002, errno 115). Such a case is run again after the others,
            # one at a time so that it has the machine to itself, at most
            # twice: a CI run once saw the same case time out on its first
            # run and on a retry beside three others.
            target_of = {t["release"]: t for t in targets}
            for _ in range(2):
                retry = [(r, cd) for r in out for cd, res in out[r].items()
                         if "error" in res]
                for release, cd in retry:
                    res, secs = slurm_live.timed(
                        run_case, cd, target_of[release], users,
                        template, keep)
                    res["retried"] = out[release][cd].get(
                        "retried", out[release][cd]["error"][:300])
                    out[release][cd] = res
                    if progress:
                        progress(release, cd, res, secs)
    finally:
        shutil.rmtree(template, ignore_errors=True)
    return out


def preflight(release):
    problems = slurm_live.preflight(release)
    root = slurm_live.release_root(release)
    if shutil_which("mariadbd") is None:
        problems.append("mariadbd not found (apt-get install mariadb-server)")
    for prog in ("slurmdbd", "sacctmgr", "sbatch", "setpriv"):
        if not root and shutil_which(prog) is None:
            problems.append("%s not found (apt-get install slurmdbd "
                            "slurm-client util-linux)" % prog)
        elif root and not any(os.access(os.path.join(root, d, prog), os.X_OK)
                              for d in ("usr/sbin", "usr/bin")):
            problems.append("%s: no %s (scripts/make-chroots.sh)" % (root, prog))
    return problems


def shutil_which(prog):
    return shutil.which(prog)


# What a live run must reproduce of a recording.
VERDICT_KEYS = ("verdict", "message", "reason")


def verdict_of(job):
    """The comparable part of one job's record: the reason only of a
    pending job (a running one has none worth comparing)."""
    v = {k: job.get(k) for k in VERDICT_KEYS}
    if v["verdict"] != "pending":
        v["reason"] = None
    return v


def check_recording(path, res, release, cd):
    try:
        with open(path) as f:
            old = json.load(f)
    except (OSError, ValueError):
        sys.stderr.write("%s: no recording for %s\n" % (cd, release))
        return 1
    rc = 0
    if old.get("sacctmgr_refused") != res.get("sacctmgr_refused"):
        rc = 1
        sys.stderr.write("%s %s: sacctmgr refused %s, now %s\n" % (
            release, os.path.basename(cd), old.get("sacctmgr_refused"),
            res.get("sacctmgr_refused")))
    for script in sorted(set(old.get("jobs", {})) | set(res["jobs"])):
        a = verdict_of(old.get("jobs", {}).get(script, {}))
        b = verdict_of(res["jobs"].get(script, {}))
        if a != b:
            rc = 1
            sys.stderr.write("%s %s/%s: recorded %s, live %s\n" % (
                release, os.path.basename(cd), script, a, b))
    return rc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case_dir", nargs="?")
    ap.add_argument("--all", metavar="LIMITS_ROOT")
    ap.add_argument("--release", action="append",
                    choices=list(slurm_live.RELEASES))
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="fail when a verdict differs from the recording")
    ap.add_argument("-j", "--jobs", type=int, default=4)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--_run", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", default="", help=argparse.SUPPRESS)
    ap.add_argument("--slurm-version", default="", help=argparse.SUPPRESS)
    ap.add_argument("--users", default="[]", help=argparse.SUPPRESS)
    ap.add_argument("--db-template", default="", help=argparse.SUPPRESS)
    ap.add_argument("--hard-limit", type=float, default=150,
                    help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a._run:
        return run_in_namespace(a)
    if bool(a.all) == bool(a.case_dir):
        ap.error("give a case folder or --all LIMITS_ROOT")
    releases = a.release or [slurm_live.HOST_RELEASE]
    for r in releases:
        problems = preflight(r)
        if problems:
            for p in problems:
                sys.stderr.write("limits_live: %s: %s\n" % (r, p))
            return 2
    cases = list_cases(a.all) if a.all else [os.path.abspath(a.case_dir)]

    def progress(release, cd, res, secs):
        sys.stderr.write("%-6s %-28s %3d jobs %5.1f s %s%s%s\n" % (
            release, os.path.basename(cd), len(res.get("jobs", {})), secs,
            " ".join("%s=%s" % kv for kv in res.get("timings", {}).items()),
            "  ERROR " + res["error"] if "error" in res else "",
            "  (run again after: %s)" % res["retried"] if "retried" in res
            else ""))
    t0 = time.time()
    results = run_all(cases, releases, a.jobs, a.keep, progress)
    rc = 0
    for release, per in results.items():
        for cd, res in sorted(per.items()):
            if "error" in res:
                rc = 1
                continue
            res.pop("timings", None)
            res.pop("retried", None)
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
    sys.stderr.write("%d case(s) x %d release(s) in %.1f s\n" % (
        len(cases), len(releases), time.time() - t0))
    return rc


if __name__ == "__main__":
    sys.exit(main())
