#!/usr/bin/env bash
# Start-up of the command line: wall time of whole processes of the release `tandem` binary (crates/cli, which does
# not link the GUI) for `--version`, `permissions check Bash --input '{"command":"ls"}'` and a trivial `tool` call
# (Read of a small file), against the reference command-line agent's `--version`
# (@anthropic-ai/claude-code@2.1.332) measured in the same run. The commands take turns, one run each per round,
# after 3 warm-up rounds, so load on the machine touches them alike. Prints the median, p90 and the ratio of each
# median to the reference's (below 1 means Tandem starts faster), and the shared libraries each binary loads.
# Without the reference (not installable, or NO_REFERENCE=1) the peer is `/bin/true`, and the output says so.
#
# Target: every headless command starts faster than the reference's `--version`.
# Usage: benchmarks/cli_startup.sh [RUNS]   (default 30; REFERENCE_DIR=DIR to use an installed reference)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-30}
REF_DIR=${REFERENCE_DIR:-benchmarks/.cache/reference}
CLAUDE=$REF_DIR/node_modules/@anthropic-ai/claude-code/bin/claude.exe
peer=(/bin/true)
peer_name="/bin/true (the reference agent is not installed)"
if [ -z "${NO_REFERENCE:-}" ]; then
  if [ ! -x "$CLAUDE" ]; then
    npm install --silent --prefix "$REF_DIR" @anthropic-ai/claude-code@2.1.332 >&2 || true
  fi
  if [ -x "$CLAUDE" ]; then
    peer=("$(realpath "$CLAUDE")" --version)
    peer_name="reference --version"
  fi
fi
cargo build --quiet --release -p tandem-cli
bin="$(realpath "${CARGO_TARGET_DIR:-target}/release/tandem")"
echo "tandem: $bin ($(ldd "$bin" | grep -c '=>') shared libraries; GUI libraries: $(ldd "$bin" | grep -cE 'webkit|gtk|gdk|soup|javascriptcore') )"
[ "${peer[0]}" = /bin/true ] || echo "reference: ${peer[0]} ($(ldd "${peer[0]}" | grep -c '=>') shared libraries)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/project"
echo "hello" > "$work/project/notes.txt"
exec env HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share" \
  python3 - "$RUNS" "$work/project" "$bin" "$peer_name" "${peer[@]}" <<'PY'
import statistics
import subprocess
import sys
import time

runs, project, tandem, peer_name, peer = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
cases = [
    (peer_name, peer),
    ("tandem --version", [tandem, "--version"]),
    ("tandem permissions check Bash ls", [tandem, "permissions", "check", "Bash", "--input", '{"command":"ls"}',
                                          "--cwd", project]),
    ("tandem tool Read (small file)", [tandem, "tool", "Read", "--input", '{"file_path":"notes.txt"}',
                                       "--cwd", project]),
]
times = {name: [] for name, _ in cases}
for round_ in range(runs + 3):
    for name, argv in cases:
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=project, stdin=subprocess.DEVNULL, capture_output=True)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"{name} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
        if round_ >= 3:
            times[name].append(elapsed * 1000)
base = statistics.median(times[peer_name])
print(f"{runs} runs each, wall time of the whole process (ms)")
print(f"{'command':<36} {'median':>8} {'p90':>8} {'ratio':>7}")
for name, _ in cases:
    t = sorted(times[name])
    median = statistics.median(t)
    p90 = t[min(len(t) - 1, int(0.9 * len(t)))]
    print(f"{name:<36} {median:8.2f} {p90:8.2f} {median / base:6.2f}x")
PY
