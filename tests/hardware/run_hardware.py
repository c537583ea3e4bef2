#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run greslint node-check on the captured hardware trees and compare with the annotations.

Each case is a directory tests/hardware/cases/<tree>/<case>/ holding slurm.conf, gres.conf
and cgroup.conf. The first line of slurm.conf gives the node-check arguments:

    # node-check-args: --sysroot ../../../trees/hgx-8gpu --slurm-version 24.11

(paths relative to the case directory). Expected findings are written exactly as for the
rule fixtures (tests/fixtures/run_fixtures.py):

    # expect: GRS504 warning col=63 "is not the NUMA-local cores"
    NodeName=hgx01 Name=gpu Type=h100 File=/dev/nvidia[0-3] Cores=8-15

and `# expect-global: GRSnnn ...` for findings without a location. Findings are matched both
ways, so a case without annotations must be silent.

Every silent case is also a round trip: `node-check --suggest` on its tree, with the
case's NodeName line and gres.conf replaced by the suggested lines, must give no findings
from `greslint lint` nor from `node-check`.

Usage: run_hardware.py --greslint BUILD/greslint [CASE ...]
       run_hardware.py --check-trees     (trees/ is what make_trees.py writes)
"""

import argparse
import filecmp
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fixtures"))
import run_fixtures as fx  # noqa: E402  (annotation grammar and matching)

ARGS_PREFIX = "# node-check-args:"


def case_dirs(selection):
    root = os.path.join(HERE, "cases")
    cases = []
    for tree in sorted(os.listdir(root)):
        for name in sorted(os.listdir(os.path.join(root, tree))):
            path = os.path.join(root, tree, name)
            if os.path.isfile(os.path.join(path, "slurm.conf")):
                cases.append(path)
    if selection:
        cases = [c for c in cases if any(s in os.path.relpath(c, root) for s in selection)]
    return cases


def case_args(case):
    with open(os.path.join(case, "slurm.conf"), encoding="utf-8") as f:
        first = f.readline().strip()
    if not first.startswith(ARGS_PREFIX):
        raise fx.FixtureError("%s/slurm.conf: first line must be '%s ...'" % (case, ARGS_PREFIX))
    args = shlex.split(first[len(ARGS_PREFIX):])
    for i, a in enumerate(args[:-1]):  # absolute sysroot, so commands may run elsewhere
        if a == "--sysroot":
            args[i + 1] = os.path.normpath(os.path.join(case, args[i + 1]))
    return args


class Runner:
    def __init__(self, greslint):
        self.greslint = greslint
        self.node_check = [greslint, "node-check"]

    def run(self, cmd, cwd):
        env = dict(os.environ)
        env.pop("SLURM_CONF", None)
        env["NO_COLOR"] = "1"
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env, timeout=60)
        if p.returncode not in (0, 1):
            raise fx.FixtureError("%s exited with %d: %s" % (" ".join(cmd), p.returncode,
                                                               p.stderr.decode("utf-8", "replace").strip()))
        return p.stdout.decode("utf-8")

    def diagnostics(self, cmd, case):
        out = self.run(cmd + ["--format", "json", "--fail-level", "never"], case)
        try:
            report = json.loads(out)
        except ValueError as e:
            raise fx.FixtureError("no JSON from %s (%s): %s" % (" ".join(cmd), e, out[:200]))
        return [{"rule": d.get("rule"), "severity": d.get("severity"), "message": d.get("message") or "",
                 "file": fx.normalise_file(case, d.get("file")), "line": d.get("line"),
                 "column": d.get("column")} for d in report.get("diagnostics", [])]

    def check(self, case, args):
        return self.diagnostics(self.node_check + ["."] + args, case)

    def lint(self, case, args):
        version = args[args.index("--slurm-version") + 1] if "--slurm-version" in args else "22.05"
        return self.diagnostics([self.greslint, "lint", ".", "--no-config", "--slurm-version", version], case)


def round_trip(runner, case, args):
    """--suggest output put back into the case's configuration must be clean."""
    text = runner.run(runner.node_check + ["."] + args + ["--suggest"], case)
    section, node_line, gres_lines = None, None, []
    for line in text.splitlines():
        if line.startswith("# slurm.conf"):
            section = "slurm"
        elif line.startswith("# gres.conf"):
            section = "gres"
        elif line.startswith("#") or not line.strip():
            continue
        elif section == "slurm":
            node_line = line
        elif section == "gres":
            gres_lines.append(line)
    if not node_line or not gres_lines:
        return ["--suggest printed no NodeName or gres.conf line:\n" + text]
    node = node_line.split()[0].split("=", 1)[1]
    problems = []
    with tempfile.TemporaryDirectory(prefix="greslint-suggest-") as tmp:
        with open(os.path.join(case, "slurm.conf"), encoding="utf-8") as f:
            lines = [l for l in f.read().split("\n") if not l.startswith("# expect")]
        out = []
        for l in lines:
            if l.startswith("NodeName="):
                out.append(node_line)
            elif l.startswith("AccountingStorageTRES="):
                # the TRES list names the suggested types
                types = sorted({t.split(":")[1] for t in node_line.split("Gres=")[1].split(",")
                                if t.count(":") == 2})
                out.append("AccountingStorageTRES=" + ",".join(["gres/gpu"] + ["gres/gpu:" + t for t in types]))
            elif l.startswith("PartitionName="):
                out.append("PartitionName=gpu Nodes=%s Default=YES State=UP" % node)
            else:
                out.append(l)
        with open(os.path.join(tmp, "slurm.conf"), "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        with open(os.path.join(tmp, "gres.conf"), "w", encoding="utf-8") as f:
            f.write("\n".join(gres_lines) + "\n")
        shutil.copy(os.path.join(case, "cgroup.conf"), tmp)
        plain = [a for i, a in enumerate(args) if a != "--node" and (i == 0 or args[i - 1] != "--node")]
        for what, diags in (("lint", runner.lint(tmp, plain)),
                            ("node-check", runner.check(tmp, plain + ["--node", node]))):
            for d in diags:
                problems.append("suggest round trip, %s: %s" % (what, fx.describe_diag(d)))
        if problems:
            problems.append("suggested:\n" + text)
    return problems


def run_case(runner, case):
    expectations = []
    for name in ("slurm.conf", "gres.conf"):
        path = os.path.join(case, name)
        if os.path.isfile(path):
            expectations.extend(fx.read_annotations(path, name))
    args = case_args(case)
    unmet, unexpected = fx.match(expectations, runner.check(case, args))
    problems = ["missing:    " + e.describe() for e in unmet]
    problems += ["unexpected: " + fx.describe_diag(d) for d in unexpected]
    if not expectations and not problems:
        problems += round_trip(runner, case, args)
    return len(expectations), problems


def run_inventory(runner):
    """inventory/: --inventory with a plain folder (hgx01) and a collected tarball (ws01)."""
    case = os.path.join(HERE, "inventory")
    expectations = []
    for name in ("slurm.conf", "gres.conf"):
        expectations.extend(fx.read_annotations(os.path.join(case, name), name))
    with tempfile.TemporaryDirectory(prefix="greslint-inventory-") as inv:
        shutil.copytree(os.path.join(HERE, "trees", "hgx-7gpu"), os.path.join(inv, "hgx01"))
        script = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "collect-gpu-inventory.sh")
        p = subprocess.run(["sh", script, "-r", os.path.join(HERE, "trees", "workstation-4gpu"),
                            "-o", os.path.join(inv, "ws01.tar.gz")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            return len(expectations), ["collect-gpu-inventory.sh failed: " + p.stderr.decode("utf-8", "replace")]
        diags = runner.check(case, case_args(case) + ["--inventory", inv])
    unmet, unexpected = fx.match(expectations, diags)
    problems = ["missing:    " + e.describe() for e in unmet]
    problems += ["unexpected: " + fx.describe_diag(d) for d in unexpected]
    return len(expectations), problems


def check_trees():
    with tempfile.TemporaryDirectory(prefix="greslint-trees-") as tmp:
        subprocess.run([sys.executable, os.path.join(HERE, "make_trees.py"), tmp], check=True)
        problems = []

        def compare(d):
            for name in d.left_only:
                problems.append("only in trees/: " + os.path.join(d.left, name))
            for name in d.right_only:
                problems.append("missing from trees/: " + os.path.join(d.left, name))
            for name in d.diff_files:
                problems.append("differs: " + os.path.join(d.left, name))
            for sub in d.subdirs.values():
                compare(sub)

        compare(filecmp.dircmp(os.path.join(HERE, "trees"), tmp, ignore=[]))
        # dircmp compares by stat signature first; compare contents for certainty.
        for root, _, files in os.walk(tmp):
            for name in files:
                fresh = os.path.join(root, name)
                kept = os.path.join(HERE, "trees", os.path.relpath(fresh, tmp))
                if os.path.isfile(kept) and not filecmp.cmp(kept, fresh, shallow=False):
                    problems.append("differs: " + kept)
    for p in sorted(set(problems)):
        print(p)
    print("trees: %s" % ("up to date" if not problems else "run tests/hardware/make_trees.py"))
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--greslint", help="path to the greslint binary")
    ap.add_argument("--check-trees", action="store_true", help="only check trees/ against make_trees.py")
    ap.add_argument("cases", nargs="*", help="case paths (substrings of tree/case) to run")
    opts = ap.parse_args()
    if opts.check_trees:
        return check_trees()
    if not opts.greslint:
        ap.error("--greslint is required")
    runner = Runner(os.path.abspath(opts.greslint))
    passed = failed = 0
    for case in case_dirs(opts.cases):
        label = os.path.relpath(case, os.path.join(HERE, "cases"))
        try:
            n, problems = run_case(runner, case)
        except fx.FixtureError as e:
            n, problems = 0, [str(e)]
        if problems:
            failed += 1
            print("FAIL %s" % label)
            for p in problems:
                print("    " + p.replace("\n", "\n    "))
        else:
            passed += 1
            print("PASS %s (%s)" % (label, "%d expected finding%s" % (n, "" if n == 1 else "s") if n
                                    else "silent; --suggest round trip clean"))
        sys.stdout.flush()
    if not opts.cases or any("inventory" in s for s in opts.cases):
        try:
            n, problems = run_inventory(runner)
        except fx.FixtureError as e:
            n, problems = 0, [str(e)]
        if problems:
            failed += 1
            print("FAIL inventory")
            for p in problems:
                print("    " + p.replace("\n", "\n    "))
        else:
            passed += 1
            print("PASS inventory (%d expected findings; a folder and a tarball)" % n)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
