#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 13's size limits, the part clang-tidy does not check: no source file under src/ or
include/ over MAX_LINES lines except the data tables listed in DATA, and no .inc file (every
source is a translation unit clangd and clang-tidy see). Function size (80 lines) is
.clang-tidy's readability-function-size, run by scripts/tidy.sh.

    scripts/check-sizes.py [ROOT]     exit 1 and name each file that breaks a limit
"""

import os
import sys

MAX_LINES = 600
# Files that are mostly data and may be longer.
DATA = {"src/keys.cpp"}  # the key tables of every release
# Over the limit today and to be split along their seams (named here so that the list only
# shrinks; a new file over the limit fails).
TO_SPLIT: set = set()


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = []
    for top in ("src", "include"):
        for here, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(here, name)
                rel = os.path.relpath(path, root)
                if name.endswith(".inc"):
                    problems.append(f"{rel}: an .inc file (make it a translation unit)")
                    continue
                if not name.endswith((".cpp", ".hpp", ".h", ".cc")):
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    lines = sum(1 for _ in f)
                if lines > MAX_LINES and rel not in DATA | TO_SPLIT:
                    problems.append(f"{rel}: {lines} lines (limit {MAX_LINES}; split it along its steps)")
                if rel in TO_SPLIT and lines <= MAX_LINES:
                    problems.append(f"{rel}: {lines} lines, within the limit: drop it from TO_SPLIT")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
