#!/usr/bin/env bash
# Tokens in the first request of a session with N deferred (MCP-like) tools, deferred (names only, loaded with
# ToolSearch) vs not, against the in-process fake model server (see crates/engine/examples/tool_search_bench.rs).
# Prints both and their ratio.
# Usage: benchmarks/tool_search.sh [N]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
cargo build --quiet -p tandem-engine --features test-support --example tool_search_bench
exec "${CARGO_TARGET_DIR:-target}/debug/examples/tool_search_bench" "$N"
