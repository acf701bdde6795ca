#!/usr/bin/env python3
"""A hosted agent's turn through `tandem -p --agent` against the same agent driven by a bare ACP client, in the same
run: the agent is `tandem acp` (with a home of its own) against the fake model server (`tandem-fake-model`), each
turn a Read of README.md and an answer. The bare client is a minimal JSON-RPC client written here (it starts the
agent, sends initialize, session/new and session/prompt, ignores the updates, then closes stdin and waits for the
exit); the peer is a whole `tandem -p --agent tandem` process (the same agent started from the settings'
agentServers, its updates turned into stored events). They take turns, one run each per round, after 2 warm-up
rounds. Prints the median and p90 of each and the ratio of the medians: what Tandem adds as a client (its own start,
the session and its store, the permission checks).

Usage: benchmarks/acp_client.py [RUNS]   (default 20; PROFILE=debug to time the debug build instead of release,
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


def bare_turn(agent: list, project: str, env: dict) -> None:
    """One turn with the agent over a bare JSON-RPC connection."""
    proc = subprocess.Popen(agent, cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def call(id_: int, method: str, params: dict) -> dict:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            message = json.loads(line)
            if "method" in message and "id" in message:
                # The agent asks the client something (a permission): allowed.
                options = message["params"].get("options", [{}])
                answer = {"outcome": {"outcome": "selected", "optionId": options[0].get("optionId")}}
                proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": answer}) + "\n")
                proc.stdin.flush()
            elif message.get("id") == id_:
                if "error" in message:
                    sys.exit(f"{method} failed: {message['error']}")
                return message["result"]
        sys.exit(f"the agent closed before answering {method}")

    call(0, "initialize", {"protocolVersion": 1, "clientCapabilities": {}})
    session = call(1, "session/new", {"cwd": project, "mcpServers": []})["sessionId"]
    result = call(2, "session/prompt", {"sessionId": session, "prompt": [{"type": "text", "text": "What is it?"}]})
    if result["stopReason"] != "end_turn":
        sys.exit(f"the bare client's turn ended with {result}")
    proc.stdin.close()
    if proc.wait() != 0:
        sys.exit(f"the agent exited with {proc.returncode}")


def hosted_turn(tandem: str, project: str, env: dict) -> None:
    done = subprocess.run([tandem, "-p", "What is it?", "--agent", "tandem"], cwd=project, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0 or "42" not in done.stdout:
        sys.exit(f"tandem -p --agent failed ({done.returncode}): {done.stderr}")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    if not os.environ.get("NO_BUILD"):
        build()
    tandem = str(TARGET / "tandem")
    with tempfile.TemporaryDirectory() as work:
        home, agent_home, project = Path(work, "home"), Path(work, "agent-home"), Path(work, "project")
        for folder in (home, agent_home, project):
            folder.mkdir()
        (project / "README.md").write_text("# Demo\nThe answer is 42.\n")
        script_file = Path(work, "script.json")
        script_file.write_text(json.dumps(script(2 * (runs + WARMUP))))
        server = subprocess.Popen([str(TARGET / "tandem-fake-model"), str(script_file)], stdout=subprocess.PIPE,
                                  text=True)
        try:
            url = server.stdout.readline().strip()
            base = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
            agent_env = dict(base, HOME=str(agent_home), XDG_CONFIG_HOME=str(agent_home / ".config"),
                             XDG_DATA_HOME=str(agent_home / ".local/share"), ANTHROPIC_BASE_URL=url,
                             ANTHROPIC_API_KEY="sk-bench")
            agent = [tandem, "acp"]
            client_env = dict(base, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                              XDG_DATA_HOME=str(home / ".local/share"))
            settings = home / ".config/tandem/settings.json"
            settings.parent.mkdir(parents=True)
            settings.write_text(json.dumps({"agentServers": {"tandem": {
                "command": tandem, "args": ["acp"],
                "env": {k: agent_env[k] for k in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                                                  "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")}}}}))
            cases = [("bare client", lambda: bare_turn(agent, str(project), agent_env)),
                     ("tandem -p --agent", lambda: hosted_turn(tandem, str(project), client_env))]
            times = {name: [] for name, _ in cases}
            for round_ in range(runs + WARMUP):
                for name, turn in cases:
                    start = time.perf_counter()
                    turn()
                    if round_ >= WARMUP:
                        times[name].append(time.perf_counter() - start)
        finally:
            server.terminate()
            server.wait()
    print(f"one scripted turn of tandem acp (Read README.md, then the answer), {runs} runs each, {PROFILE} build")
    for name, samples in times.items():
        samples.sort()
        p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
        print(f"  {name:18} median {statistics.median(samples) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms")
    ratio = statistics.median(times["tandem -p --agent"]) / statistics.median(times["bare client"])
    print(f"ratio tandem -p --agent / bare client (medians): {ratio:.2f}")


if __name__ == "__main__":
    main()
