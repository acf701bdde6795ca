#!/usr/bin/env python3
"""Grep tool vs `rg -j2` on the Linux kernel source: five query shapes and more, the same arguments on both sides
(the tool prints its own rg equivalent), match counts checked equal, medians of interleaved runs, ratio printed.

Run: python3 benchmarks/grep_vs_rg.py [RUNS]"""

import json
import subprocess
import sys

from common import build_bench, kernel_tree, median_ms, report, timed

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7

CASES = [
    ("rare literal (content)", {"pattern": "PM_QOS_DEFAULT_VALUE", "output_mode": "content", "head_limit": 0}),
    ("word regex \\b..\\b (count)", {"pattern": "\\bspin_lock_irqsave\\b", "output_mode": "count", "head_limit": 0}),
    ("-i phrase (content)", {"pattern": "linus torvalds", "-i": True, "output_mode": "content", "head_limit": 0}),
    ("type filter -t c (count)", {"pattern": "EXPORT_SYMBOL_GPL", "type": "c", "output_mode": "count",
                                  "head_limit": 0}),
    ("files with matches (default mode)", {"pattern": "MODULE_LICENSE", "head_limit": 0}),
    ("high-match word, head_limit 100", {"pattern": "return", "output_mode": "content", "head_limit": 100}),
]


def rg_count(mode, out):
    lines = [l for l in out.splitlines() if l and l != "--"]
    if mode == "count":
        return sum(int(l.rsplit(":", 1)[1]) for l in lines)
    return len(lines)


def main():
    root = kernel_tree()
    bench = build_bench()
    print(f"Grep vs rg -j2 on {root} (median of {RUNS} runs, warm cache; both as fresh processes, then the tool's call alone in a running session)")
    ratios = []
    for name, tool_input in CASES:
        mode = tool_input.get("output_mode", "files_with_matches")
        args = json.loads(subprocess.run([bench, "rg-args", root, json.dumps(tool_input)], capture_output=True,
                                         text=True, check=True).stdout)
        limit = tool_input.get("head_limit", 250)
        if limit:
            # The tool's first N lines in path order are exactly `rg --sort path | head -n N`.
            peer = "rg -j2 " + " ".join(f"'{a}'" for a in ["--sort", "path"] + args) + f" | head -n {limit}"
        else:
            peer = ["rg", "-j2"] + args
        ours_cmd = [bench, "grep", root, json.dumps(tool_input)]
        timed(ours_cmd), timed(peer)  # warm the page cache
        ours, theirs = [], []
        summary = rg_out = None
        for _ in range(RUNS):
            t, proc = timed(ours_cmd)
            ours.append(t)
            summary = json.loads(proc.stderr.strip().splitlines()[-1])
            t, proc = timed(peer)
            theirs.append(t)
            rg_out = proc.stdout
        if mode == "files_with_matches":
            ours_n = summary["files"]
        elif limit:
            ours_n = summary["shown"]
        else:
            ours_n = summary["matches"]
        rg_n = rg_count(mode, rg_out)
        warm = json.loads(timed(ours_cmd + [str(RUNS + 1)])[1].stderr.strip().splitlines()[-1])["call_ms"][1:]
        warm_ms = sorted(warm)[len(warm) // 2]
        if ours_n != rg_n:
            print(f"  MISMATCH in {name}: tool {ours_n}, rg {rg_n}")
        ratios.append(report(name, median_ms(ours), median_ms(theirs), "rg", 1.2, f"[{ours_n} = {rg_n}]"))
        report("  same, in a running session", warm_ms, median_ms(theirs), "rg", 1.2)
    print(f"worst ratio {max(ratios):.2f}x")


if __name__ == "__main__":
    main()
