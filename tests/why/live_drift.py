#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""live_drift.py - `greslint why` against a running sandbox cluster.

For each release (22.05 on the host, 24.11 and 26.05 in their chroots) this
starts real munged, slurmctld and slurmd in a private network namespace with
slurm_live.py's sandbox, then asks `greslint why` (live: it runs scontrol and
sinfo itself, as an admin would on the head node):

  1. right after start-up: nothing is wrong;
  2. after `scontrol update ... State=DRAIN Reason=...`: the reason was set
     by an admin;
  3. after editing slurm.conf and gres.conf under the running daemons: the
     drift is found (files newer than slurmctld's configuration, a setting,
     a node's CPUs, a node slurmctld does not know, gres.conf newer than
     slurmd);
  4. after undoing the node edits and `scontrol reconfigure`: the drift is
     gone (22.05 cannot reconfigure SelectTypeParameters: that edit is undone
     too there; its reconfigure keeps BOOT_TIME, so the file stays newer);
  5. after gres.conf loses two GPUs and slurmd restarts: the drain is
     explained by GRS301 at gres.conf:1.

    live_drift.py --greslint build/greslint [--release 22.05 ...]

Needs what conformance_live needs (root, Debian's Slurm and munge, the
chroots); fails, does not skip, without them.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "conformance"))
import slurm_live  # noqa: E402

SLURM_CONF = """\
ClusterName=drift
SlurmctldHost=head01
AuthType=auth/munge
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
GresTypes=gpu
NodeName=gpu01 CPUs=64 Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=1 Gres=gpu:a100:4 State=UNKNOWN
NodeName=gpu02 CPUs=64 Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=1 Gres=gpu:a100:4 State=UNKNOWN
PartitionName=gpu Nodes=gpu[01-02] Default=YES MaxTime=INFINITE State=UP
"""
GRES_CONF = "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n"


class Failed(Exception):
    pass


def why(probe, greslint, *args):
    rc, out = probe.run_cmd([greslint, "why", "--conf", probe.sb.etc, "--format", "json"] + list(args), 60,
                            stderr=subprocess.DEVNULL)
    if rc not in (0, 1):
        raise Failed("greslint why exited %d: %s" % (rc, out[-500:]))
    report = json.loads(out)
    report["rc"] = rc
    return report


def expect(cond, what, report):
    if not cond:
        raise Failed("%s; why said: %s" % (what, json.dumps(
            {k: report[k] for k in ("nodes", "drift", "rc")}, indent=1)))


def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    if old not in text:
        raise Failed("%s: no %r to edit" % (path, old))
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))


def scenario(probe, greslint):
    """The four steps of the module doc; raises Failed."""
    sb = probe.sb
    steps = []
    r = why(probe, greslint)
    expect(r["rc"] == 0 and not r["nodes"] and not r["drift"], "1: a clean start is not clean", r)
    steps.append("clean")

    rc, out = probe.run_cmd(["scontrol", "update", "NodeName=gpu01", "State=DRAIN",
                             "Reason=fan replaced, burn-in"], 10)
    if rc != 0:
        raise Failed("scontrol update failed: %s" % out)
    r = why(probe, greslint, "gpu01")
    nodes = {n["node"]: n for n in r["nodes"]}
    expect("gpu01" in nodes and nodes["gpu01"]["cause"] == "admin", "2: the admin's drain is not told as such", r)
    steps.append("admin")
    probe.run_cmd(["scontrol", "update", "NodeName=gpu01", "State=RESUME"], 10)

    time.sleep(1.2)     # file times have one-second steps in scontrol's view
    conf = os.path.join(sb.etc, "slurm.conf")
    edit(conf, "SelectTypeParameters=CR_Core_Memory", "SelectTypeParameters=CR_Core")
    edit(conf, "NodeName=gpu02 CPUs=64 Sockets=2 CoresPerSocket=32",
         "NodeName=gpu02 CPUs=32 Sockets=2 CoresPerSocket=16")
    edit(conf, "PartitionName=gpu Nodes=gpu[01-02]",
         "NodeName=gpu03 CPUs=64 Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=1 "
         "NodeAddr=127.0.0.1 Gres=gpu:a100:4 State=UNKNOWN\nPartitionName=gpu Nodes=gpu[01-03]")
    edit(os.path.join(sb.etc, "gres.conf"), "NodeName=gpu[01-02]", "NodeName=gpu[01-03]")
    r = why(probe, greslint)
    kinds = {d["kind"]: d for d in r["drift"]}
    for kind, subject in (("files-newer", None), ("setting", "SelectTypeParameters"),
                          ("node-topology", "gpu02"), ("node-not-in-controller", "gpu03"),
                          ("slurmd-older", "gpu01")):
        expect(kind in kinds and (subject is None or kinds[kind]["subject"] == subject),
               "3: no %s drift%s" % (kind, " for " + subject if subject else ""), r)
    expect(r["rc"] == 1, "3: drift but exit %d" % r["rc"], r)
    steps.append("drift")

    # Back to the nodes slurmctld knows, then reconfigure: only what it re-read is gone.
    edit(conf, "NodeName=gpu02 CPUs=32 Sockets=2 CoresPerSocket=16",
         "NodeName=gpu02 CPUs=64 Sockets=2 CoresPerSocket=32")
    with open(conf) as f:
        text = f.read()
    with open(conf, "w") as f:
        f.write("\n".join(l for l in text.split("\n") if not l.startswith("NodeName=gpu03"))
                .replace("Nodes=gpu[01-03]", "Nodes=gpu[01-02]"))
    if probe.version < (24, 5):
        # 22.05 refuses to reconfigure a changed SelectTypeParameters ("SelectType change
        # requires restart of the slurmctld daemon"); 24.05+ restarts slurmctld on reconfigure.
        edit(conf, "SelectTypeParameters=CR_Core\n", "SelectTypeParameters=CR_Core_Memory\n")
    rc, out = probe.run_cmd(["scontrol", "reconfigure"], 30)
    if rc != 0:
        raise Failed("scontrol reconfigure failed: %s" % out)
    time.sleep(2)
    r = why(probe, greslint)
    kinds = {d["kind"] for d in r["drift"]}
    expect("setting" not in kinds and "node-topology" not in kinds and "node-not-in-controller" not in kinds,
           "4: drift left after scontrol reconfigure", r)
    # 22.05's reconfigure leaves BOOT_TIME as it was: the file stays newer than it.
    if probe.version >= (24, 5):
        expect("files-newer" not in kinds, "4: files newer than slurmctld after its reconfigure", r)
    steps.append("reconfigured")

    # 24.11's reconfigure (a restart of slurmctld from its state files) can bring back the
    # admin's drain of step 2 when the state was saved before the RESUME: resume again.
    deadline = time.time() + 15
    while time.time() < deadline:
        info = probe.scontrol_node()
        if isinstance(info, dict) and "DRAIN" not in info.get("State", ""):
            break
        if isinstance(info, dict):
            if "reported" not in info:
                info["reported"] = True
                sys.stderr.write("after reconfigure gpu01 is %s (%s)\n" % (info.get("State"), info.get("Reason")))
            probe.run_cmd(["scontrol", "update", "NodeName=gpu01", "State=RESUME"], 10)
        time.sleep(0.3)

    # The restart an admin then runs why after: slurmd reads a gres.conf with two GPUs where
    # slurm.conf configures four, slurmctld drains the node, why names the gres.conf line.
    edit(os.path.join(sb.etc, "gres.conf"), "nvidia[0-3]", "nvidia[0-1]")
    probe.stop("slurmd")
    probe.start("slurmd", ["slurmd", "-D", "-N", "gpu01", "-f", sb.conf],
                {"HWLOC_SYNTHETIC": "package:2 core:32 pu:1"})
    deadline = time.time() + 20
    while time.time() < deadline:
        info = probe.scontrol_node()
        if isinstance(info, dict) and "DRAIN" in info.get("State", ""):
            break
        time.sleep(0.2)
    r = why(probe, greslint, "gpu01", "--no-drift")
    nodes = {n["node"]: n for n in r["nodes"]}
    mine = nodes.get("gpu01") or {}
    expect(mine.get("cause") == "explained" and mine.get("rule") == "GRS301" and
           (mine.get("file") or "").endswith("gres.conf") and mine.get("line") == 1,
           "5: the drain after slurmd's restart is not explained by gres.conf:1", r)
    steps.append("restart-drain explained")
    return steps


def inside(args):
    """In the private namespace(s): one sandbox cluster, the scenario, cleanup."""
    if args.root:
        slurm_live.mount_chroot(args.root)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "addr", "add", "127.0.0.2/32", "dev", "lo"], check=True)
    case = args.case
    probe = slurm_live.Probe(case, "gpu01", root=args.root,
                             version=slurm_live.release_tuple(args.slurm_version))
    result = {"release": args.inside}
    try:
        probe.sb = slurm_live.Sandbox(case, "fake", probe.version)
        probe.env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM", "HWLOC"))}
        if probe.wrap:
            probe.env["PATH"] = "/usr/sbin:/usr/bin:/sbin:/bin"
            probe.env.pop("LD_LIBRARY_PATH", None)
        probe.env["SLURM_CONF"] = probe.sb.conf
        probe.sb.build()
        # The static greslint runs inside the chroot too: a copy in the sandbox, which
        # has the same path there.
        greslint = os.path.join(probe.sb.root, "greslint")
        shutil.copy(args.greslint, greslint)
        probe.start_munge()
        ctld, info = probe.start_controller()
        if ctld != "up":
            raise Failed("slurmctld did not come up (%s)" % ctld)
        daemon, _ = probe.register({"HWLOC_SYNTHETIC": probe.topology(info)})
        if daemon != "registered":
            raise Failed("slurmd did not register (%s)" % daemon)
        result["steps"] = scenario(probe, greslint)
        result["ok"] = True
    except (Failed, slurm_live.HarnessError) as e:
        result.update(ok=False, error=str(e))
    finally:
        probe.stop_all()
        if probe.sb:
            probe.sb.remove()
    json.dump(result, sys.stdout)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--release", action="append", choices=list(slurm_live.RELEASES))
    ap.add_argument("--inside", help=argparse.SUPPRESS)
    ap.add_argument("--root", default="", help=argparse.SUPPRESS)
    ap.add_argument("--slurm-version", default="", help=argparse.SUPPRESS)
    ap.add_argument("--case", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.inside:
        return inside(a)
    failed = 0
    for release in a.release or [slurm_live.HOST_RELEASE]:
        problems = slurm_live.preflight(release)
        if problems:
            print("FAIL %s: %s" % (release, "; ".join(problems)))
            failed += 1
            continue
        target = slurm_live.live_target(release)
        case = os.path.join("/tmp", "why-drift-case.%d" % os.getpid())
        os.makedirs(case, exist_ok=True)
        with open(os.path.join(case, "slurm.conf"), "w") as f:
            f.write(SLURM_CONF)
        with open(os.path.join(case, "gres.conf"), "w") as f:
            f.write(GRES_CONF)
        ns = ["unshare", "-n"] + (["-m", "--propagation", "private"] if target["root"] else [])
        t0 = time.time()
        p = subprocess.run(ns + ["--", sys.executable, "-S", os.path.abspath(__file__), "--inside", release,
                                 "--root", target["root"], "--slurm-version", target["version"] or "",
                                 "--case", case, "--greslint", os.path.abspath(a.greslint)],
                           capture_output=True, text=True, timeout=300)
        shutil.rmtree(case, ignore_errors=True)
        try:
            res = json.loads(p.stdout)
        except ValueError:
            res = {"ok": False, "error": "rc=%d %s" % (p.returncode, p.stderr[-800:])}
        for line in p.stderr.splitlines():
            print("  note %s: %s" % (release, line))
        if res.get("ok"):
            print("PASS %s: %s (%.1f s)" % (release, ", ".join(res["steps"]), time.time() - t0))
        else:
            failed += 1
            print("FAIL %s: %s" % (release, res.get("error")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
