#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Count docs/startup-checks.md's inventory rows per release and greslint status.

    scripts/startup-coverage.py            print the "Coverage per release" table
    scripts/startup-coverage.py --check    exit 1 when the page's table differs from it

A row is one message format at one call site: its Releases cell (`22.05+`, `22.05–23.11`,
`24.11+`) says which releases have it, its last cell greslint's status, which starts with
"modelled", "not decidable", "out of scope", "unreachable" or "not modelled" (yet) (a row whose status names
a rule but says "not modelled yet" too counts as not modelled).
"""
import os
import re
import sys

RELEASES = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]
PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "docs", "startup-checks.md")
STATUSES = ["Modelled", "Not decidable", "Out of scope", "Unreachable", "Not modelled yet"]


def releases_of(cell):
    cell = cell.strip().replace("–", "-")
    m = re.fullmatch(r"(\d\d\.\d\d)\+", cell)
    if m:
        return [r for r in RELEASES if r >= m.group(1)]
    m = re.fullmatch(r"(\d\d\.\d\d)-(\d\d\.\d\d)", cell)
    if m:
        return [r for r in RELEASES if m.group(1) <= r <= m.group(2)]
    m = re.fullmatch(r"\d\d\.\d\d", cell)
    if m:
        return [cell]
    return None


def status_of(cell):
    s = cell.strip().lower()
    if "not modelled yet" in s or s.startswith("not modelled"):
        return "Not modelled yet"
    for name in ("modelled", "not decidable", "out of scope", "unreachable"):
        if s.startswith(name):
            return {"modelled": "Modelled", "not decidable": "Not decidable",
                    "out of scope": "Out of scope", "unreachable": "Unreachable"}[name]
    return None


def count(text):
    table = {r: dict.fromkeys(STATUSES, 0) for r in RELEASES}
    for line in text.splitlines():
        cells = line.split("|")
        if len(cells) < 8 or not cells[1].strip().startswith("`"):
            continue
        releases = releases_of(cells[3])
        status = status_of(cells[-2])
        if releases is None or status is None:
            sys.exit("startup-coverage.py: cannot read row: " + line[:120])
        for r in releases:
            table[r][status] += 1
    return table


def render(table):
    out = ["| Release | Rows | " + " | ".join(STATUSES) + " |", "|---|---|" + "---|" * len(STATUSES)]
    for r in RELEASES:
        row = table[r]
        out.append("| %s | %d | %s |" % (r, sum(row.values()), " | ".join(str(row[s]) for s in STATUSES)))
    return "\n".join(out)


def main():
    with open(PAGE, encoding="utf-8") as f:
        text = f.read()
    table = render(count(text))
    if "--check" in sys.argv[1:]:
        if table not in text:
            print("docs/startup-checks.md: the coverage table is out of date; it should read:\n" + table)
            return 1
        return 0
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
