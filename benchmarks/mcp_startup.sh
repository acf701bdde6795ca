#!/usr/bin/env bash
# Time to the first prompt with MCP servers (issue 12, "Speed"): `tandem -p` with five MCP servers configured (the
# workspace's test server, one of them started with `--start-delay-ms 5000`) against the same run with no server,
# the fake model (`tandem-fake-model --print-requests`) telling when the first model request arrives. The two cases
# take turns, RUNS each after one warm-up round, in a fresh HOME per case (the warm-up fills the data folder as a
# person's earlier sessions would). Prints the median and worst time from process start to the first model request
# and to the process's end, and the ratio of the medians (target: not delayed, about 1x).
# Usage: benchmarks/mcp_startup.sh [RUNS]   (default 5; PROFILE=debug uses debug builds)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
PROFILE=${PROFILE:-release}
flag=--release
[ "$PROFILE" = debug ] && flag=
cargo build --quiet $flag -p tandem-cli
cargo build --quiet $flag -p tandem-engine --features test-support --bin tandem-test-mcp --bin tandem-fake-model
target="$(realpath "${CARGO_TARGET_DIR:-target}/$PROFILE")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exec python3 - "$RUNS" "$work" "$target" <<'PY'
import json
import os
import statistics
import subprocess
import sys
import time

runs, work, target = int(sys.argv[1]), sys.argv[2], sys.argv[3]
tandem, server, fake = (os.path.join(target, n) for n in ("tandem", "tandem-test-mcp", "tandem-fake-model"))
script = os.path.join(work, "script.json")
with open(script, "w") as f:
    json.dump({"replies": []}, f)
model = subprocess.Popen([fake, "--print-requests", script], stdout=subprocess.PIPE, text=True)
url = model.stdout.readline().strip()
servers = {f"fast{i}": {"command": server} for i in range(1, 5)}
servers["slow"] = {"command": server, "args": ["--start-delay-ms", "5000"]}
cases = {
    "no MCP server": [],
    "5 servers, one 5 s slow": ["--mcp-config", json.dumps({"mcpServers": servers})],
}
first = {name: [] for name in cases}
whole = {name: [] for name in cases}
for round_ in range(runs + 1):
    for name, extra in cases.items():
        home = os.path.join(work, name.replace(" ", "_").replace(",", ""))
        project = os.path.join(home, "project")
        os.makedirs(project, exist_ok=True)
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/.config", XDG_DATA_HOME=f"{home}/.local/share",
                   ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="sk-bench")
        env.pop("ANTHROPIC_MODEL", None)
        start = time.time()
        run = subprocess.Popen([tandem, "--strict-mcp-config", *extra, "-p", "hello"], cwd=project, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = model.stdout.readline().split()
        arrived = int(line[2]) / 1000
        out, err = run.communicate()
        ended = time.time()
        if run.returncode != 0:
            sys.exit(f"{name}: tandem failed ({run.returncode}): {err.decode(errors='replace')}")
        if round_ >= 1:
            first[name].append((arrived - start) * 1000)
            whole[name].append((ended - start) * 1000)
model.terminate()
base = statistics.median(first["no MCP server"])
print(f"{runs} runs each ({os.path.basename(target)} build), ms from process start")
print(f"{'case':<26} {'first request':>14} {'worst':>8} {'process end':>12} {'ratio':>7}")
for name in cases:
    m = statistics.median(first[name])
    print(f"{name:<26} {m:14.1f} {max(first[name]):8.1f} {statistics.median(whole[name]):12.1f} {m / base:6.2f}x")
PY
