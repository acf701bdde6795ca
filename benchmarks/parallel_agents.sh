#!/usr/bin/env bash
# Five background sub-agents in parallel against one: wall time from the prompt to the last agent's end, each child
# answered by the in-process fake model server after a fixed delay (see
# crates/engine/examples/parallel_agents_bench.rs). Prints the medians and the ratio (target <= 1.2x); then the same
# for a team (TeamCreate of five members against one, from the prompt to the last member's first turn ending).
# Usage: benchmarks/parallel_agents.sh [RUNS] [DELAY_MS]   (default 10, 100)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p tandem-engine --features test-support --example parallel_agents_bench
exec "${CARGO_TARGET_DIR:-target}/release/examples/parallel_agents_bench" "$@"
