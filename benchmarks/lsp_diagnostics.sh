#!/usr/bin/env bash
# Diagnostics after an edit (issue 21, "Speed"): from an Edit's start to its result carrying the language server's new
# error, against a bare LSP client's didChange to the server's publishDiagnostics for the same change, each with its
# own server process (pyright, typescript-language-server from tests/lsp), interleaved in one run. Prints medians and
# the ratio Tandem / bare client (target: at most 1.2x).
# Usage: benchmarks/lsp_diagnostics.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-20}
if [ ! -d tests/lsp/node_modules ]; then
  (cd tests/lsp && npm ci --no-audit --no-fund --loglevel=error)
fi
cargo build --quiet --release -p tandem-engine --features test-support --example lsp_diagnostics_bench
target="${CARGO_TARGET_DIR:-target}/release"
exec "$target/examples/lsp_diagnostics_bench" tests/lsp/node_modules "$ROUNDS"
