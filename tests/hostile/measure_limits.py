#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What the per-file limit costs at its edge: slurm.conf files of just under 64 MiB, in the
shapes that cost greslint the most memory per input byte, linted by a release build with no
address-space cap. A measurement, not a test: it prints the Markdown table of
docs/robustness.md section 4.

    python3 tests/hostile/measure_limits.py build/greslint
"""
import os
import subprocess
import sys
import tempfile

LIMIT = 64 * 1024 * 1024
HEAD = "ClusterName=edge\nSlurmctldHost=head\nGresTypes=gpu\n"


def fill(unit, head=HEAD, tail=""):
    """head + as many copies of unit as fit under the limit + tail."""
    n = (LIMIT - len(head) - len(tail) - 1) // len(unit)
    return head + unit * n + tail, n


def shapes():
    text, n = fill(" CPUs=1", head=HEAD + "NodeName=n1", tail="\n")
    yield f"one line of {n / 1e6:.1f} million ` CPUs=1` in one NodeName record", text
    text, n = fill("ClusterName=x\n")
    yield f"{n / 1e6:.1f} million `ClusterName=x` lines (duplicates)", text
    text, n = fill("NodeName=a\n")
    yield f"{n / 1e6:.1f} million `NodeName=a` lines (duplicate nodes)", text
    line = "NodeName=n[" + ",".join(str(i) for i in range(20000)) + "]\n"
    text, n = fill(line)
    yield f"{n:,} `NodeName=n[0,1,...,19999]` lines", text
    text, n = fill("x\n")
    yield f"{n / 1e6:.0f} million `x` lines (parse errors)", text
    text, n = fill("NodeName=n1 Gres=gpu:1 Gres=gpu:1 CPUs=1\n")
    yield f"{n / 1e6:.1f} million `NodeName=n1 Gres=gpu:1 Gres=gpu:1 CPUs=1` lines", text


def main():
    greslint = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/greslint")
    print("| 64 MiB slurm.conf made of | exit | CPU (s) | peak RSS (MB) |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="greslint-limits-") as root:
        for title, text in shapes():
            with open(os.path.join(root, "slurm.conf"), "w") as f:
                f.write(text)
            timing = os.path.join(root, "time.txt")
            p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", timing, greslint, "lint", root,
                                "--slurm-version", "22.05"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            user, system, rss_kb = open(timing).read().split()[-3:]
            print(f"| {title} | {p.returncode} | {float(user) + float(system):.2f} | {int(rss_kb) / 1024:.0f} |",
                  flush=True)


if __name__ == "__main__":
    main()
