#!/usr/bin/env python3
"""How long a remote sub-agent (the Agent tool's `isolation: "remote"`, `tandem acp` on another machine over SSH)
takes to make its first model request after the Agent call starts, against a local sub-agent's, both against one fake
model server (`tandem-fake-model --print-requests`). Each run is `tandem -p` with a parent turn whose first reply is an
Agent call; the sub-agent's first request is the run's second request, wherever it runs. Timed: from the arrival of
the parent's request whose reply is the Agent call to the arrival of the sub-agent's first request (both stamped by
the server's clock, so the reply's streaming and the call's start are in both cases alike). The remote side is a real
sshd on loopback and a second account, `tandem-remote`, as in benchmarks/remote_turn.py; remote runs are timed with a
new SSH connection per sub-agent and with OpenSSH connection sharing (ControlMaster auto, ControlPersist). The three
cases take turns, one run each per round, after 2 warm-up rounds. Prints the medians, p90s and the ratio of each
remote median to the local one, and what `ssh … true` alone takes (the connection's share of the difference).

Needs root (it makes the account and runs sshd). Usage: benchmarks/remote_sub_agent.py [RUNS]   (default 20;
PROFILE=release to time a release build instead of debug, NO_BUILD=1 to time the binaries already built)"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from remote_turn import USER, second_user, start_sshd  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PROFILE = os.environ.get("PROFILE", "debug")
TARGET = REPO / os.environ.get("CARGO_TARGET_DIR", "target") / PROFILE
WARMUP = 2
REQUESTS_PER_RUN = 3


def build():
    flags = ["--release"] if PROFILE == "release" else []
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-cli", "--bin", "tandem"], cwd=REPO, check=True)
    subprocess.run(["cargo", "build", "--quiet", *flags, "-p", "tandem-engine", "--features", "test-support",
                    "--bin", "tandem-fake-model"], cwd=REPO, check=True)


def run_replies(remote: bool) -> list:
    """The parent's Agent call, the sub-agent's answer, the parent's answer."""
    call = {"description": "Answer a question", "prompt": "What is the answer?"}
    if remote:
        call["isolation"] = "remote"
    return [
        {"reply": "stream", "blocks": [{"type": "tool_use", "id": "toolu_agent", "name": "Agent", "input": call}]},
        {"reply": "stream", "blocks": [{"type": "text", "text": "The answer is 42."}]},
        {"reply": "stream", "blocks": [{"type": "text", "text": "The sub-agent says 42."}]},
    ]


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    if not os.environ.get("NO_BUILD"):
        build()
    tandem = TARGET / "tandem"
    uid, gid, user_home = second_user()
    base = user_home / f"bench-{uuid.uuid4().hex[:12]}"
    cases = ["local", "remote, new connection", "remote, shared connection"]
    total = runs + WARMUP
    with tempfile.TemporaryDirectory() as work_dir:
        work = Path(work_dir)
        home, project = work / "home", work / "project"
        for folder in (home, project, project / ".claude"):
            folder.mkdir()
        for folder in (base, base / "proj", base / "bin"):
            folder.mkdir()
            os.chown(folder, uid, gid)
        # A hard link (or a copy): the account cannot pass through the build's folders.
        try:
            os.link(tandem, base / "bin/tandem")
        except OSError:
            shutil.copy(tandem, base / "bin/tandem")
        replies = []
        for _ in range(total):
            for case in cases:
                replies += run_replies(case != "local")
        script_file = work / "script.json"
        script_file.write_text(json.dumps({"replies": replies}))
        server = subprocess.Popen([str(TARGET / "tandem-fake-model"), "--print-requests", str(script_file)],
                                  stdout=subprocess.PIPE, text=True)
        arrivals = []
        sshd = None
        try:
            url = server.stdout.readline().strip()

            def read_requests():
                for line in server.stdout:
                    parts = line.split()
                    if len(parts) == 3 and parts[0] == "request":
                        arrivals.append(int(parts[2]) / 1000)
            threading.Thread(target=read_requests, daemon=True).start()
            sshd, port, plain, shared = start_sshd(work, base, url)
            remote_url = f"ssh://{USER}@127.0.0.1:{port}{base}/proj"
            (project / ".claude/settings.local.json").write_text(json.dumps({"remoteAgentHost": remote_url}))
            env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_") and k != "SSH_AUTH_SOCK"}
            env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
                       ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="sk-bench")
            ssh = {"local": plain, "remote, new connection": plain, "remote, shared connection": shared}
            first = {case: [] for case in cases}
            ordinal = 0
            for round_ in range(total):
                for case in cases:
                    seen = REQUESTS_PER_RUN * ordinal
                    ordinal += 1
                    done = subprocess.run([str(tandem), "-p", "Ask a sub-agent"], cwd=project,
                                          env=dict(env, TANDEM_SSH_COMMAND=f"ssh -F {ssh[case]}"),
                                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
                    if done.returncode != 0 or "42" not in done.stdout:
                        sys.exit(f"{case} failed ({done.returncode}): {done.stdout}\n{done.stderr}")
                    # The server prints each request as it arrives; its line may still be on its way here.
                    deadline = time.time() + 5
                    while len(arrivals) <= seen + 1 and time.time() < deadline:
                        time.sleep(0.001)
                    if round_ >= WARMUP:
                        first[case].append(arrivals[seen + 1] - arrivals[seen])
            # What the SSH connection alone costs: `ssh … true`, with and without sharing.
            bare = {"new connection": [], "shared connection": []}
            for _ in range(runs):
                for case, config in (("new connection", plain), ("shared connection", shared)):
                    start = time.perf_counter()
                    subprocess.run(["ssh", "-F", str(config), "-p", str(port), f"{USER}@127.0.0.1", "--", "true"],
                                   env=env, stdin=subprocess.DEVNULL, capture_output=True, check=True)
                    bare[case].append(time.perf_counter() - start)
        finally:
            if sshd:
                sshd.kill()
                sshd.wait()
            server.terminate()
            server.wait()
            shutil.rmtree(base, ignore_errors=True)
    print(f"the sub-agent's first model request after the Agent call's request, {runs} runs each, {PROFILE} build")
    for case in cases:
        samples = sorted(first[case])
        p90 = samples[min(len(samples) - 1, int(len(samples) * 0.9))]
        print(f"  {case:26} median {statistics.median(samples) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms")
    local = statistics.median(first["local"])
    for case in cases[1:]:
        print(f"ratio {case} / local (medians): {statistics.median(first[case]) / local:.2f}")
    for case, samples in bare.items():
        print(f"  `ssh … true` alone, {case:17} median {statistics.median(samples) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
