#!/usr/bin/env python3
"""A scripted turn through `tandem acp` against the same turn in `tandem -p` (issue 22, "Speed"): both against the
fake model server (`tandem-fake-model`), each turn a Read of README.md and an answer. The ACP side is a whole
`tandem acp` process driven by a minimal JSON-RPC client written here (initialize, session/new, session/prompt,
then stdin closed and the exit waited for); the peer is a whole `tandem -p` process. They take turns, one run each
per round, after 2 warm-up rounds. Prints the median and p90 of each and the ratio of the medians (target: at most
1.1).

Usage: benchmarks/acp_turn.py [RUNS]   (default 20; PROFILE=debug to time the debug build instead of release,
NO_BUILD=1 to time the binaries already built)"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROFILE = os.environ.get("PROFILE", "release")
TARGET = REPO / os.environ.get("CARGO_TARGET_DIR", "target") / PROFILE
WARMUP = 2


def build():
    flags = ["--release"] if PROFILE == "release" else []
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-cli", "--bin", "tandem"], cwd=REPO, check=True)
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-engine", "--features", "test-support",
                    "--bin", "tandem-fake-model"], cwd=REPO, check=True)


def script(turns: int) -> dict:
    """Two replies per turn: text with a Read of README.md, then the answer."""
    replies = []
    for n in range(turns):
        replies.append({"reply": "stream", "blocks": [
            {"type": "text", "text": "Let me read the README."},
            {"type": "tool_use", "id": f"toolu_{n}", "name": "Read", "input": {"file_path": "README.md"}},
        ]})
        replies.append({"reply": "stream", "blocks": [{"type": "text", "text": "The README says 42."}]})
    return {"replies": replies}


def acp_turn(tandem: str, project: str, env: dict) -> None:
    proc = subprocess.Popen([tandem, "acp"], cwd=project, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def call(id_: int, method: str, params: dict) -> dict:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            message = json.loads(line)
            if message.get("id") == id_ and "method" not in message:
                if "error" in message:
                    sys.exit(f"{method} failed: {message['error']}")
                return message["result"]
        sys.exit(f"tandem acp closed before answering {method}")

    call(0, "initialize", {"protocolVersion": 1, "clientCapabilities": {}})
    session = call(1, "session/new", {"cwd": project, "mcpServers": []})["sessionId"]
    result = call(2, "session/prompt", {"sessionId": session, "prompt": [{"type": "text", "text": "What is it?"}]})
    if result["stopReason"] != "end_turn":
        sys.exit(f"the ACP turn ended with {result}")
    proc.stdin.close()
    if proc.wait() != 0:
        sys.exit(f"tandem acp exited with {proc.returncode}")


def print_turn(tandem: str, project: str, env: dict) -> None:
    done = subprocess.run([tandem, "-p", "What is it?"], cwd=project, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    if done.returncode != 0 or "42" not in done.stdout:
        sys.exit(f"tandem -p failed ({done.returncode}): {done.stderr}")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    if not os.environ.get("NO_BUILD"):
        build()
    tandem = str(TARGET / "tandem")
    with tempfile.TemporaryDirectory() as work:
        home, project = Path(work, "home"), Path(work, "project")
        project.mkdir()
        home.mkdir()
        (project / "README.md").write_text("# Demo\nThe answer is 42.\n")
        script_file = Path(work, "script.json")
        script_file.write_text(json.dumps(script(2 * (runs + WARMUP))))
        server = subprocess.Popen([str(TARGET / "tandem-fake-model"), str(script_file)], stdout=subprocess.PIPE,
                                  text=True)
        try:
            url = server.stdout.readline().strip()
            env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
            env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                       XDG_DATA_HOME=str(home / ".local/share"), ANTHROPIC_BASE_URL=url,
                       ANTHROPIC_API_KEY="sk-bench")
            cases = [("tandem -p", print_turn), ("tandem acp", acp_turn)]
            times = {name: [] for name, _ in cases}
            for round_ in range(runs + WARMUP):
                for name, turn in cases:
                    start = time.perf_counter()
                    turn(tandem, str(project), env)
                    if round_ >= WARMUP:
                        times[name].append(time.perf_counter() - start)
        finally:
            server.terminate()
            server.wait()
    print(f"one scripted turn (Read README.md, then the answer), {runs} runs each, {PROFILE} build")
    for name, samples in times.items():
        samples.sort()
        p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
        print(f"  {name:12} median {statistics.median(samples) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms")
    ratio = statistics.median(times["tandem acp"]) / statistics.median(times["tandem -p"])
    print(f"ratio tandem acp / tandem -p (medians): {ratio:.2f} (target: at most 1.1)")


if __name__ == "__main__":
    main()
