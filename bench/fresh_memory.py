#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How much it costs this machine to give a new process memory it has not touched yet.

greslint's large runs fill ~100 MB in a process that has just started. On bare metal the
kernel zeroes that in ~10 ms. On a virtual machine whose host takes freed memory back (free
page reporting, ballooning) a first touch may also fault on the host, and the same 100 MB
can take 150-250 ms, more or less from one run to the next. The whole-process figures of
docs/performance.md include that cost, so bench/run.sh records it beside them
(fresh-memory.json).

Each measurement is a new process that maps 120 MiB of private anonymous memory, advises
it as the reader does its buffers, and writes one byte per 4 KiB page. Prints JSON,
milliseconds per 100 MiB:
  huge_median, huge_max   2 MiB pages (MADV_HUGEPAGE), 8 processes, one every 0.5 s
  small_pages             4 KiB pages (MADV_NOHUGEPAGE), median of 3 processes
"""
import json
import mmap
import statistics
import subprocess
import sys
import time

MIB = 1 << 20
SIZE = 120 * MIB


def touch(huge: bool) -> float:
    m = mmap.mmap(-1, SIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    m.madvise(mmap.MADV_HUGEPAGE if huge else mmap.MADV_NOHUGEPAGE)
    start = time.perf_counter()
    for offset in range(0, SIZE, 4096):
        m[offset] = 1
    elapsed = time.perf_counter() - start
    m.close()
    return elapsed * 1000 * (100 * MIB) / SIZE


def in_new_process(kind: str) -> float:
    out = subprocess.run([sys.executable, __file__, "--child", kind], check=True, capture_output=True, text=True)
    return float(out.stdout)


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(touch(sys.argv[2] == "huge"))
        return 0
    huge = []
    for _ in range(8):
        huge.append(in_new_process("huge"))
        time.sleep(0.5)
    small = [in_new_process("small") for _ in range(3)]
    json.dump({"huge_median": round(statistics.median(huge), 1), "huge_max": round(max(huge), 1),
               "small_pages": round(statistics.median(small), 1)}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
