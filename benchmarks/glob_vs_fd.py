#!/usr/bin/env python3
"""Glob tool vs `fdfind` on the Linux kernel source: the same patterns, file counts checked equal, medians of
interleaved runs, ratio printed. The tool also stats every match to sort by modification time, which fd does not.

Run: python3 benchmarks/glob_vs_fd.py [RUNS]"""

import json
import sys

from common import build_bench, kernel_tree, median_ms, report, timed

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7

CASES = [
    ("*.c", ["-t", "f", "-g", "*.c"]),
    ("Kconfig*", ["-t", "f", "-g", "Kconfig*"]),
    ("**/net/**/*.h", ["-t", "f", "-p", "-g", "**/net/**/*.h"]),
    ("*", ["-t", "f", "-g", "*"]),
]


def main():
    root = kernel_tree()
    bench = build_bench()
    print(f"Glob vs fdfind -j2 on {root} (median of {RUNS} runs, warm cache; both as fresh processes, then the tool's call alone in a running session)")
    ratios = []
    for pattern, fd_args in CASES:
        ours_cmd = [bench, "glob", root, json.dumps({"pattern": pattern, "path": root})]
        fd_cmd = ["fdfind", "-j2"] + fd_args + [root]
        timed(ours_cmd), timed(fd_cmd)
        ours, theirs = [], []
        for _ in range(RUNS):
            t, proc = timed(ours_cmd)
            ours.append(t)
            total = json.loads(proc.stderr.strip().splitlines()[-1])["total"]
            t, proc = timed(fd_cmd)
            theirs.append(t)
            fd_total = len(proc.stdout.splitlines())
        warm = json.loads(timed(ours_cmd + [str(RUNS + 1)])[1].stderr.strip().splitlines()[-1])["call_ms"][1:]
        warm_ms = sorted(warm)[len(warm) // 2]
        if total != fd_total:
            print(f"  MISMATCH for {pattern}: tool {total}, fd {fd_total}")
        ratios.append(report(f"Glob {pattern}", median_ms(ours), median_ms(theirs), "fd", 1.2,
                             f"[{total} = {fd_total} files]"))
        report("  same, in a running session", warm_ms, median_ms(theirs), "fd", 1.2)
    print(f"worst ratio {max(ratios):.2f}x")


if __name__ == "__main__":
    main()
