#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every rule page cites only what ships or is public: no session-internal documents
(slurm-semantics.md, shared/conformance/, shared/docs/), and its Slurm references name a
source file of Slurm's tree. Every page of a rule whose effect is a drain says how to
return the nodes to service. Usage: test_rule_pages.py SOURCE_DIR"""
import glob
import os
import re
import sys

UNSHIPPED = re.compile(r"slurm-semantics|shared/conformance|shared/docs|shared/tools")
problems = []
pages = sorted(glob.glob(os.path.join(sys.argv[1], "docs", "rules", "GRS*.md")))
if len(pages) < 70:
    problems.append(f"only {len(pages)} rule pages found")
for page in pages:
    name = os.path.basename(page)
    text = open(page, encoding="utf-8").read()
    for n, line in enumerate(text.splitlines(), 1):
        if UNSHIPPED.search(line):
            problems.append(f"{name}:{n}: cites a document that does not ship: {line.strip()}")
        if line.startswith("- Slurm source:") and not re.search(r"`src/[a-z_/]+\.c`", line):
            problems.append(f"{name}:{n}: a Slurm source reference without a file of Slurm's tree")
    header = next((l for l in text.splitlines() if l.startswith("Severity")), "")
    effect = header.split("Effect:")[1].split("·")[0] if "Effect:" in header else ""
    if "drain" in effect and "State=RESUME" not in text:
        problems.append(f"{name}: a drain rule whose page does not say how to resume the nodes")
print("\n".join(problems) or f"{len(pages)} rule pages: shipped sources only, drain pages say how to resume")
sys.exit(1 if problems else 0)
