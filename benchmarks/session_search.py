#!/usr/bin/env python3
"""Full-text search of the session store vs rg over the same text exported to files, and the store's write path
with the search index against without it.

Generates SESSIONS stored sessions of MESSAGES messages each (default 10,000 x 200) through the store's write path
(crates/engine/examples/session_search_bench.rs, release build), once, into benchmarks/.cache/session_search/, with
the same text as one file per session. Then, in the same run: p50/p99 of several queries through
SessionStore::search (20 ranked hits with snippets, in a running process) against `rg -l -i -w -F -j2` over the
exported files (a fresh process each, as a search would run it), and their ratio; and the time to write WRITE
sessions with the index against a store of the schema before it (median of 9 interleaved rounds, 3 for the bulk), as fast as they
can be queued, twice: WRITE sessions (about 32,000 events at the default 50, fewer than the writer lets wait
unindexed while it is busy, so all indexing is left for its idle time), and BULK sessions (about 130,000 events at
the default 200: past that bound the writer indexes between batches, and the burst pays for the index inline).
Targets: search p99 < 50 ms and faster than rg; writes with the index <= 1.1x (the first write figure; the bulk
figure shows the cost of the bound).

Run: python3 benchmarks/session_search.py [SESSIONS] [MESSAGES] [RUNS] [WRITE] [BULK]"""

import json
import shutil
import subprocess
import sys
import time

from common import CACHE, REPO, TARGET

SESSIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
MESSAGES = int(sys.argv[2]) if len(sys.argv) > 2 else 200
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 50
WRITE = int(sys.argv[4]) if len(sys.argv) > 4 else 50
BULK = int(sys.argv[5]) if len(sys.argv) > 5 else 200
BENCH = TARGET / "release" / "examples" / "session_search_bench"
# The store's format is part of the name: a store written by an older format is not reused.
DATA = CACHE / "session_search" / f"{SESSIONS}x{MESSAGES}-v2"

# (label, the query as a person types it, rg's pattern). Ranks in the generator's vocabulary: "ka" is the most
# frequent word (about 7% of all words), "selvelmi" rank 2,000; "needle77x3" is in one prompt of one session.
QUERIES = [
    ("most frequent word (rank 0)", "ka", "ka"),
    ("frequent word (rank 10)", "ek", "ek"),
    ("mid word (rank 300)", "kaek", "kaek"),
    ("rare word (rank 2,000)", "selvelmi", "selvelmi"),
    ("unique token (one session)", "needle77x3", "needle77x3"),
    ("two-word phrase", '"ka lo"', "ka lo"),
]


def build():
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tandem-engine", "--example", "session_search_bench"],
                   cwd=REPO, check=True)


def generate():
    if (DATA / "done").exists():
        return json.loads((DATA / "done").read_text())
    if DATA.exists():
        shutil.rmtree(DATA)
    DATA.mkdir(parents=True)
    print(f"generating {SESSIONS} sessions x {MESSAGES} messages into {DATA} (once)...", file=sys.stderr)
    out = subprocess.run([str(BENCH), "generate", str(DATA), str(SESSIONS), str(MESSAGES)], capture_output=True,
                         text=True, check=True)
    info = json.loads(out.stdout.strip().splitlines()[-1])
    (DATA / "done").write_text(json.dumps(info))
    return info


def rg_times(pattern):
    times, files = [], 0
    for _ in range(max(5, RUNS // 5)):
        start = time.perf_counter()
        proc = subprocess.run(["rg", "-l", "-i", "-w", "-F", "-j2", "--", pattern, str(DATA / "text")],
                              capture_output=True, text=True)
        times.append((time.perf_counter() - start) * 1000.0)
        files = len(proc.stdout.splitlines())
    times.sort()
    return times, files


def pct(sorted_ms, p):
    return sorted_ms[min(len(sorted_ms) - 1, round((len(sorted_ms) - 1) * p))]


def main():
    build()
    info = generate()
    db = DATA / "sessions.db"
    text_mb = sum(f.stat().st_size for f in (DATA / "text").iterdir()) / 1e6
    print(f"{SESSIONS} sessions x {MESSAGES} messages: written in {info['write_s']:.0f} s, the rest indexed in "
          f"{info.get('index_s', 0):.0f} s; database {db.stat().st_size / 1e6:.0f} MB, exported text {text_mb:.0f} MB")
    out = subprocess.run([str(BENCH), "query", str(DATA), str(RUNS)] + [q for _, q, _ in QUERIES],
                         capture_output=True, text=True, check=True)
    ours = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    print(f"{'query':<30} {'search p50':>10} {'p99':>8} {'hits':>5}   {'rg p50':>8} {'p99':>8} {'files':>6}   "
          f"ratio p50 / p99")
    worst = 0.0
    for (label, _, pattern), result in zip(QUERIES, ours):
        rg, files = rg_times(pattern)
        p50, p99 = result["p50_ms"], result["p99_ms"]
        r50, r99 = pct(rg, 0.5), pct(rg, 0.99)
        worst = max(worst, p99)
        print(f"{label:<30} {p50:8.2f}ms {p99:6.2f}ms {result['hits']:5}   {r50:6.1f}ms {r99:6.1f}ms {files:6}   "
              f"{p50 / r50:6.3f}x / {p99 / r99:6.3f}x")
    print(f"worst search p99 {worst:.1f} ms (target < 50 ms: {'ok' if worst < 50 else 'OVER TARGET'})")
    scratch = DATA / "write"
    scratch.mkdir(exist_ok=True)
    for label, sessions, rounds in (("write path", WRITE, 9), ("bulk write", BULK, 3)):
        out = subprocess.run([str(BENCH), "write", str(scratch), str(sessions), str(MESSAGES), str(rounds)],
                             capture_output=True, text=True, check=True)
        w = json.loads(out.stdout.strip().splitlines()[-1])
        verdict = ("ok" if w["ratio"] <= 1.1 else "OVER TARGET") if label == "write path" else "no target"
        print(f"{label}, {sessions} sessions x {MESSAGES} messages ({w['events']} events): with index "
              f"{w['with_index_s']:.2f} s, without {w['without_index_s']:.2f} s, ratio {w['ratio']:.2f}x "
              f"(target 1.1x: {verdict})")
        print(f"  and then indexing all of it (done by the writer while idle, or before a search): "
              f"{w['with_index_and_indexing_s']:.2f} s in all, {w['ratio_with_indexing']:.2f}x the writes without "
              f"index")

if __name__ == "__main__":
    main()
