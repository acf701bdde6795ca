#!/usr/bin/env bash
# MCP call round trip (issue 12, "Speed"): the workspace's test MCP server's `echo` tool called CALLS times through
# Tandem's MCP client (the whole tool-call pipeline: lookup, schema check, permission decision, hooks, the call and
# the result's conversion) and through a minimal rmcp client (`peer.call_tool`, the same rmcp version) on a server
# of its own, calls interleaved, over stdio and over streamable HTTP on loopback, in one run. Prints p50 and p99 of
# each and the ratio Tandem / minimal (target: at most 1.2x).
# Usage: benchmarks/mcp_call.sh [CALLS]
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${1:-500}
cargo build --quiet --release -p tandem-engine --features test-support --example mcp_call_bench --bin tandem-test-mcp
target="${CARGO_TARGET_DIR:-target}/release"
exec "$target/examples/mcp_call_bench" "$(realpath "$target/tandem-test-mcp")" "$CALLS"
