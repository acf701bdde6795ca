#!/usr/bin/env bash
# Executor speed (issue 4, "Speed"): Tandem's engine against the reference command-line agent
# (@anthropic-ai/claude-code@2.1.332), both pointed at the same in-process fake model server (ANTHROPIC_BASE_URL),
# with the same scripts, in the same generated folder, one after the other on this machine, run RUNS times
# (alternating agents). Every figure is printed for Tandem, for the reference, and as a ratio Tandem / reference
# (below 1 means Tandem is faster). Times are wall-clock (the server, strace and the engine share the clock).
#
# Figures, and how each is measured:
# - Dispatch: MESSAGES (default 150) messages of two Read calls (distinct small files, 200 calls a run), each followed by a short
#   text tail; events are written 1 ms apart, so a message still streams ~25 ms after its last tool_use block.
#   Measured for both from outside the agent: the server notes when it hands each tool_use's `content_block_stop`
#   to the connection; the agent process runs under `strace -f --seccomp-bpf -e trace=openat`, and the tool's
#   start is the first open of its file. An agent that starts tools only when the message ends shows the tail in
#   this figure. Both include strace's cost on the open (same for both). p50 and p99.
#   For Tandem also inside the engine: from the model client yielding the completed tool_use to the call's
#   `executing` status (the executor starting it), and from the server's block_stop to that status.
# - Turnaround: in the same runs, from the server writing `message_stop` of a response with tool calls (the tools
#   are done by then: Reads take well under the tail) to the next request arriving at the server. For Tandem also
#   inside the engine: from the later of the message's end (as the client yields it) and its last call's end to
#   the next request's arrival. p50 and p99. Each request carries the whole history (request r of the dispatch
#   scenario carries 2r - 1 messages), so the figures grow with it; they are also given for the requests carrying
#   at least 200 messages (--history N), both up to the server's `arrived` mark (after it parsed, checked and
#   recorded the body, as the other figures) and up to when it had read the body (before parsing it).
# - Ten against one: messages with one ~200 ms concurrency-safe call and messages with ten, alternating (PAIRS of
#   each a run); wall time from the server writing the first call's block_stop to the next request arriving. The
#   call: the reference's Bash `sleep 0.2` (read-only to it, hence concurrency-safe); Tandem has no Bash tool on
#   main yet, so its call is the engine's fake concurrency-safe `Sleep` tool (200 ms timer), added to the session's
#   tool runtime. Tandem's figure is the executor's parallelism and overhead; the reference's also pays ten
#   process spawns. Medians and ten / one.
# Tandem runs as a child process of the harness (a headless session with its store and JSON lines on stdout, as
# `tandem -p ... --output-format stream-json` does); the reference as `claude -p ... --output-format stream-json
# --verbose --allowedTools Read "Bash(sleep:*)"` with a temporary HOME marking onboarding done and the folder trusted.
# Not measured: process start-up, and the first request (it is not after a tool call).
#
# Targets: dispatch p99 under 1 ms; ten within 1.15x of one; turnaround under 5 ms; ahead of the reference on all.
# Usage: benchmarks/executor.sh [RUNS [PAIRS]]   (NO_REFERENCE=1 to skip the reference agent; MESSAGES=N)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
PAIRS=${2:-10}
REF_DIR=benchmarks/.cache/reference
CLAUDE=$REF_DIR/node_modules/@anthropic-ai/claude-code/bin/claude.exe
ref_args=()
if [ -z "${NO_REFERENCE:-}" ]; then
  if [ ! -x "$CLAUDE" ]; then
    npm install --silent --prefix "$REF_DIR" @anthropic-ai/claude-code@2.1.332 >&2
  fi
  ref_args=(--reference "$(realpath "$CLAUDE")")
fi
if ! command -v strace >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq strace >/dev/null || { echo "executor.sh needs strace (apt-get install strace)" >&2; exit 1; }
fi
cargo build --quiet --release -p tandem-engine --features test-support --example executor_bench
exec "${CARGO_TARGET_DIR:-target}/release/examples/executor_bench" bench --work benchmarks/.cache/executor \
  --runs "$RUNS" --pairs "$PAIRS" --messages "${MESSAGES:-150}" "${ref_args[@]}"
