#!/usr/bin/env bash
# Scheduled prompts: how long after its due minute a scheduled prompt's first model request reaches the model, with
# the session's scheduler running beside it as in the window, against a bare timer set for the same instant (see
# crates/engine/examples/cron_bench.rs). Each round waits for the next minute. Target: within 1 s.
# Usage: benchmarks/cron.sh [ROUNDS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p tandem-engine --features test-support --example cron_bench
exec "${CARGO_TARGET_DIR:-target}/release/examples/cron_bench" "$@"
