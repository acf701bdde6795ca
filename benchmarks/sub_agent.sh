#!/usr/bin/env bash
# The overhead of a sub-agent: an Agent (Explore) call against one plain Read call, in one session talking to the
# in-process fake model server, timed off the server's timeline (see crates/engine/examples/sub_agent_bench.rs).
# Prints the medians of: a plain call (response end -> next request), the Agent call's start (response end -> the
# child's first request), its finish (the child's last response end -> the parent's next request), their sum, and
# the ratio of that sum to the plain call.
# Usage: benchmarks/sub_agent.sh [RUNS]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-30}
cargo build --quiet --release -p tandem-engine --features test-support --example sub_agent_bench
exec "${CARGO_TARGET_DIR:-target}/release/examples/sub_agent_bench" "$RUNS"
