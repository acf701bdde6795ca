#!/usr/bin/env python3
"""Edit tool vs a plain read-modify-write in Python on a 50 MB file (kernel C sources concatenated): one unique
replacement in the middle. The tool's time is the whole Edit call through the pipeline (validation with its own
read and staleness check, then the critical section: read, check, replace, temp file, fsync, rename, read state,
patch). Two Python peers: the plain rewrite (read, replace, write in place) and the same with a temp file, fsync
and rename (what atomicity costs anywhere). Medians; the ratio against the plain rewrite is the target.

Run: python3 benchmarks/edit_vs_python.py [RUNS]"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from common import CACHE, build_bench, kernel_tree, median_ms, report

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 9
SIZE = 50 * 1024 * 1024
MARK_OLD = "TANDEM_BENCH_MARKER_ORIGINAL();"
MARK_NEW = "TANDEM_BENCH_MARKER_REPLACED(1, 2);"


def make_file(root: Path) -> Path:
    path = CACHE / "edit-50mb.c"
    if path.exists() and path.stat().st_size >= SIZE:
        return path
    parts, size = [], 0
    for src in sorted((root / "kernel").rglob("*.c")) + sorted((root / "mm").rglob("*.c")) + sorted(
            (root / "fs").rglob("*.c")):
        text = src.read_text(errors="replace").replace("\r", "")
        parts.append(text)
        size += len(text.encode())
        if size >= SIZE:
            break
    body = "".join(parts)
    half = len(body) // 2
    cut = body.index("\n", half) + 1
    path.write_text(body[:cut] + MARK_OLD + "\n" + body[cut:])
    return path


def python_plain(path: Path, old: str, new: str) -> float:
    start = time.perf_counter()
    with open(path, encoding="utf-8", newline="") as f:
        data = f.read()
    data = data.replace(old, new, 1)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(data)
    return time.perf_counter() - start


def python_atomic(path: Path, old: str, new: str) -> float:
    start = time.perf_counter()
    with open(path, encoding="utf-8", newline="") as f:
        data = f.read()
    data = data.replace(old, new, 1)
    tmp = path.with_name("." + path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return time.perf_counter() - start


def main():
    root = Path(kernel_tree())
    bench = build_bench()
    path = make_file(root)
    mb = path.stat().st_size / 1e6
    print(f"Edit of a {mb:.1f} MB file vs Python (median of {RUNS} runs, warm cache)")
    out = subprocess.run([bench, "edit", str(path), MARK_OLD, MARK_NEW, str(RUNS * 2)], capture_output=True,
                         text=True, check=True).stdout
    tool = json.loads(out)["edit_ms"]
    plain, atomic = [], []
    for i in range(RUNS * 2):
        old, new = (MARK_OLD, MARK_NEW) if i % 2 == 0 else (MARK_NEW, MARK_OLD)
        plain.append(python_plain(path, old, new))
    for i in range(RUNS * 2):
        old, new = (MARK_OLD, MARK_NEW) if i % 2 == 0 else (MARK_NEW, MARK_OLD)
        atomic.append(python_atomic(path, old, new))
    tool_ms = sorted(tool)[len(tool) // 2]
    report("Edit 50 MB vs plain read-modify-write", tool_ms, median_ms(plain), "python", 2.0)
    report("Edit 50 MB vs atomic rewrite (tmp+fsync+rename)", tool_ms, median_ms(atomic), "python", 2.0)


if __name__ == "__main__":
    main()
