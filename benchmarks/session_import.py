#!/usr/bin/env python3
"""Importing the reference agent's transcripts: `tandem sessions import --claude-code DIR` over TRANSCRIPTS generated
transcripts against a peer doing comparable work in the same run.

Generates TRANSCRIPTS files (default 1,000) in the reference agent's JSON-lines format, as it keeps them under
~/.claude/projects/<folder>/<session>.jsonl: a summary line, progress and snapshot lines, and TURNS turns (default
10) of a prompt, an answer written a block a line (thinking, text, a tool call), the tool's result, and a closing
answer, spread over 20 project folders (about 60 lines and 30 KB a file). Then, RUNS times (default 3), interleaved,
each into a fresh store: `tandem sessions import --claude-code DIR` (which parses every line, builds the history
and the events, stores each session in a transaction of its own, waiting for each commit, and indexes it all for
search before it exits), and the peer: python3
parsing every line with json and inserting each line into a sqlite3 file (WAL, a transaction per file), the least
a reader that keeps what it read must do. Prints the medians and their ratio.

The binary: target/release/tandem when it is there (built with `cargo build --release -p tandem-cli`), else
target/debug/tandem; the script says which it used.

Run: python3 benchmarks/session_import.py [TRANSCRIPTS] [TURNS] [RUNS]"""

import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from common import TARGET

TRANSCRIPTS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
TURNS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
WORDS = ("burrow quokka tunnel warren chamber wombat migration schema column index query table "
         "parse import export session folder answer prompt result").split()


def binary():
    for profile in ("release", "debug"):
        path = TARGET / profile / "tandem"
        if path.exists():
            return path, profile
    sys.exit("no tandem binary: cargo build --release -p tandem-cli")


def sentence(n, k):
    return " ".join(WORDS[(n * 7 + i * 3 + k) % len(WORDS)] for i in range(12 + n % 9))


def transcript(n):
    """One transcript's lines, as the reference agent writes them."""
    sid = str(uuid.UUID(int=n + 1))
    cwd = f"/home/bench/src/project-{n % 20}"
    t = 1_760_000_000.0 + n * 3600
    lines = [{"type": "summary", "summary": f"Session {n}: {sentence(n, 0)[:40]}", "leafUuid": None}]
    parent = None
    count = 0

    def line(kind, message, **extra):
        nonlocal parent, count, t
        count += 1
        t += 1.5
        u = str(uuid.UUID(int=(n << 20) + count))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"
        lines.append({"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd,
                      "sessionId": sid, "version": "2.1.39", "gitBranch": "main", "type": kind,
                      "message": message, **extra, "uuid": u, "timestamp": stamp})
        parent = u

    usage = {"input_tokens": 12, "cache_creation_input_tokens": 900, "cache_read_input_tokens": 14000,
             "output_tokens": 80, "service_tier": "standard"}
    for turn in range(TURNS):
        line("user", {"role": "user", "content": f"Turn {turn}: {sentence(n, turn)}"})
        mid = f"msg_{n}_{turn}"
        tool = f"toolu_{n}_{turn}"

        def answer(block, stop=None):
            line("assistant", {"model": "claude-sonnet-4-5-20250929", "id": mid, "type": "message",
                               "role": "assistant", "content": [block], "stop_reason": stop,
                               "stop_sequence": None, "usage": usage}, requestId=f"req_{n}_{turn}")

        answer({"type": "thinking", "thinking": sentence(n, turn + 1), "signature": "EpIBCkYIBRgCKkD"})
        answer({"type": "text", "text": sentence(n, turn + 2)})
        if turn % 2:
            answer({"type": "tool_use", "id": tool, "name": "Edit",
                    "input": {"file_path": f"{cwd}/src/mod{turn}.rs", "old_string": sentence(n, turn + 3),
                              "new_string": sentence(n, turn + 4)}}, "tool_use")
            result = f"The file {cwd}/src/mod{turn}.rs has been updated."
        else:
            answer({"type": "tool_use", "id": tool, "name": "Bash",
                    "input": {"command": f"cargo test -p mod{turn}", "description": "Run the tests"}}, "tool_use")
            result = "\n".join(f"test t{i} ... ok {sentence(n, i)}" for i in range(20))
        lines.append({"type": "progress", "data": {"type": "hook_progress", "hookEvent": "PostToolUse"},
                      "parentToolUseID": tool, "toolUseID": tool, "sessionId": sid, "uuid": str(uuid.uuid4()),
                      "parentUuid": parent, "timestamp": "2026-01-01T00:00:00.000Z"})
        line("user", {"role": "user", "content": [{"tool_use_id": tool, "type": "tool_result", "content": result}]},
             toolUseResult={"stdout": result, "stderr": "", "interrupted": False})
        mid = f"msg_{n}_{turn}_end"
        line("assistant", {"model": "claude-sonnet-4-5-20250929", "id": mid, "type": "message", "role": "assistant",
                           "content": [{"type": "text", "text": sentence(n, turn + 5)}], "stop_reason": "end_turn",
                           "stop_sequence": None, "usage": usage})
    lines[0]["leafUuid"] = parent
    return sid, cwd, lines


def generate(root):
    total = 0
    for n in range(TRANSCRIPTS):
        sid, cwd, lines = transcript(n)
        folder = root / cwd.replace("/", "-")
        folder.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines)
        (folder / f"{sid}.jsonl").write_text(text)
        total += len(text)
    return total


def run_tandem(tandem, projects, home):
    if home.exists():
        shutil.rmtree(home)
    home.mkdir()
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    start = time.perf_counter()
    proc = subprocess.run([str(tandem), "sessions", "import", "--claude-code", str(projects)], env=env,
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"tandem sessions import failed ({proc.returncode}): {proc.stderr[-2000:]}")
    imported = sum(1 for l in proc.stdout.splitlines() if l.startswith("imported"))
    if imported != TRANSCRIPTS:
        sys.exit(f"tandem imported {imported} of {TRANSCRIPTS}: {proc.stderr[-2000:]}")
    return elapsed


PEER = r"""
import json, sqlite3, sys
from pathlib import Path
db = sqlite3.connect(sys.argv[2], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL")
db.execute("CREATE TABLE lines (session TEXT, n INTEGER, type TEXT, body TEXT, PRIMARY KEY (session, n))")
for path in sorted(Path(sys.argv[1]).glob("*/*.jsonl")):
    db.execute("BEGIN")
    for n, raw in enumerate(path.read_bytes().split(b"\n")):
        if not raw.strip():
            continue
        line = json.loads(raw)
        db.execute("INSERT INTO lines VALUES (?, ?, ?, ?)", (path.stem, n, line.get("type"), json.dumps(line)))
    db.execute("COMMIT")
"""


def run_peer(projects, work):
    db = work / "peer.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", PEER, str(projects), str(db)], check=True)
    return time.perf_counter() - start


def main():
    tandem, profile = binary()
    with tempfile.TemporaryDirectory(prefix="tandem-import-bench-") as tmp:
        work = Path(tmp)
        projects = work / "projects"
        size = generate(projects)
        print(f"{TRANSCRIPTS} transcripts x {TURNS} turns, {size / 1e6:.1f} MB; tandem {profile} build ({tandem})")
        ours, peer = [], []
        for _ in range(RUNS):
            ours.append(run_tandem(tandem, projects, work / "home"))
            peer.append(run_peer(projects, work))
        o, p = statistics.median(ours) * 1000, statistics.median(peer) * 1000
        print(f"tandem sessions import --claude-code   median {o:8.0f} ms  ({o / TRANSCRIPTS:.2f} ms a transcript)")
        print(f"python3 json + sqlite3 (lines only)    median {p:8.0f} ms  ({p / TRANSCRIPTS:.2f} ms a transcript)")
        print(f"ratio {o / p:.2f}x  (runs: tandem {[round(x, 2) for x in ours]} s, peer {[round(x, 2) for x in peer]} s)")


if __name__ == "__main__":
    main()
