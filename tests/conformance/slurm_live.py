#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""slurm_live.py - ask the real Slurm daemons what they do to a node.

Given a case folder (slurm.conf, gres.conf, optional cgroup.conf and Include
files) and one or more node names, this starts real munged, slurmctld and
slurmd in a private sandbox, one sandbox per node:

  * a temporary directory holding the rewritten configs, state, spool, a
    fresh munge key/socket and fake device files (mknod);
  * a private network namespace (``unshare -n``) in which only loopback is up,
    because Slurm cannot be told to listen on loopback only; a worker process
    in it runs one probe after the other, never two at once;
  * the node's CPU topology faked with HWLOC_SYNTHETIC to match slurm.conf.

It runs ``slurmd -G`` (the merged GRES records slurmd would send), then a
real registration (``slurmd -D``), reads the node's State/Reason from the
controller, kills everything it started by PID, removes the sandbox and
reports a verdict (see VERDICTS below and docs/conformance.md).

    slurm_live.py CASE_DIR [--node NODE ...]      print the result (JSON)
    slurm_live.py CASE_DIR --record               write CASE_DIR/recorded.json
    slurm_live.py --all CASES_ROOT [--record]     every case folder, in parallel

Python 3 standard library only; needs root, util-linux (unshare), iproute2
(ip) and Debian's slurmd, slurmctld, slurm-client and munge packages.
"""

import argparse
import atexit
import concurrent.futures
import json
import os
import re
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

HARNESS_VERSION = 1
# The ports the sandbox's slurmctld and slurmd listen on (append_overrides).
SLURM_PORTS = (6817, 6818)
HERE = os.path.dirname(os.path.abspath(__file__))

VERDICTS = ("ok", "degraded", "drain", "slurmd-fatal", "slurmctld-fatal",
            "not-in-config")
# Releases checked live: the host's own Debian 12 packages, and the Debian
# packages of newer Debian suites installed into chroots by make-chroots.sh
# (docs/conformance.md).  Each has its own recording in every case folder.
RELEASES = {"22.05": None, "24.11": "trixie", "26.05": "sid"}
HOST_RELEASE = "22.05"
CHROOTS = os.environ.get("GRESLINT_CHROOTS", "/var/cache/greslint-chroots")


def recording_name(release):
    """The file of a case folder that holds release's verdicts."""
    return ("recorded.json" if release == HOST_RELEASE
            else "recorded-%s.json" % release)


def load_recordings(folders, releases):
    """{release: {folder: recording}} for each folder that has a recording of the release."""
    out = {}
    for folder in folders:
        for r in releases:
            path = os.path.join(folder, recording_name(r))
            if os.path.isfile(path):
                with open(path) as f:
                    out.setdefault(r, {})[folder] = json.load(f)
    return out


def release_root(release):
    """Root folder of the system whose Slurm runs release ('' = the host)."""
    if release not in RELEASES:
        raise SystemExit("unknown release %s (live: %s)"
                         % (release, ", ".join(RELEASES)))
    suite = RELEASES[release]
    return os.path.join(CHROOTS, suite) if suite else ""


# Files of a case folder that belong to the suite, not to Slurm.
CASE_META = {"case.conf", "README.md", "NOTES.md"} | {
    recording_name(r) for r in RELEASES}


def capture_dir_name(release):
    """The folder of a case that holds what the controller of release showed
    (one sub-folder per probed node; see CAPTURES)."""
    return "captured-" + release


def is_case_meta(rel):
    """Is the case-relative path rel the suite's, not a file Slurm reads?"""
    top = rel.split(os.sep, 1)[0]
    return rel in CASE_META or top.startswith("captured-")


# What --capture keeps of the controller's view once the probed node has
# registered: file name -> scontrol/sinfo arguments.  `greslint why --state`
# reads exactly these files (docs/why.md).  The sinfo format is the one why
# runs live: one node per line, the reason last and untruncated.
CAPTURES = {
    "scontrol-show-node.json": ["scontrol", "show", "node", "--json"],
    "scontrol-show-node.txt": ["scontrol", "-o", "show", "node"],
    "sinfo-R.txt": ["sinfo", "-R"],
    "sinfo-R-why.txt": ["sinfo", "-R", "-N", "-h", "-o", "%N|%T|%u|%H|%E"],
    "scontrol-show-config.txt": ["scontrol", "show", "config"],
}

# ---------------------------------------------------------------------------
# What the sandbox changes in slurm.conf.  Keys are case-insensitive, as in
# Slurm.  A logical line that holds exactly one of these keys is replaced by
# a comment (the sandbox value is appended at the end of slurm.conf); a line
# that holds more than that is left alone so Slurm still rejects it.
#
# TaskPluginParam and AccountingStorageEnforce stay: slurm.conf's value checks
# reject bad ones on any host, and a good one does nothing in the sandbox
# (task/none; no slurmdbd, which slurmctld logs and ignores).
# ---------------------------------------------------------------------------
SITE_KEYS = set("""
slurmctldhost controlmachine controladdr backupcontroller backupaddr
slurmctldaddr slurmctldport slurmdport statesavelocation slurmdspooldir
slurmctldpidfile slurmdpidfile slurmctldlogfile slurmdlogfile
slurmschedlogfile slurmschedloglevel slurmctlddebug slurmddebug
slurmctldsyslogdebug slurmdsyslogdebug logtimeformat slurmuser slurmduser
plugindir plugstackconfig tmpfs communicationparameters
authtype authinfo authalttypes authaltparameters credtype
proctracktype taskplugin jobacctgathertype
jobacctgatherfrequency jobacctgatherparams
accountingstoragetype accountingstoragehost accountingstoragebackuphost
accountingstorageport accountingstorageuser accountingstoragepass
accountingstorageloc accountingstorageexternalhost
accountingstorageparameters accountingstoragetres
jobcomptype jobcomphost jobcomploc jobcompport jobcompuser jobcomppass
jobcompparams jobcontainertype acctgatherenergytype acctgatherprofiletype
acctgatherinterconnecttype acctgatherfilesystemtype acctgathernodefreq
extsensorstype extsensorsfreq mpidefault mpiparams switchtype
topologyplugin topologyparam routeplugin powerplugin powerparameters
burstbuffertype nodefeaturesplugins jobsubmitplugins clifilterplugins
mcsplugin mcsparameters prioritytype federationparameters
prolog epilog prologslurmctld epilogslurmctld prologflags taskprolog
taskepilog srunprolog srunepilog healthcheckprogram healthcheckinterval
healthchecknodestate rebootprogram resumeprogram suspendprogram
resumefailprogram suspendtime suspendtimeout resumetimeout suspendexcnodes
suspendexcparts suspendexcstates slurmctldprimaryonprog
slurmctldprimaryoffprog unkillablestepprogram mailprog resvepilog
resvprolog
""".split())
# Priority plugins that need nothing outside the sandbox (multifactor runs
# without slurmdbd, with its fair-share factors off): a PriorityType naming one
# is kept, so that what the plugin checks at start-up (PriorityWeightTRES) is
# Slurm's own verdict. Any other PriorityType is replaced like a site key.
SANDBOX_PRIORITY_PLUGINS = {"priority/basic", "priority/multifactor"}
# Site keys that only newer releases know (first release that has them):
# replaced only there, so that an older Slurm still rejects them itself.
SITE_KEYS_SINCE = {
    "tlstype": (24, 5), "tlsparameters": (24, 5),
    "certmgrtype": (24, 11), "certmgrparameters": (24, 11),
    "certgentype": (25, 5), "certgenparameters": (25, 5),
    "metricstype": (25, 11), "namespacetype": (25, 11),
    "httpparsertype": (25, 11), "urlparsertype": (25, 11),
    "clifilterparameters": (25, 11), "jobcomppassscript": (25, 11),
    "healthchecktimeout": (26, 5), "metricsparameters": (26, 5),
    "metricsauthusers": (26, 5), "slurmctldhttpauthparameters": (26, 5),
    "slurmdhttpauthparameters": (26, 5),
}
# Site keys that newer releases dropped (first release without them): passed
# through from then on, so that Slurm reports them itself.
SITE_KEYS_REMOVED = {"accountingstorageloc": (25, 5)}
# First release whose cgroup.conf takes CgroupPlugin=disabled.  From 24.05
# slurmd always loads a cgroup plugin, and autodetection fails in many
# containers; the sandbox uses none (task/none, proctrack/linuxproc).
CGROUP_DISABLED_SINCE = (24, 5)
# From 23.02 a relative Include is relative to slurm.conf's folder (22.05:
# to the folder of the file that holds it).
INCLUDE_FROM_CONF_DIR_SINCE = (23, 2)
# Keys whose user value is kept and extended with the sandbox's items.
# (DebugFlags=Gres makes slurmd -G print whole records; PrivateData=cloud
# shows powered-down CLOUD nodes to scontrol.)
MERGE_KEYS = {"slurmctldparameters": "node_reg_mem_percent=0",
              "debugflags": "Gres", "privatedata": "cloud"}
# The keys that name the controller: a case that keeps one (KEEP=) gets no
# sandbox SlurmctldHost, which would take the place of the legacy keys.
CONTROLLER_KEYS = {"slurmctldhost", "controlmachine", "controladdr",
                   "backupcontroller", "backupaddr"}
# cgroup.conf keys tied to the host's cgroup setup.
CGROUP_SITE_KEYS = {"cgroupplugin", "cgroupmountpoint", "cgroupautomount"}

# ---------------------------------------------------------------------------
# Log classification
# ---------------------------------------------------------------------------
# Artefacts of the sandbox (fresh state dir, plugins this host cannot load,
# our own shutdown).  Dropped from the report.
NOISE_RE = re.compile("|".join([
    r"Could not open \w+ state file", r"Trying backup state save file",
    r"No \w+ state file", r"pmix|PMIx", r"MPI: Cannot create context",
    r"Couldn't load specified plugin name for mpi/",
    r"_slurm_rpc_node_registration node=\S+: Invalid argument",
    r"Terminate signal", r"got shutdown request", r"not responding",
    # slurmctld stopping while its agent still sends the probe's RPCs: when
    # the harness stops it, not what the files do (rw50 on 24.11, sometimes)
    r"agent_fini: left \d+ agent threads active",
    r"High latency for \d+ calls to gettimeofday",
    r"Unable to (open|read) .*/proc/", r"Configured MailProg is invalid",
    r"fetch_config|_establish_config_source",
]))
# Lines whose cause is the machine, not the files: a static linter cannot
# see them, so they never decide the verdict.  They are reported under
# log.environment.
ENVIRONMENT_RE = re.compile("|".join([
    r"is not a valid character or block device",
    r"Waiting for gres\.conf file",
    r"configured (with|to autodetect) nvml",
    r"Configured with (rsmi|oneAPI)",
    # A GPU plugin that needs no library (gpu/nvidia, 24.11+) found no GPU in the
    # sandbox, which has none; on a GPU node it finds them.
    r"System GPU detection failed",
]))
# GRES-related messages (node names are blanked out before matching).
GRES_RE = re.compile(r"gres|\bgpus?\b|\bmps\b|\bshard|nvml|rsmi|oneapi|"
                     r"\bFiles?=|MultipleFiles|\bCores=|\bCPUs=\S*[-,]|"
                     r"\bLinks?\b|AutoDetect|SHARED|SHARING",
                     re.IGNORECASE)
# GRES-related errors that never degrade: something given twice, of which
# Slurm keeps one (the last value of a repeated key, one copy of a GresTypes
# name), as documented.
NOT_DEGRADING_RE = re.compile(r"specified more than once, latest value used|"
                              r"Duplicate plugin \S+ ignored")

LOG_PREFIX_RE = re.compile(
    r"^(?:\[[^\]]*\]\s*)?(?:slurm(?:ctld|d|stepd)?(?:-[\w.\-]+)?:\s*)?")
LEVEL_RE = re.compile(r"^(fatal|error|warning|debug\d?|verbose)\s*:\s*(.*)$")


def log_level(line):
    """(level, message) of one Slurm log line; info("WARNING: ...") is a
    warning, as Slurm's GRES code uses it for warnings."""
    s = LOG_PREFIX_RE.sub("", line.strip(), count=1)
    m = LEVEL_RE.match(s)
    if m:
        lvl = m.group(1)
        if lvl.startswith("debug") or lvl == "verbose":
            lvl = "debug"
        return lvl, m.group(2).strip()
    if s.startswith("WARNING:"):
        return "warning", s
    return "info", s


ON_NODE_RE = re.compile(r"\bon node (\S+?)(?::|\.?\s|\.?$)")


def about_other_node(msg, node):
    """True if a (slurmctld) message names the node(s) it is about and node
    is not among them ('on node X', X possibly a hostlist as written)."""
    m = ON_NODE_RE.search(msg)
    if not m:
        return False
    try:
        return node not in expand_hostlist(m.group(1))
    except ValueError:
        return m.group(1) != node


def is_gres_message(msg, nodes=()):
    text = re.sub(r"\bnodes?[ =:]+\S+", " ", msg)
    # read_config.c names a NodeName line by its hostlist ("NodeNames=gpu[01-04]"),
    # which is no GRES word even when the hosts are called gpu.
    text = re.sub(r"\bNodeNames?=\S+", " ", text)
    for n in nodes:
        text = re.sub(r"(?<![\w-])%s(?![\w-])" % re.escape(n), " ", text)
    return bool(GRES_RE.search(text))


# ---------------------------------------------------------------------------
# Config text helpers (Slurm's lexical rules, as far as the rewrite needs)
# ---------------------------------------------------------------------------
def split_comment(phys):
    """(code, comment) of one physical line: '#' starts a comment unless an
    odd number of backslashes precedes it."""
    i = 0
    while True:
        i = phys.find("#", i)
        if i < 0:
            return phys, ""
        n = 0
        while i - n - 1 >= 0 and phys[i - n - 1] == "\\":
            n += 1
        if n % 2 == 0:
            return phys[:i], phys[i:]
        i += 1


def continues(code):
    """True if a comment-stripped physical line continues on the next one
    (ends, after trailing blanks, in an odd number of backslashes)."""
    s = code.rstrip()
    n = len(s) - len(s.rstrip("\\"))
    return n % 2 == 1


def logical_lines(text):
    """Yield (first_index, last_index, logical_code) over the physical lines
    of text; logical_code joins continued lines the way Slurm does (the
    backslash removed, no space added)."""
    phys = text.split("\n")
    i = 0
    while i < len(phys):
        first = i
        code, _ = split_comment(phys[i])
        joined = ""
        while continues(code) and i + 1 < len(phys):
            joined += code.rstrip()[:-1]
            i += 1
            code, _ = split_comment(phys[i])
        joined += code
        yield first, i, joined
        i += 1


TOKEN_RE = re.compile(r'\s*([A-Za-z0-9_.]+)\s*[-*+/]?=\s*("[^"]*"|\S+)')


SINGLE_RE = re.compile(r'\s*[A-Za-z0-9_.]+\s*[-*+/]?=\s*("[^"]*"|\S+)\s*')


def first_key(logical):
    m = re.match(r"\s*([A-Za-z0-9_.]+)", logical)
    return m.group(1).lower() if m else ""


def kv_tokens(logical):
    """[(key_lower, value)] of a logical line (quotes removed)."""
    out = []
    for m in TOKEN_RE.finditer(logical):
        v = m.group(2)
        if len(v) >= 2 and v[0] == v[-1] == '"':
            v = v[1:-1]
        out.append((m.group(1).lower(), v))
    return out


def is_include(logical):
    """The Include file name if logical is an Include directive (column 0,
    any case, then whitespace), else None."""
    m = re.match(r"include\s+(\S+)\s*$", logical, re.IGNORECASE)
    return m.group(1) if m else None


def split_top(expr, seps=","):
    """Split on separators outside [...]."""
    parts, depth, cur = [], 0, []
    for c in expr:
        if c == "[":
            depth += 1
        elif c == "]":
            depth = max(0, depth - 1)
        if c in seps and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return [p for p in parts if p.strip()]


def expand_hostlist(expr):
    """Expand a Slurm hostlist (1-D, zero padding from the low bound's
    width, brackets in the prefix expanded recursively).  Raises ValueError
    on what Slurm would reject."""
    out = []
    for item in split_top(expr, ", \t\n"):
        out.extend(_expand_one(item))
    return out


def _expand_one(item):
    """One hostlist token.  22.05 allows nothing after the last ']'; bracket
    groups before it are part of the prefix and expand too."""
    if "[" not in item:
        return [item]
    if not item.endswith("]"):
        raise ValueError("text after ']' in %r" % item)
    out = [""]
    for m in re.finditer(r"([^\[]*)(?:\[([^\]]*)\])?", item):
        out = [o + m.group(1) for o in out]
        if m.group(2) is not None:
            out = [o + n for o in out for n in _expand_ranges(m.group(2))]
    return out


def _expand_ranges(text):
    nums = []
    for rng in text.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", rng)
        if not m or int(m.group(2) or m.group(1)) < int(m.group(1)):
            raise ValueError("invalid range %r" % rng)
        lo, hi = m.group(1), m.group(2) or m.group(1)
        nums.extend(str(n).zfill(len(lo)) for n in range(int(lo), int(hi) + 1))
    return nums


def read_case_conf(case_dir):
    """case.conf: KEY=VALUE lines, '#' comments."""
    conf = {}
    path = os.path.join(case_dir, "case.conf")
    if os.path.isfile(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if "=" in line:
                    k, v = line.split("=", 1)
                    conf[k.strip().upper()] = v.strip()
    return conf


def case_nodes(conf):
    return [n for n in re.split(r"[\s,]+", conf.get("NODES", "")) if n]


# ---------------------------------------------------------------------------
# The sandbox: rewritten configs + fake devices
# ---------------------------------------------------------------------------
class Sandbox:
    def __init__(self, case_dir, devices="fake", version=(22, 5)):
        self.case_dir = os.path.abspath(case_dir)
        self.devices = devices
        self.version = version     # (major, minor) of the Slurm that runs
        self.root = tempfile.mkdtemp(prefix="sl.", dir="/tmp")
        os.chmod(self.root, 0o755)
        for d in ("etc", "state", "spool", "log", "munge", "dev"):
            os.makedirs(os.path.join(self.root, d))
        self.etc = os.path.join(self.root, "etc")
        self.devroot = os.path.join(self.root, "dev")
        self.conf = os.path.join(self.etc, "slurm.conf")
        self.munge_sock = os.path.join(self.root, "munge", "sock")
        self.notes = []
        self.device_paths = []
        self.seen_merge = set()
        self.cluster = None
        # case.conf KEEP=: site keys this case needs as written (e.g.
        # AccountingStorageTRES, whose fatals the sandbox's accounting_storage/none
        # shows as they are without slurmdbd).
        self.keep = {k.lower() for k in re.split(r"[\s,]+", read_case_conf(
            case_dir).get("KEEP", "")) if k}

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def since(self, release):
        return self.version >= release

    def replaces(self, key):
        """Is the slurm.conf key a site key the sandbox replaces, for the
        Slurm that runs?"""
        if key in self.keep:
            return False
        if key in SITE_KEYS_REMOVED and self.since(SITE_KEYS_REMOVED[key]):
            return False
        if key in SITE_KEYS_SINCE:
            return self.since(SITE_KEYS_SINCE[key])
        return key in SITE_KEYS

    def kept_override(self, line):
        """Whether a sandbox setting must stay out because the case keeps
        the user's own (KEEP=): the same key, or for the legacy controller
        keys the SlurmctldHost that would take their place. Only cases
        where the daemons refuse the file keep these: a controller that is
        not this host, or a port the sandbox does not expect, goes no
        further than the private network namespace."""
        key = line.split("=", 1)[0].strip().lower()
        if not key or key.startswith("#"):
            return False
        if key == "slurmctldhost" and self.keep & CONTROLLER_KEYS:
            return True
        return key in self.keep

    def scrub(self, text):
        """Sandbox paths back to what the user wrote: fake devices to their
        own paths, the config folder to <confdir>, the rest to <sandbox>."""
        text = text.replace(self.devroot, "")
        text = text.replace(self.etc, "<confdir>")
        return text.replace(self.root, "<sandbox>")

    # -- files --------------------------------------------------------------
    def build(self):
        # Everything in the case folder goes to etc/ at the same relative
        # path, so that Slurm resolves relative Includes itself; the files
        # slurm.conf and gres.conf reach are then rewritten in place.
        for dirpath, dirnames, filenames in os.walk(self.case_dir):
            rel = os.path.relpath(dirpath, self.case_dir)
            if rel == ".":
                dirnames[:] = [d for d in dirnames if not is_case_meta(d)]
            for fn in filenames:
                if rel == "." and fn in CASE_META:
                    continue
                dst = os.path.normpath(os.path.join(self.etc, rel, fn))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(os.path.join(dirpath, fn), dst)
        self.rewrite_tree("slurm.conf", self.rewrite_slurm)
        self.append_overrides()
        if os.path.isfile(os.path.join(self.etc, "gres.conf")):
            self.rewrite_tree("gres.conf", self.rewrite_gres)
        cgroup = os.path.join(self.etc, "cgroup.conf")
        if self.since(CGROUP_DISABLED_SINCE) and not os.path.isfile(cgroup):
            open(cgroup, "w").close()
        if os.path.isfile(cgroup):
            self.rewrite_file("cgroup.conf", self.rewrite_cgroup)
        with open(os.path.join(self.root, "plugstack.conf"), "w"):
            pass
        self.make_devices()

    def rewrite_file(self, rel, fn):
        path = os.path.join(self.etc, rel)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        new = fn(text, rel)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(new)
        return text

    def rewrite_tree(self, top, fn):
        """Rewrite top and every file it includes (a relative Include is
        relative to the folder of the file that holds it in 22.05, to
        slurm.conf's folder from 23.02)."""
        from_conf_dir = self.since(INCLUDE_FROM_CONF_DIR_SINCE)
        todo, done = [top], set()
        while todo:
            rel = todo.pop()
            if rel in done or len(done) > 50:
                continue
            done.add(rel)
            if not os.path.isfile(os.path.join(self.etc, rel)):
                continue
            text = self.rewrite_file(rel, fn)
            for _, _, logical in logical_lines(text):
                inc = is_include(logical)
                if inc is None:
                    continue
                if self.cluster:
                    inc = inc.replace("%c", self.cluster.lower())
                if os.path.isabs(inc):
                    inc = os.path.relpath(self.absolute_include(inc), self.etc)
                else:
                    base = "" if from_conf_dir else os.path.dirname(rel)
                    inc = os.path.normpath(os.path.join(base, inc))
                if not inc.startswith(".."):
                    todo.append(inc)

    def absolute_include(self, inc):
        """Sandbox path standing in for an absolute Include path."""
        return os.path.join(self.etc, "abs", inc.lstrip("/"))

    def fix_include_line(self, phys, logical, rel):
        """An absolute Include names a site path: point it at the case's
        copy (the longest tail of the path the case has: nodes.d/gpu.conf,
        then gpu.conf, as greslint reads a checkout, GRS011), placed under
        etc/abs/.  A site path the case has no copy of is dropped, as
        tools/slurm-oracle does: the case is a checkout that left it out,
        not a cluster that lacks it."""
        inc = is_include(logical)
        if inc is None or not os.path.isabs(inc):
            return phys
        dst = self.absolute_include(inc)
        parts = inc.lstrip("/").split("/")
        tails = [os.path.join(self.case_dir, *parts[i:]) for i in range(len(parts))]
        src = next((t for t in tails if os.path.isfile(t)), None)
        if src is None:
            self.notes.append("Include %s dropped: the case has no copy" % inc)
            return "# [harness] dropped: " + phys
        if not os.path.exists(dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            self.notes.append("Include %s read from the case's %s"
                              % (inc, os.path.relpath(src, self.case_dir)))
        return phys.replace(inc, dst, 1)

    # -- slurm.conf -----------------------------------------------------------
    def rewrite_slurm(self, text, rel):
        phys = text.split("\n")
        for first, last, logical in logical_lines(text):
            key = first_key(logical)
            toks = kv_tokens(logical)
            if not key:
                continue
            if is_include(logical) is not None:
                phys[first] = self.fix_include_line(phys[first], logical, rel)
                continue
            if key == "clustername" and toks:
                self.cluster = toks[0][1]
            if key == "nodename" and toks and toks[0][1].lower() != "default":
                self.rewrite_node(phys, first, last, toks)
                continue
            if key == "nodename":       # NodeName=DEFAULT: only TmpDisk goes
                self.drop_token(phys, first, last, "TmpDisk")
                continue
            if not SINGLE_RE.fullmatch(logical):
                continue            # a record, or malformed: left to Slurm
            if key in MERGE_KEYS:
                val = toks[0][1]
                items = [v for v in val.split(",") if v and not (
                    key == "slurmctldparameters" and
                    v.lower().startswith("node_reg_mem_percent"))]
                if MERGE_KEYS[key].lower() not in (v.lower() for v in items):
                    items.append(MERGE_KEYS[key])
                self.replace_logical(phys, first, last, "%s=%s" % (
                    logical.split("=", 1)[0].strip(), ",".join(items)))
                self.seen_merge.add(key)
            elif key == "prioritytype" and toks and \
                    toks[0][1].lower() in SANDBOX_PRIORITY_PLUGINS:
                continue            # runs in the sandbox as written
            elif self.replaces(key):
                self.replace_logical(phys, first, last,
                                     "# [slurm_live] replaced: " +
                                     logical.strip())
        return "\n".join(phys)

    @staticmethod
    def replace_logical(phys, first, last, new):
        phys[first] = new
        for i in range(first + 1, last + 1):
            phys[i] = ""

    @staticmethod
    def drop_token(phys, first, last, key):
        pat = re.compile(r"(^|\s)%s\s*=\s*(\"[^\"]*\"|\S+)" % key,
                         re.IGNORECASE)
        for i in range(first, last + 1):
            code, comment = split_comment(phys[i])
            phys[i] = pat.sub(r"\1", code) + comment

    def rewrite_node(self, phys, first, last, toks):
        """A NodeName record keeps everything but its address: NodeAddr
        becomes 127.0.0.1 (one address serves every name in 22.05), and
        TmpDisk goes (it would be compared with this machine's /tmp).  When
        the names or the user's addresses do not expand, or the address
        count fits neither 1 nor the names, the record is left as written,
        so that Slurm fails on it with its own message."""
        vals = dict(toks)
        try:
            n_names = len(expand_hostlist(vals.get("nodename", "")))
            n_addr = len(expand_hostlist(vals["nodeaddr"])) \
                if "nodeaddr" in vals else 1
        except ValueError:
            return
        if n_addr not in (1, n_names):
            return
        self.drop_token(phys, first, last, "TmpDisk")
        addr = re.compile(r"((?:^|\s)NodeAddr\s*=\s*)(\"[^\"]*\"|\S+)",
                          re.IGNORECASE)
        found = False
        for i in range(first, last + 1):
            code, comment = split_comment(phys[i])
            if addr.search(code):
                code = addr.sub(r"\g<1>127.0.0.1", code)
                found = True
            phys[i] = code + comment
        if not found:
            code, comment = split_comment(phys[last])
            phys[last] = code.rstrip() + " NodeAddr=127.0.0.1" + (
                " " + comment if comment else "")

    def append_overrides(self):
        r = self.root
        lines = [
            "", "# ---- [slurm_live] sandbox settings ----",
            "SlurmctldHost=localhost(127.0.0.1)",
            "SlurmctldPort=%d" % SLURM_PORTS[0],
            "SlurmdPort=%d" % SLURM_PORTS[1],
            "SlurmUser=root", "SlurmdUser=root",
            "StateSaveLocation=%s/state" % r,
            "SlurmdSpoolDir=%s/spool" % r,
            "SlurmctldPidFile=%s/slurmctld.pid" % r,
            "SlurmdPidFile=%s/slurmd.pid" % r,
            "SlurmctldDebug=debug", "SlurmdDebug=debug",
            "PlugStackConfig=%s/plugstack.conf" % r,
            "TmpFS=%s" % r,
            "AuthType=auth/munge", "CredType=cred/munge",
            "AuthInfo=socket=%s" % self.munge_sock,
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none", "MpiDefault=none",
            "MailProg=/bin/true",
        ]
        lines = [line for line in lines if not self.kept_override(line)]
        for key, item in MERGE_KEYS.items():
            if key not in self.seen_merge:
                name = {"slurmctldparameters": "SlurmctldParameters",
                        "debugflags": "DebugFlags",
                        "privatedata": "PrivateData"}[key]
                lines.append("%s=%s" % (name, item))
        with open(self.conf, "a") as f:
            f.write("\n".join(lines) + "\n")

    # -- gres.conf ------------------------------------------------------------
    FILE_RE = re.compile(r"((?:^|\s)(?:File|Files|MultipleFiles)\s*=\s*)"
                         r"(\"[^\"]*\"|\S+)", re.IGNORECASE)

    def rewrite_gres(self, text, rel):
        phys = text.split("\n")
        for first, last, logical in logical_lines(text):
            if is_include(logical) is not None:
                phys[first] = self.fix_include_line(phys[first], logical, rel)
                continue
            if self.devices == "host":
                continue
            for i in range(first, last + 1):
                code, comment = split_comment(phys[i])
                phys[i] = self.FILE_RE.sub(self.move_paths, code) + comment
        return "\n".join(phys)

    def move_paths(self, m):
        """File=/dev/x[0-3],/dev/y -> File=<devroot>/dev/x[0-3],<devroot>/dev/y
        (relative paths are left alone)."""
        val, quote = m.group(2), ""
        if len(val) >= 2 and val[0] == val[-1] == '"':
            val, quote = val[1:-1], '"'
        items = split_top(val, ",")
        try:
            for it in items:
                self.device_paths.extend(p for p in expand_hostlist(it)
                                         if p.startswith("/"))
        except ValueError:
            pass            # Slurm reports the bad hostlist itself
        new = ",".join(self.devroot + it if it.startswith("/") else it
                       for it in items)
        return m.group(1) + quote + new + quote

    def make_devices(self):
        for i, path in enumerate(dict.fromkeys(self.device_paths)):
            fp = self.devroot + path
            if os.path.lexists(fp) or len(fp) > 4000:
                continue
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            if self.devices == "regular":
                open(fp, "w").close()
                continue
            m = re.search(r"(\d+)$", path)
            minor = int(m.group(1)) % 256 if m else i % 256
            major = 195 if "nvidia" in path else 226 if "dri" in path else 240
            try:
                os.mknod(fp, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
            except OSError as e:    # slurmd then only logs an environment
                open(fp, "w").close()   # error: the verdict is the same
                self.notes.append("mknod %s: %s; a plain file stands in"
                                  % (path, e.strerror))

    # -- cgroup.conf ----------------------------------------------------------
    def rewrite_cgroup(self, text, rel):
        phys = text.split("\n")
        for first, last, logical in logical_lines(text):
            toks = kv_tokens(logical)
            if len(toks) == 1 and toks[0][0] in CGROUP_SITE_KEYS:
                self.replace_logical(phys, first, last,
                                     "# [slurm_live] replaced: " +
                                     logical.strip())
        if self.since(CGROUP_DISABLED_SINCE):
            phys += ["", "# [slurm_live] sandbox", "CgroupPlugin=disabled"]
        return "\n".join(phys)


# ---------------------------------------------------------------------------
# One probe: the daemons for one node, inside a private network namespace
# ---------------------------------------------------------------------------
class HarnessError(Exception):
    pass


class Probe:
    def __init__(self, case_dir, node, devices="fake", timeout=20.0,
                 root="", version=(22, 5), capture=False):
        self.case_dir = case_dir
        self.capture = capture
        self.captures = {}
        self.node = node
        self.devices = devices
        self.timeout = timeout
        self.version = version
        # a chroot's Slurm and munged run as `chroot ROOT prog` (chroot(8)
        # execs prog, so the PID is the daemon's)
        self.wrap = ["chroot", root] if root else []
        self.procs = {}
        self.sb = None
        self.env = None

    # -- processes ------------------------------------------------------------
    def start(self, name, cmd, extra_env=None):
        env = dict(self.env)
        env.update(extra_env or {})
        with open(os.path.join(self.sb.root, "log", name), "wb") as out:
            self.procs[name] = subprocess.Popen(
                self.wrap + cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True)
        return self.procs[name]

    def stop(self, name):
        p = self.procs.get(name)
        if p is None:
            return
        if p.poll() is None:
            try:
                os.kill(p.pid, signal.SIGTERM)
                p.wait(timeout=4)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                os.kill(p.pid, signal.SIGKILL)
                p.wait(timeout=4)
        try:            # whatever it forked lives in its own session
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop_all(self):
        for name in ("slurmd", "slurmctld", "munged"):
            try:
                self.stop(name)
            except Exception:
                p = self.procs.get(name)
                if p is not None and p.poll() is None:
                    os.kill(p.pid, signal.SIGKILL)
        # we are a child subreaper: collect orphans the daemons left
        deadline = time.time() + 1.0
        while time.time() < deadline:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                time.sleep(0.02)

    def sched_cycles(self):
        """How many main scheduler cycles slurmctld has completed (sdiag's
        Total cycles), or None when sdiag does not say. _schedule counts its
        cycle after it releases the job lock, so a cycle counted after a
        reading taken once an sbatch returned began after that submission."""
        rc, out = self.run_cmd(["sdiag"], 10)
        m = re.search(r"Total cycles:\s*(\d+)",
                      out.partition("Main schedule statistics")[2])
        return int(m.group(1)) if m else None

    def wait_sched_cycle(self, before, limit=30.0):
        """Until a main scheduler cycle has completed since the reading
        BEFORE (slurmctld runs one up to batch_sched_delay, 3 s, after the
        previous one once a job was submitted). False after LIMIT."""
        deadline = time.time() + limit
        while True:
            now = self.sched_cycles()
            if before is None or now is None or now > before:
                return True
            if time.time() > deadline:
                return False
            time.sleep(0.25)

    def run_cmd(self, cmd, timeout, extra_env=None, stderr=subprocess.STDOUT):
        env = dict(self.env)
        env.update(extra_env or {})
        p = subprocess.Popen(self.wrap + cmd, env=env,
                             stdout=subprocess.PIPE,
                             stderr=stderr,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            out, _ = p.communicate(timeout=timeout)
            return p.returncode, out.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            return 124, out.decode("utf-8", "replace")

    def log(self, name):
        try:
            with open(os.path.join(self.sb.root, "log", name),
                      errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def scontrol_node(self):
        rc, out = self.run_cmd(["scontrol", "--all", "show", "node", "-d", self.node],
                               5)
        if "not found" in out:
            return "not-found"
        if rc != 0 or "NodeName=" not in out:
            return None
        # Only the node's record: scontrol reads slurm.conf itself, and 22.05's prints what it
        # finds wrong first (on stderr, merged here), such as "Sockets=# and SocketsPerBoard=#
        # is invalid", whose "Sockets=#" used to be taken for the node's (s2403 m221).
        lines = out.splitlines()
        first = next((i for i, line in enumerate(lines) if line.lstrip().startswith("NodeName=")), 0)
        info = {}
        for line in lines[first:]:
            line = line.strip()
            if line.startswith("Reason="):
                info["Reason"] = line[7:]
                continue
            if line.startswith("OS="):
                continue
            for tok in line.split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    info.setdefault(k, v)
        return info

    @staticmethod
    def port_listening(port):
        suffix = ":%04X" % port
        for fn in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(fn) as f:
                    for line in f.readlines()[1:]:
                        p = line.split()
                        if len(p) > 3 and p[3] == "0A" and p[1].endswith(
                                suffix):
                            return True
            except OSError:
                pass
        return False

    # -- phases ---------------------------------------------------------------
    def start_munge(self):
        mdir = os.path.join(self.sb.root, "munge")
        key = os.path.join(mdir, "key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        self.start("munged", [
            "munged", "-F", "-f", "-S", self.sb.munge_sock,
            "--key-file=" + key, "--num-threads=2",
            "--log-file=" + os.path.join(mdir, "log"),
            "--pid-file=" + os.path.join(mdir, "pid"),
            "--seed-file=" + os.path.join(mdir, "seed")])
        deadline = time.time() + 5
        while not os.path.exists(self.sb.munge_sock):
            if time.time() > deadline or self.procs["munged"].poll() is not None:
                raise HarnessError("munged did not start: " +
                                   self.log("munged")[-300:])
            time.sleep(0.02)

    def start_controller(self):
        """'up' + node info, 'not-found', or 'exited'."""
        p = self.start("slurmctld", ["slurmctld", "-D", "-c", "-f",
                                     self.sb.conf])
        # a missing Include makes slurmctld retry for 60 s before its fatal
        deadline = time.time() + max(15.0, self.timeout)
        while not self.port_listening(SLURM_PORTS[0]):
            if p.poll() is not None:
                return "exited", None
            if time.time() > deadline:
                raise HarnessError("slurmctld did not listen in time")
            time.sleep(0.02)
        while time.time() < deadline:
            if p.poll() is not None:
                return "exited", None
            info = self.scontrol_node()
            if info == "not-found":
                return "not-found", None
            if info:
                return "up", info
            time.sleep(0.1)
        raise HarnessError("slurmctld did not answer in time")

    def topology(self, info):
        """HWLOC_SYNTHETIC value: the controller's view of the node, or (if
        the controller died) our own reading of slurm.conf."""
        try:
            if info:
                s, c, t = (int(info.get(k, 1)) for k in
                           ("Sockets", "CoresPerSocket", "ThreadsPerCore"))
            else:
                s, c, t = fallback_topology(self.sb.conf, self.node)
        except (TypeError, ValueError):
            return None
        return "package:%d core:%d pu:%d" % (max(s, 1), max(c, 1), max(t, 1))

    def run(self):
        self.sb = Sandbox(self.case_dir, self.devices, self.version)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("SLURM", "HWLOC"))}
        if self.wrap:       # the chroot's programs and libraries only
            self.env["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
            self.env.pop("LD_LIBRARY_PATH", None)
        self.env["SLURM_CONF"] = self.sb.conf
        self.sb.build()
        self.start_munge()
        ctld, info = self.start_controller()
        synth = self.topology(info)
        hw = {"HWLOC_SYNTHETIC": synth} if synth else {}

        # -G may wait 20 s for a device file (or 60 s for an Include); when
        # the controller already died it is run only for its log, briefly
        g_limit = 15 if ctld == "exited" else max(40.0, self.timeout + 5)
        g_rc, g_out = self.run_cmd(["slurmd", "-G", "-N", self.node, "-f",
                                    self.sb.conf], g_limit, hw)
        daemon, state = "not-run", None
        missing_dev = "can't stat gres.conf file" in g_out
        if ctld == "up" and not missing_dev:
            daemon, state = self.register(hw)
        elif ctld == "up":
            daemon = "skipped: slurmd -G already waited 20 s for a device file"
        if self.capture and ctld == "up" and daemon == "registered":
            self.capture_views()
        self.stop_all()
        res = self.report(ctld, info, g_rc, g_out, daemon, state, synth)
        if self.captures:
            res["captures"] = self.captures
        return res

    def capture_views(self):
        """What an admin would ask the controller once the node registered
        (CAPTURES), with the sandbox's paths scrubbed as in the report."""
        for name, cmd in CAPTURES.items():
            # what they print, not what they log reading slurm.conf themselves
            rc, out = self.run_cmd(cmd, 10, stderr=subprocess.DEVNULL)
            if rc == 0:
                self.captures[name] = self.sb.scrub(out)

    def register(self, hw):
        p = self.start("slurmd", ["slurmd", "-D", "-N", self.node, "-f",
                                  self.sb.conf], hw)
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            if p.poll() is not None:
                return "exited rc=%d" % p.returncode, None
            if self.procs["slurmctld"].poll() is not None:
                return "controller exited", None
            info = self.scontrol_node()
            if isinstance(info, dict) and info.get(
                    "SlurmdStartTime", "None") != "None":
                time.sleep(0.3)
                info = self.scontrol_node()
                if p.poll() is not None:
                    return "registered, then exited rc=%d" % p.returncode, info
                return "registered", info
            time.sleep(0.1)
        raise HarnessError("slurmd neither registered nor exited in %.0f s"
                           % self.timeout)

    # -- report -----------------------------------------------------------
    def classify(self, text, who, log):
        """Sort a daemon's log lines into log[who + '_fatal'|'_errors'|
        '_warnings'] and log['environment']; returns the fatal messages."""
        fatal = []
        for raw in text.splitlines():
            lvl, msg = log_level(self.sb.scrub(raw))
            if lvl not in ("fatal", "error", "warning") or not msg:
                if lvl == "info" and ENVIRONMENT_RE.search(msg):
                    log["environment"].append("%s: %s" % (who, msg))
                continue
            if NOISE_RE.search(msg):
                continue
            if ENVIRONMENT_RE.search(msg):
                log["environment"].append("%s: %s" % (who, msg))
                continue
            key = {"fatal": "_fatal", "error": "_errors",
                   "warning": "_warnings"}[lvl]
            log[who + key].append(msg)
            if lvl == "fatal":
                fatal.append(msg)
        return fatal

    def report(self, ctld, info, g_rc, g_out, daemon, state, synth):
        sb = self.sb
        log = {k: [] for k in (
            "slurmctld_fatal", "slurmctld_errors", "slurmctld_warnings",
            "slurmd_fatal", "slurmd_errors", "slurmd_warnings",
            "slurmd_G_fatal", "slurmd_G_errors", "slurmd_G_warnings",
            "environment", "notes")}
        gres = []
        for raw in g_out.splitlines():
            lvl, msg = log_level(sb.scrub(raw))
            if lvl == "info" and msg.startswith("Gres Name="):
                gres.append(parse_gres_line(msg))
        ctld_fatal = self.classify(self.log("slurmctld"), "slurmctld", log)
        g_fatal = self.classify(g_out, "slurmd_G", log)
        d_fatal = self.classify(self.log("slurmd"), "slurmd", log)
        log["notes"].extend(sb.notes)
        if daemon.startswith("skipped"):
            log["notes"].append(daemon)
        res = {"verdict": None, "reason": "", "gres": gres, "log": log,
               "slurmd_G_rc": g_rc, "slurmd_daemon": daemon,
               "hwloc_synthetic": synth,
               "configured_gres": (info or {}).get("Gres"),
               "node_state": None, "node_gres": None}
        log["slurmctld_errors"] = misread_checked(log["slurmctld_errors"],
                                                  state)
        if ctld == "exited" or (daemon == "controller exited" and ctld_fatal):
            res["verdict"] = "slurmctld-fatal"
            res["reason"] = (ctld_fatal or ["slurmctld exited"])[0]
            return res
        if ctld == "not-found":
            res["verdict"] = "not-in-config"
            return res
        if g_rc == 124 or daemon == "controller exited":
            raise HarnessError("slurmd -G timed out" if g_rc == 124 else
                               "slurmctld exited without a fatal line")
        fatal = d_fatal or g_fatal
        if fatal or daemon.startswith("exited") or daemon.startswith(
                "skipped") or g_rc != 0:
            res["verdict"] = "slurmd-fatal"
            errs = log["slurmd_errors"] or log["slurmd_G_errors"]
            res["reason"] = (fatal[0] if fatal else errs[-1] if errs else
                             "slurmd exited (%s, slurmd -G rc=%d)"
                             % (daemon, g_rc))
            return res
        if daemon.startswith("registered, then exited"):
            raise HarnessError("slurmd " + daemon)
        st = state.get("State", "")
        res["node_state"] = st
        res["node_gres"] = state.get("Gres")
        reason = re.sub(r"\s*\[[^\]]*@[^\]]*\]\s*$", "",
                        state.get("Reason", "") or "")
        if reason == "none":
            reason = ""
        if "INVALID_REG" in st or "DRAIN" in st or "DOWN" in st:
            res["verdict"] = "drain"
            res["reason"] = sb.scrub(reason)
            return res
        lost = [m for k in ("slurmd_G_errors", "slurmd_G_warnings",
                            "slurmd_errors", "slurmd_warnings",
                            "slurmctld_errors", "slurmctld_warnings")
                for m in log[k]
                if is_gres_message(m, [self.node]) and
                not NOT_DEGRADING_RE.search(m) and
                not about_other_node(m, self.node)]
        if lost:
            res["verdict"] = "degraded"
            res["reason"] = re.sub(r"^WARNING:\s*", "", lost[0])
        else:
            res["verdict"] = "ok"
        return res


class RetryRun(Exception):
    """slurmctld misread node_reg_mem_percent and drained the node for Low
    RealMemory because of it: run again (see misread_checked)."""


MISREAD_RE = re.compile(r"Unable to convert node_reg_mem_percent")
# Attempts of one probe while slurmctld keeps misreading node_reg_mem_percent,
# and the pause before each new one (seconds, doubling, at most the last).
MISREAD_ATTEMPTS = 6
MISREAD_PAUSES = (1, 2, 4, 8)


def misread_checked(ctld_errors, state):
    """slurmctld's errors without its misreading of node_reg_mem_percent when
    that changed nothing; RetryRun when it did.

    22.05 and 24.11 read the value with strtod and then test errno, which
    strtod does not clear: errno is whatever the registration RPC's thread
    last left there (24.11's conmgr workers are reused, and a read that met
    a slow peer leaves EAGAIN), so on a loaded machine the value is taken
    as unset more often than not, for the first registration only. Unset
    means the default of 100 %, whose only effect is the Low RealMemory
    drain of a node whose RealMemory exceeds this machine's. Without that
    drain the run is exactly a good one; with it, it has to run again."""
    if not any(MISREAD_RE.search(m) for m in ctld_errors):
        return ctld_errors
    if "Low RealMemory" in ((state or {}).get("Reason") or ""):
        raise RetryRun()
    return [m for m in ctld_errors if not MISREAD_RE.search(m)]


def parse_gres_line(msg):
    """One slurmd 'Gres Name=... Type=... Count=... [Index=..] ID=..
    [File=..] [Cores=.. CoreCnt=..] (null)|Links=..' line."""
    rec = {"name": None, "type": None, "count": None, "files": None,
           "cores": None, "links": None}
    body = msg[len("Gres "):]
    for tok in body.split():
        if "=" not in tok:
            continue
        k, v = tok.split("=", 1)
        v = None if v == "(null)" else v
        if k == "Name":
            rec["name"] = v
        elif k == "Type":
            rec["type"] = v
        elif k == "Count":
            rec["count"] = int(v)
        elif k == "File":
            rec["files"] = v
        elif k == "Cores":
            rec["cores"] = v
        elif k == "Links":
            rec["links"] = v
    return rec


def fallback_topology(conf, node):
    """(sockets, cores, threads) for node from slurm.conf (§3.2 in short),
    used only when the controller died and cannot be asked."""
    with open(conf, errors="replace") as f:
        text = f.read()
    default, mine = {}, None
    for _, _, logical in logical_lines(text):
        if first_key(logical) != "nodename":
            continue
        toks = dict(kv_tokens(logical))
        name = toks.get("nodename", "")
        if name.lower() == "default":
            default.update(toks)
            continue
        try:
            names = expand_hostlist(name)
        except ValueError:
            continue
        if node in names:
            mine = dict(default)
            mine.update(toks)
    if mine is None:
        return 1, 1, 1

    def num(k, d):
        try:
            return int(mine.get(k, d), 0) or 1
        except ValueError:
            return d
    cores, threads = num("corespersocket", 1), num("threadspercore", 1)
    # read_config.c: SocketsPerBoard= wins over Sockets= (which is then reported invalid).
    if "socketsperboard" in mine:
        sockets = num("socketsperboard", 1) * num("boards", 1)
    elif "sockets" in mine:
        sockets = num("sockets", 1)
    elif "cpus" in mine and num("cpus", 1) % (cores * threads) == 0:
        sockets = num("cpus", 1) // (cores * threads)
    else:
        sockets = num("boards", 1)
    return sockets, cores, threads


def mount_chroot(root):
    """Give the chroot root a /proc of its own and the host's /dev, /sys and
    /tmp (the sandboxes live there) at the same paths, so that every path in
    the sandbox configs means the same inside.  Only called in the probe's
    private mount namespace: the mounts vanish with it, also when the probe
    is killed."""
    for args in (["-t", "proc", "proc", root + "/proc"],
                 ["--rbind", "/dev", root + "/dev"],
                 ["--rbind", "/sys", root + "/sys"],
                 ["--bind", "/tmp", root + "/tmp"]):
        subprocess.run(["mount"] + args, check=True)


def enter_namespace(root):
    """Set up the private network (and, for a chroot, mount) namespace this
    process was started in by unshare: loopback, the chroot's mounts, and
    the process attributes every probe relies on."""
    if root:
        mount_chroot(root)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    # glibc's getaddrinfo(AI_ADDRCONFIG) needs an address besides 127.0.0.1
    subprocess.run(["ip", "addr", "add", "127.0.0.2/32", "dev", "lo"],
                   check=True)
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER: orphans of
        #                              the daemons come to us
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)   # PR_SET_PDEATHSIG: clean up
        #                              if the driver is killed
    except Exception:
        pass


def run_probe(case_dir, node, devices, timeout, hard_limit, root, version,
              keep=False, capture=False):
    """One node's probe in the namespace enter_namespace set up: its result
    dict.  Leaves no daemon behind and the namespace's ports free."""
    def on_signal(signum, frame):
        raise HarnessError("stopped by signal %d" % signum)
    deadline = time.time() + hard_limit
    result = None
    attempts, last = 0, 0.0
    while attempts < MISREAD_ATTEMPTS:
        if attempts:
            # The misread follows the machine's load: let a burst pass, and
            # start only a run that can end before the hard limit.
            pause = MISREAD_PAUSES[min(attempts, len(MISREAD_PAUSES)) - 1]
            if time.time() + pause + last * 1.5 > deadline:
                break
            signal.signal(signal.SIGTERM, signal.SIG_DFL)   # nothing to clean
            time.sleep(pause)
        attempts += 1
        started = time.time()
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGALRM, on_signal)
        signal.alarm(max(1, int(deadline - time.time())))
        probe = Probe(case_dir, node, devices, timeout, root,
                      release_tuple(version), capture)
        try:
            result = probe.run()
            break
        except RetryRun:
            last = time.time() - started
            continue
        except HarnessError as e:
            result = {"verdict": "error", "reason": str(e)}
            break
        except Exception as e:      # report it; never leave daemons behind
            result = {"verdict": "error", "reason": "harness exception: %r"
                      % (e,)}
            break
        finally:
            # nothing may interrupt the cleanup
            signal.alarm(0)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            probe.stop_all()
            if probe.sb and not keep:
                probe.sb.remove()
            elif probe.sb:
                sys.stderr.write("sandbox kept: %s\n" % probe.sb.root)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if result is None:
        result = {"verdict": "error", "reason": "slurmctld misread "
                  "node_reg_mem_percent and drained the node for Low "
                  "RealMemory in each of %d runs" % attempts}
    return result


def reap_leftovers(limit=2.0):
    """Kill and collect whatever a probe's daemons left among this worker's
    children, until none is left, and wait until no daemon's port listens:
    the next probe in this namespace must find it as a fresh one."""
    deadline = time.time() + limit
    me = str(os.getpid())
    while True:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open("/proc/%s/stat" % pid) as f:
                        ppid = f.read().rpartition(")")[2].split()[1]
                except (OSError, IndexError):
                    continue
                if ppid == me:
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            if not any(Probe.port_listening(p) for p in SLURM_PORTS):
                return True
        if time.time() > deadline:
            return False
        time.sleep(0.02)


def worker_in_namespace(args):
    """Entry point inside a private namespace (--_worker): probes one after
    the other, each a JSON line of run_probe's arguments on stdin, each
    answered by a JSON line on stdout.  Starting an interpreter, a
    namespace and its mounts per probe was 14% of a live run's CPU."""
    results = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)       # stray output of a helper must not look like a result
    enter_namespace(args.root)
    for line in sys.stdin:
        job = json.loads(line)
        if not reap_leftovers():
            # Not fresh any more: answer, and let the driver start a new one.
            results.write(json.dumps({"verdict": "error", "reason": "the "
                                      "worker's namespace did not come "
                                      "clean after the last probe",
                                      "worker_spent": True}) + "\n")
            results.flush()
            return 1
        res = run_probe(job["case_dir"], job["node"], job["devices"],
                        job["timeout"], job["hard_limit"], args.root,
                        args.slurm_version, job["keep"], job["capture"])
        results.write(json.dumps(res, sort_keys=True) + "\n")
        results.flush()
    return 0


# ---------------------------------------------------------------------------
# Driver: one namespace per node, several at once
# ---------------------------------------------------------------------------
def preflight(release=HOST_RELEASE):
    """Problems that stop a live run of release (empty list when it can
    run)."""
    problems = []
    root = release_root(release)
    if os.geteuid() != 0:
        problems.append("must run as root (daemons, mknod, network namespace)")
    for prog in ("unshare", "ip") + (("chroot", "mount") if root else ()):
        if shutil.which(prog) is None:
            problems.append("%s not found (apt-get install util-linux "
                            "iproute2)" % prog)
    for prog in ("slurmd", "slurmctld", "scontrol", "munged"):
        if not root and shutil.which(prog) is None:
            problems.append("%s not found (apt-get install slurmd slurmctld "
                            "slurm-client munge)" % prog)
        elif root and not any(os.access(os.path.join(root, d, prog), os.X_OK)
                              for d in ("usr/sbin", "usr/bin")):
            problems.append("%s: no %s (build the chroot: "
                            "scripts/make-chroots.sh)" % (root, prog))
    if not problems:
        ns = ["unshare", "-n"] + (["-m"] if root else []) + ["true"]
        rc = subprocess.run(ns, stderr=subprocess.DEVNULL).returncode
        if rc != 0:
            problems.append("%s fails: no private namespace" % " ".join(ns[:-1]))
    if not problems:
        found = slurm_version(root)
        if (found or {}).get("release") != release:
            problems.append("%s runs Slurm %s, not %s" % (
                root or "the host", (found or {}).get("text"), release))
    return problems


def slurm_version(root=""):
    """What the Slurm of root ('' = the host) says it is: {'text': 'slurm-wlm
    24.11.5', 'version': '24.11.5', 'release': '24.11'}, or None.  Debian's
    packages call themselves slurm-wlm (and are built with
    --enable-multiple-slurmd), an upstream build slurm."""
    try:
        out = subprocess.run((["chroot", root] if root else []) +
                             ["slurmd", "-V"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=10).stdout
        text = out.decode().strip()
        version = text.split()[-1]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None
    m = re.match(r"(\d+)\.(\d+)", version)
    if not m:
        return None
    return {"text": text, "version": version,
            "release": "%s.%02d" % (m.group(1), int(m.group(2)))}


def release_tuple(version):
    """'24.11.5' -> (24, 11)."""
    m = re.match(r"(\d+)\.(\d+)", version or "")
    return (int(m.group(1)), int(m.group(2))) if m else (22, 5)


def live_target(release=HOST_RELEASE):
    """The Slurm that runs release: {'release', 'root', 'text', 'version'}
    (see slurm_version); call preflight(release) first."""
    root = release_root(release)
    found = slurm_version(root) or {"text": None, "version": None}
    return dict(found, release=release, root=root)


class Worker:
    """A probe process in a private network namespace (and, for a chroot,
    mount namespace) of its own, reused by one driver thread for probe after
    probe of one Slurm (worker_in_namespace)."""

    def __init__(self, target):
        ns = ["unshare", "-n"] + (["-m", "--propagation", "private"]
                                  if target["root"] else [])
        self.p = subprocess.Popen(
            ns + ["--", sys.executable, "-S", os.path.abspath(__file__),
                  "--_worker", "--root", target["root"], "--slurm-version",
                  target["version"] or ""],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def probe(self, job, limit):
        """The result dict of one probe, or None when the worker died or
        overran limit (it is then stopped and must not be used again)."""
        try:
            self.p.stdin.write((json.dumps(job) + "\n").encode())
            self.p.stdin.flush()
            ready, _, _ = select.select([self.p.stdout], [], [], limit)
            line = self.p.stdout.readline() if ready else b""
        except OSError:
            line = b""
        if not line:
            self.stop()
            return None
        return json.loads(line.decode())

    def stop(self):
        """End the worker: at once when it is idle (its stdin closes), or
        as a stuck probe is (SIGTERM cleans up, then SIGKILL)."""
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            self.p.terminate()
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


_WORKERS = threading.local()     # this thread's {release: Worker}
_ALL_WORKERS = []
_ALL_WORKERS_LOCK = threading.Lock()


def stop_workers():
    """Stop every worker (the end of a run; also at exit)."""
    with _ALL_WORKERS_LOCK:
        workers, _ALL_WORKERS[:] = list(_ALL_WORKERS), []
    for w in workers:
        w.stop()


atexit.register(stop_workers)


def probe_node(case_dir, node, devices="fake", timeout=20.0, keep=False,
               target=None, capture=False):
    """Run one node's probe in a private network namespace (and, for a
    chroot, mount namespace) that holds nothing else while it runs; returns
    its result dict.  The probe has a hard time limit; a worker that
    overruns it is stopped (SIGTERM, then SIGKILL)."""
    target = target or live_target()
    hard = timeout + 60          # -G can wait 20 s on a missing device
    job = {"case_dir": os.path.abspath(case_dir), "node": node,
           "devices": devices, "timeout": timeout, "hard_limit": hard,
           "keep": keep, "capture": capture}
    mine = _WORKERS.__dict__.setdefault("by_release", {})
    for _ in range(2):      # a second worker when the first one was spent
        worker = mine.get(target["release"])
        if worker is None or worker.p.poll() is not None:
            worker = mine[target["release"]] = Worker(target)
            with _ALL_WORKERS_LOCK:
                _ALL_WORKERS.append(worker)
        res = worker.probe(job, hard + 15)
        if res is None:
            mine.pop(target["release"], None)
            return {"verdict": "error", "reason": "probe failed (the "
                    "worker exited %s)" % worker.p.returncode}
        if not res.pop("worker_spent", False):
            return res
        worker.stop()
        mine.pop(target["release"], None)
    return res


def timed(fn, *args):
    t = time.time()
    return fn(*args), time.time() - t


def case_jobs(case_dir):
    """[(node, devices, timeout, offline_too)] to run for one case."""
    conf = read_case_conf(case_dir)
    nodes = case_nodes(conf)
    if not nodes:
        raise SystemExit("%s: case.conf has no NODES=" % case_dir)
    devices = conf.get("DEVICES", "fake")
    if devices not in ("fake", "regular", "host"):
        raise SystemExit("%s: DEVICES must be fake, regular or host" % case_dir)
    timeout = float(conf.get("TIMEOUT", "20"))
    return [(n, devices, timeout) for n in nodes]


def probe_cases(case_dirs, jobs=2, node_filter=None, progress=None,
                keep=False, target=None, capture=False):
    """Probe every node of every case on one Slurm (target, default the
    host's), jobs sandboxes at a time.  Returns {case_dir: recording}."""
    target = target or live_target()
    return probe_releases(case_dirs, [target], jobs, node_filter, progress,
                          keep, capture)[target["release"]]


def probe_releases(case_dirs, targets, jobs=2, node_filter=None,
                   progress=None, keep=False, capture=False):
    """Probe every node of every case on every target Slurm, all in one
    pool of jobs sandboxes.  Returns {release: {case_dir: recording}}.  A
    case whose DEVICES is not 'fake' also gets an 'offline' result per node:
    the same run with faked character devices, which is what a static
    linter has to predict.  With capture, the controller's view of each
    registered node is written to CASE/captured-RELEASE/NODE/ (CAPTURES)."""
    work = []
    for t in targets:
        for cd in case_dirs:
            for node, devices, timeout in case_jobs(cd):
                if node_filter and node not in node_filter:
                    continue
                work.append((t, cd, node, devices, timeout, "main"))
                if devices != "fake":
                    work.append((t, cd, node, "fake", timeout, "offline"))
    results = {t["release"]: {cd: {"harness_version": HARNESS_VERSION,
                                   "slurm_version": t["version"],
                                   "slurmd_version": t["text"],
                                   "nodes": {}} for cd in case_dirs}
               for t in targets}
    # slow ones first (a missing device file costs 20 s, a missing Include
    # 60 s), so that they overlap with the rest
    work.sort(key=lambda w: (w[3] != "host", -w[4]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {ex.submit(timed, probe_node, cd, n, dev, to, keep, t,
                          capture and kind == "main"):
                (t["release"], cd, n, kind)
                for t, cd, n, dev, to, kind in work}
        for fut in concurrent.futures.as_completed(futs):
            release, cd, n, kind = futs[fut]
            res, secs = fut.result()
            write_captures(cd, release, n, res.pop("captures", None))
            slot = results[release][cd]["nodes"].setdefault(n, {})
            if kind == "offline":
                slot["offline"] = {k: res.get(k) for k in
                                   ("verdict", "reason", "gres")}
            else:
                offline = slot.get("offline")
                slot.clear()
                slot.update(res)
                if offline:
                    slot["offline"] = offline
            if progress:
                progress(cd, n, kind, res, secs)
    stop_workers()
    for per_case in results.values():   # node order: as case.conf lists them
        for cd, rec in per_case.items():
            order = [n for n, _, _ in case_jobs(cd)]
            rec["nodes"] = {n: rec["nodes"][n] for n in order
                            if n in rec["nodes"]}
    return results


def write_captures(case_dir, release, node, captures):
    """Replace CASE/captured-RELEASE/NODE/ with a probe's captures (a node
    that did not register leaves none)."""
    if captures is None:
        return
    folder = os.path.join(case_dir, capture_dir_name(release), node)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, text in sorted(captures.items()):
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)


def list_cases(root):
    return sorted(os.path.join(root, d) for d in os.listdir(root)
                  if os.path.isfile(os.path.join(root, d, "case.conf")))


def errors_in(recording):
    return ["%s: %s" % (n, r.get("reason")) for n, r in
            recording["nodes"].items()
            if r.get("verdict") == "error" or
            (r.get("offline") or {}).get("verdict") == "error"]


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run the real Slurm daemons on a case folder and report "
                    "what they do to each node (see docs/conformance.md).")
    ap.add_argument("case_dir", nargs="?", help="case folder (slurm.conf, "
                    "gres.conf, case.conf)")
    ap.add_argument("--all", metavar="CASES_ROOT",
                    help="every case folder under CASES_ROOT")
    ap.add_argument("--node", action="append",
                    help="probe only this node (repeatable; default: NODES= "
                    "of case.conf)")
    ap.add_argument("--record", action="store_true",
                    help="write the release's recording (recorded.json for "
                    "22.05, recorded-X.Y.json for X.Y) into each case folder")
    ap.add_argument("--release", default=HOST_RELEASE, choices=list(RELEASES),
                    help="Slurm release to run: %s is the host's packages, "
                    "the others Debian chroots under $GRESLINT_CHROOTS "
                    "(default %s; make-chroots.sh builds them)"
                    % (HOST_RELEASE, CHROOTS))
    ap.add_argument("-j", "--jobs", type=int, default=4,
                    help="sandboxes at a time (default 4)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the sandboxes (for debugging)")
    ap.add_argument("--capture", action="store_true",
                    help="write what scontrol and sinfo show of each "
                    "registered node to CASE/captured-RELEASE/NODE/")
    ap.add_argument("--_worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", default="", help=argparse.SUPPRESS)
    ap.add_argument("--slurm-version", default="", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a._worker:
        return worker_in_namespace(a)
    if bool(a.all) == bool(a.case_dir):
        ap.error("give a case folder or --all CASES_ROOT")
    problems = preflight(a.release)
    if problems:
        for p in problems:
            sys.stderr.write("slurm_live: %s\n" % p)
        return 2
    target = live_target(a.release)
    cases = list_cases(a.all) if a.all else [os.path.abspath(a.case_dir)]
    if a.node and a.record:
        ap.error("--record records every node of case.conf; drop --node")

    def progress(cd, node, kind, res, secs):
        sys.stderr.write("%-40s %-12s %-8s %-15s %5.1f s\n" % (
            os.path.basename(cd), node, kind, res.get("verdict"), secs))
    t0 = time.time()
    results = probe_cases(cases, a.jobs, a.node, progress, a.keep, target,
                          a.capture)
    rc = 0
    for cd in cases:
        rec = results[cd]
        errs = errors_in(rec)
        if errs:
            rc = 1
            sys.stderr.write("%s: harness error, not recorded: %s\n" % (
                os.path.basename(cd), "; ".join(errs)))
            continue
        if a.record:
            with open(os.path.join(cd, recording_name(a.release)), "w") as f:
                json.dump(rec, f, indent=1, sort_keys=True)
                f.write("\n")
    if not a.record:
        out = results if a.all else results[cases[0]]
        json.dump(out, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    sys.stderr.write("%d case(s) in %.1f s\n" % (len(cases), time.time() - t0))
    return rc


if __name__ == "__main__":
    sys.exit(main())
