#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Differential test: greslint's hostlist expansion against the real Slurm 22.05 `scontrol show hostnames`.
"""Generates hostlist expressions from a fixed seed, expands each with `scontrol show
hostnames` (Debian's slurm-client, 22.05) and with `greslint hostlist -e --slurm-version
22.05`, and requires the same stdout for every expression scontrol accepts, exit code 2
from greslint for every expression scontrol rejects, and each parser message scontrol logs
(`_parse_single_range: ...`) to appear verbatim in greslint's stderr.

scontrol exits 0 even for an invalid hostlist; it is recognised by `Invalid hostlist:` on
stderr, a `fatal:` line, or a crash.
"""

import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile

ULONG_MAX = 2**64 - 1

# Expressions where greslint deliberately differs from scontrol; each entry records what
# scontrol does so the divergence stays documented and checked.
DOCUMENTED_DIVERGENCES = [
    # The count hi-lo+1 wraps to 0, so scontrol accepts the range and prints nothing.
    ("n[0-18446744073709551615]", "scontrol prints nothing; greslint rejects the range"),
]

# Hand-picked cases, each one a behaviour the spec or hostlist.c calls out.
FIXED = [
    "", ",", " ,\t, ", "n1", "n01", "n1,n2,n3", "n3,n1,n2,n1", "n1]", "x", "007",
    "gpu[01-04,07]", "n[08-10]", "n[1-10]", "n[001-10]", "n[01-100]", "b[3,5-6]",
    "rack[1-2]-n[01-04]", "a[0-1]b[0-1]c[0-1]", "r[1-2]c[3-4]n[5-6]", "n[1, 2]", "n[ 5- 6]",
    "n[+5]", "n[5-+6]", "n[5-]", "n[5a-6]", "n[1X-2]", "n[1\t,2]", "n[1 ]", "n[]", "n[1,]",
    "n[,1]", "n[3-1]", "n[1--3]", "n[-1]", "n[a-b]", "n[0x1-3]", "n[1x2]", "n[1-2]x",
    "n[1-2]]", "n[1]-ib", "n[1-3", "[1-3", "[", "[12", "n[1,2", "a[1]b[2", "a[1-2]b[3",
    "n[0-65535]", "n[00000-65535]", "n[0-65536]", "n[5-65541]", "n[0-99999999999]",
    "a[0-50000,50001-65535,0-5].b[0-1]", "a[0-40000,40001-65535,0-3]b[0-1]c[5]",
    "a[0-65536]b[1]c[1]", "a[3-1]b[1-2]c[1]", "a[x]b[1-2]", "a[1-2]x]b[3-4]y[5]",
    "x[a[1-2]b[3]", "a]b[1,2]", "[a],b[1]", "n[1-2],junk]", "[1-2]", "[01-03]x",
    "n99999999999999999999", "n9999999999999999999999999", "n[18446744073709551615]",
    "n18446744073709551615,n0", "n18446744073709551614,n18446744073709551615",
    "n[18446744073709551614-18446744073709551615]", "a\nb1,a2", "a\rb1,a2", "a\r1,a2",
    "a\x0b1,a2", "x\n1,x2", "a[ 1,1]b[5,6]", "n[1-3],n[1-3]", "n[1-5],n[3-8]",
    "n10,n9,n010", "-1,-2", "-n[1-2]", "a b", "a\tb", "  n[1-2]  ", "n[1-2]\t,\tn[4]",
    "n[1-2],,n[3]", "a1b2,a1b3", "nid0000[2-7]", "n[9-11],n[009-011]",
]

PREFIXES = ["n", "gpu", "node-", "rack1-n", "cn", "a.b", "", "x_", "N", "gpu-a100-",
            "c0", "host", "z9z", "dgx", "nid000", "p"]
LITERALS = ["", "-", "_", "n", "-gpu", ".", "x"]
SEPARATORS = [",", " ", "\t", ", ", ",,", " \t "]
CORRUPTIONS = ["[", "]", ",", "-", " ", "\t", "0", "x", "+", "a", "\n"]


def padded(value, width):
    return str(value).rjust(width, "0")


def rand_item(rng, max_span=40, max_value=200):
    lo = rng.randrange(0, max_value)
    width = len(str(lo)) + rng.choice([0, 0, 0, 1, 2])
    if rng.random() < 0.4:
        return padded(lo, width)
    hi = lo + rng.randrange(0, max_span)
    hi_width = rng.choice([width, len(str(hi))])
    return padded(lo, width) + "-" + padded(hi, hi_width)


def rand_bracket(rng, items=None, **kw):
    n = items if items is not None else rng.choice([1, 1, 2, 3, 4, 6])
    parts = [rand_item(rng, **kw) for _ in range(n)]
    if rng.random() < 0.15 and parts:
        parts.append(rng.choice(parts))  # duplicates are kept by Slurm
    return "[" + ",".join(parts) + "]"


def rand_plain(rng):
    prefix = rng.choice(PREFIXES)
    if rng.random() < 0.2:
        return prefix + rng.choice(["", "x", "login", "-ib"])
    return prefix + padded(rng.randrange(0, 2000), rng.choice([1, 2, 3, 4]))


def rand_bracketed(rng):
    prefix = rng.choice(PREFIXES)
    groups = rng.choice([1, 1, 1, 2, 2, 3])
    text = prefix
    for g in range(groups):
        small = groups > 1
        text += rand_bracket(rng, items=rng.choice([1, 2]) if small else None,
                             max_span=3 if small else 40, max_value=30 if small else 200)
        if g < groups - 1:
            text += rng.choice(LITERALS[:-1])
    return text


def rand_valid(rng):
    tokens = []
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        tokens.append(rand_bracketed(rng) if rng.random() < 0.7 else rand_plain(rng))
    out = tokens[0]
    for t in tokens[1:]:
        out += rng.choice(SEPARATORS) + t
    if rng.random() < 0.1:
        out = rng.choice(SEPARATORS) + out + rng.choice(SEPARATORS)
    return out


def corrupt(rng, text):
    for _ in range(rng.choice([1, 1, 2])):
        pos = rng.randrange(0, len(text) + 1)
        action = rng.random()
        if action < 0.45 and text:
            pos = min(pos, len(text) - 1)
            text = text[:pos] + text[pos + 1:]
        elif action < 0.9:
            text = text[:pos] + rng.choice(CORRUPTIONS) + text[pos:]
        else:
            text = text[:pos] + text[pos:pos + 3] + text[pos:]
    return text


def rand_whitespace_range(rng):
    lo = rng.randrange(0, 20)
    forms = [f" {lo}", f"  {lo}-{lo + 3}", f"+{lo}", f"{lo}- {lo + 2}", f"{lo}-+{lo + 1}",
             f"{lo}a-{lo + 2}", f"\t{lo}", f"{lo}-", f" {lo}-"]
    return rng.choice(PREFIXES) + "[" + ",".join(rng.sample(forms, rng.choice([1, 2, 3]))) + "]"


def rand_limits(rng):
    lo = rng.randrange(0, 1000)
    span = rng.choice([65535, 65536, 65537, 70000, 10**6, 10**12])
    return rng.choice(PREFIXES) + f"[{lo}-{lo + span}]"


def rand_nested_error(rng):
    bad = rng.choice(["3-1", "", "x", "1--2", "0-65536", "a"])
    good = rand_bracket(rng, items=1, max_span=2, max_value=10)
    shape = rng.choice(["a[{bad}]b{good}c[1]", "a{good}b[{bad}]c[1]", "a[{bad}]b{good}c{good}d[2]",
                        "a[{bad}]b{good}", "[{bad}]{good}"])
    return shape.format(bad=bad, good=good)


def rand_huge_digits(rng):
    digits = "".join(rng.choice("0123456789") for _ in range(rng.choice([19, 20, 21, 25])))
    return rng.choice(["n", "gpu", ""]) + digits


def generate(count, seed):
    rng = random.Random(seed)
    seen, out = set(), []

    def add(expr):
        if expr not in seen and "\0" not in expr:
            seen.add(expr)
            out.append(expr)

    for e in FIXED:
        add(e)
    makers = [
        (0.30, lambda: rand_valid(rng)),
        (0.30, lambda: corrupt(rng, rand_valid(rng))),
        (0.10, lambda: rand_whitespace_range(rng)),
        (0.08, lambda: rand_nested_error(rng)),
        (0.07, lambda: rand_limits(rng)),
        (0.05, lambda: rand_huge_digits(rng)),
        (0.10, lambda: rand_plain(rng) + rng.choice(SEPARATORS) + rand_bracketed(rng) + rng.choice(["", "]", "[", "x", "[1"])),
    ]
    total = sum(w for w, _ in makers)
    while len(out) < count:
        pick = rng.random() * total
        for weight, make in makers:
            pick -= weight
            if pick <= 0:
                add(make())
                break
    return out


def run(cmd, env):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def scontrol_rejects(rc, stderr):
    return rc != 0 or b"Invalid hostlist:" in stderr or b"fatal:" in stderr


def slurm_messages(stderr):
    """The parser's own log lines (`scontrol: error: _parse_single_range: ...`)."""
    out = set()
    for line in stderr.split(b"\n"):
        for tag in (b"scontrol: error: ", b"scontrol: fatal: "):
            if line.startswith(tag) and line[len(tag):].startswith(b"_parse_"):
                out.add(line[len(tag):])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--greslint", required=True)
    ap.add_argument("--scontrol", default="scontrol")
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=2205)
    ap.add_argument("--jobs", type=int, default=max(4, 2 * (os.cpu_count() or 1)))
    ap.add_argument("--list", action="store_true", help="print the expressions and exit")
    args = ap.parse_args()

    exprs = generate(args.count, args.seed)
    if args.list:
        for e in exprs:
            print(repr(e))
        return 0

    scontrol = shutil.which(args.scontrol)
    if not scontrol:
        print(f"FAIL: `{args.scontrol}' not found; install Debian's slurm-client (Slurm 22.05)", file=sys.stderr)
        return 1
    if not os.access(args.greslint, os.X_OK):
        print(f"FAIL: greslint binary `{args.greslint}' is not executable", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory(prefix="greslint-hostlist-diff-") as tmp:
        conf = os.path.join(tmp, "slurm.conf")
        with open(conf, "w") as f:
            f.write("ClusterName=greslintdiff\nSlurmctldHost=localhost\nNodeName=n1 CPUs=1\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
        env["SLURM_CONF"] = conf

        rc, out, err = run([scontrol, "--version"], env)
        if rc != 0 or b" 22.05." not in out:
            print(f"FAIL: expected Slurm 22.05's scontrol, got rc={rc} {out!r} {err!r}", file=sys.stderr)
            return 1

        def check(expr):
            s_rc, s_out, s_err = run([scontrol, "--", "show", "hostnames", expr], env)
            g_rc, g_out, g_err = run([args.greslint, "hostlist", "-e", "--slurm-version", "22.05", "--", expr], env)
            return expr, (s_rc, s_out, s_err), (g_rc, g_out, g_err)

        failures, valid, invalid = [], 0, 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for expr, (s_rc, s_out, s_err), (g_rc, g_out, g_err) in pool.map(check, exprs):
                missing = [m for m in slurm_messages(s_err) if m not in g_err]
                if missing:
                    failures.append((expr, f"greslint does not report Slurm's {missing!r}: {g_err[:300]!r}"))
                elif scontrol_rejects(s_rc, s_err):
                    invalid += 1
                    if g_rc != 2:
                        failures.append((expr, f"scontrol rejects (rc={s_rc}, {s_err[-200:]!r}) but greslint "
                                               f"exits {g_rc} with {g_out[:200]!r}"))
                else:
                    valid += 1
                    if g_rc != 0 or g_out != s_out:
                        s_lines, g_lines = s_out.count(b"\n"), g_out.count(b"\n")
                        failures.append((expr, f"scontrol prints {s_out[:300]!r} ({s_lines} lines), "
                                               f"greslint exits {g_rc} with {g_out[:300]!r} "
                                               f"({g_lines} lines) {g_err[:300]!r}"))

            for expr, why in DOCUMENTED_DIVERGENCES:
                _, (s_rc, s_out, s_err), (g_rc, _, _) = check(expr)
                if scontrol_rejects(s_rc, s_err) or s_out != b"" or g_rc != 2:
                    failures.append((expr, f"documented divergence changed ({why}): scontrol rc={s_rc} "
                                           f"out={s_out[:100]!r}, greslint rc={g_rc}"))

    print(f"hostlist_differential: {len(exprs)} expressions (seed {args.seed}): {valid} accepted by scontrol, "
          f"{invalid} rejected; {len(exprs) - len(failures)} agree, {len(failures)} differ")
    for expr, why in failures[:25]:
        print(f"  MISMATCH {expr!r}: {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
