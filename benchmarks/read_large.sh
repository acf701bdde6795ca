#!/usr/bin/env bash
# Read of a few lines of a huge file: the release `tandem` binary (crates/cli) running `tool Read` on a 1 GiB log
# (15.6 million numbered lines of ~69 bytes, made anew each run in a temporary folder, page cache warm) against
# `sed` printing the same lines and quitting after the last (`sed -n '1000,1004p;1004q'`), in the same run. The
# commands take turns, one run each per round, after a warm-up run of each. Prints per case the median wall time
# of each, their ratio (below 1 means Tandem is faster), and the peak resident memory of each (`/usr/bin/time`);
# the lines printed are checked equal. Tandem's time includes its process start (~15 ms, see cli_startup.sh).
#
# Cases: `offset 1000, limit 5` (peer: sed as above) and a read without offset or limit, which shows the first
# 2,000 lines (peer: `head -n 2000`).
# Target: under 100 ms and under 64 MiB peak for `offset 1000, limit 5`.
# Usage: benchmarks/read_large.sh [RUNS]   (default 15; SIZE_MIB=N for another file size)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-15}
SIZE_MIB=${SIZE_MIB:-1024}
if [ ! -x /usr/bin/time ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq time >/dev/null || { echo "read_large.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
fi
cargo build --quiet --release -p tandem-cli
bin="$(realpath "${CARGO_TARGET_DIR:-target}/release/tandem")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/project"
exec env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
  python3 - "$RUNS" "$SIZE_MIB" "$work" "$bin" <<'PY'
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

runs, size_mib, work, tandem = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
project = work / "project"
log = project / "big.log"

# Numbered lines of ~69 bytes, written in blocks of 100,000.
line_no = 0
with open(log, "wb") as f:
    written = 0
    while written < size_mib << 20:
        block = []
        for _ in range(100_000):
            line_no += 1
            block.append(f"2026-12-03T07:45:00Z INFO worker-{line_no % 7} request {line_no:>12} done in 3 ms\n")
        data = "".join(block).encode()
        data = data[: (size_mib << 20) - written]
        f.write(data)
        written += len(data)
subprocess.run(["cat", str(log)], stdout=subprocess.DEVNULL, check=True)  # warm the page cache
print(f"file: {log.stat().st_size / (1 << 20):.0f} MiB, {line_no} lines; tandem: {tandem}")


def measured(cmd):
    """Runs cmd under /usr/bin/time; returns (seconds, peak RSS in KiB, stdout)."""
    rss_file = work / "rss"
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(rss_file)] + cmd, capture_output=True,
                          text=True, cwd=project)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed: {cmd}: {proc.stderr}")
    return elapsed, int(rss_file.read_text().split()[-1]), proc.stdout


def shown_lines(tool_stdout):
    """The numbered lines of a Read result, as the file has them."""
    content = json.loads(tool_stdout.strip().splitlines()[-1])["content"]
    text = content if isinstance(content, str) else "".join(b.get("text", "") for b in content)
    return [l.split("\t", 1)[1] for l in text.splitlines() if "\t" in l and l.split("\t", 1)[0].strip().isdigit()]


def tool(args):
    return [tandem, "tool", "Read", "--input", json.dumps(dict(file_path=str(log), **args)), "--cwd", str(project)]


cases = [
    ("offset 1000, limit 5", tool({"offset": 1000, "limit": 5}), "sed 1000,1004p;1004q",
     ["sed", "-n", "1000,1004p;1004q", str(log)], True),
    ("no offset or limit (first 2000 lines)", tool({}), "head -n 2000", ["head", "-n", "2000", str(log)], False),
]
for name, ours_cmd, peer_name, peer_cmd, targeted in cases:
    _, _, ours_out = measured(ours_cmd)
    _, _, peer_out = measured(peer_cmd)
    if shown_lines(ours_out) != peer_out.splitlines():
        print(f"  MISMATCH in {name}: tool shows {shown_lines(ours_out)[:3]}..., {peer_name} {peer_out.splitlines()[:3]}...")
    ours, theirs, ours_rss, peer_rss = [], [], [], []
    for _ in range(runs):
        t, rss, _ = measured(ours_cmd)
        ours.append(t)
        ours_rss.append(rss)
        t, rss, _ = measured(peer_cmd)
        theirs.append(t)
        peer_rss.append(rss)
    o, p = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
    o_rss, p_rss = max(ours_rss) / 1024, max(peer_rss) / 1024
    verdict = ""
    if targeted:
        ok = o < 100 and o_rss < 64
        verdict = f"  (target < 100 ms and < 64 MiB: {'ok' if ok else 'OVER TARGET'})"
    print(f"Read {name:<40} tool {o:8.1f} ms {o_rss:7.1f} MiB   {peer_name} {p:7.1f} ms {p_rss:5.1f} MiB   "
          f"ratio {o / p:6.2f}x{verdict}")
PY
